"""Bandit algorithms, one module each, and the one engine that runs them (:mod:`.engine`).

Each paper's run module (``papers/<key>/runs.py``) holds the registry of the algorithms it runs;
this package imports none of them, so that a job depends only on the algorithm it executes
(:mod:`causal_bandits.sources`).
"""
