"""Researchers' own experiments: the workflow's ``experiments:`` config section, kept apart from the papers.

Each experiment names a causal diagram, an SCM on it, the strategies (BF, MIS, POMIS, POMIS+ or
explicit arm lists) and the registered algorithms to play them with, and its own horizon and seeds.
It runs on the nonmanip paper's instance and run machinery (Lee & Bareinboim, AAAI-19): the
instance document of :func:`causal_bandits.papers.nonmanip.experiments.instance_document` and the
runner of :mod:`causal_bandits.papers.nonmanip.runs` (:mod:`.runs`), with random streams keyed
("experiments", name, seed, purpose), so it shares no stream, file or claim with any paper.

Modules: :mod:`.algorithms` (which algorithms and strategies exist), :mod:`.config` (the schema and
the checks a schema cannot make), :mod:`.runs` (its run jobs), :mod:`.instance` (diagram, SCM and arms of
an experiment), :mod:`.summary` (its table and the report's summary), :mod:`.figure` (its regret figure). This
module stays light: run jobs import it.
"""

#: The stream key and run-store directory of own experiments (never a paper's key).
KEY = "experiments"
