"""Combinatorial pure exploration of causal bandits (ICLR 2023): CCPE-BGLM, CCPE-General, baselines.

Our copy of the paper is its main body: it has no experiment, table or figure. The package
implements every algorithm and complexity quantity of the text and the experiments E0–E5 that the
our reading (docs/papers/cpe.md#cpe-experiments) designs to test the paper's theorems; every output says it is designed
for this replication.

:mod:`.scm`, :mod:`.actions`, :mod:`.admissible`, :mod:`.instance`, :mod:`.families` (instances as
data, exact means), :mod:`.complexity`, :mod:`.quantities` (Definitions 1-2, Eq. 3, Lemma 1,
Theorems 1-3), :mod:`.environment`, :mod:`.recorders`, :mod:`.design` (config -> jobs),
:mod:`.runs`, :mod:`.aggregate`, :mod:`.tables`, :mod:`.figures`, :mod:`.claims`. The algorithms are
in :mod:`causal_bandits.bandits` (``ccpe_general``, ``ccpe_bglm``, ``ccpe_naive``, ``lucb``,
``successive_elimination``, ``parallel_bandit``). This module imports nothing.
"""

PAPER = "cpe"
TITLE = "Combinatorial pure exploration of causal bandits (ICLR 2023) — designed experiments E0–E5"
