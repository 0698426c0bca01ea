"""Huang, Zhang & Wu (AAAI-22), "Achieving Counterfactual Fairness for Causal Bandit".

The package: :mod:`.config` (config checks), :mod:`.email` and :mod:`.adult_video` (the two
experiments), :mod:`.instance`, :mod:`.runs` (the algorithms on the engine), :mod:`.tables`,
:mod:`.figures` and :mod:`.claims` (the paper's numbers and claims). This module stays light: run
jobs import it.
"""

PAPER = "fairness"
TITLE = "Huang, Zhang & Wu (AAAI-22): counterfactual fairness for causal bandits"
