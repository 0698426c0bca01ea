"""Huang & Wu, "Robustly Improving Bandit Algorithms with Confounded and Selection Biased Offline
Data: A Causal Approach".

The package: :mod:`.config` (the SCM and config checks), :mod:`.cells` (Table 1's reported numbers
and cell indexing), :mod:`.offline` (data, exact truth, Table 1 estimates, coverage), :mod:`.runs`
(Figure 4 and appendix runs), :mod:`.tables`, :mod:`.figures` and :mod:`.claims`. This module stays
light: run jobs import it.
"""

PAPER = "bounds"
TITLE = "Huang & Wu: bandits with confounded and selection-biased offline data"
