"""Huang, Zhang & Wu (AAAI-22): the algorithms of §4, one registry entry each (see
:mod:`causal_bandits.algorithms`). F-UCB runs once per fairness threshold τ, as ``fucb_tau<τ>``."""

from causal_bandits.algorithms import Algorithm

PAPER = "Huang, Zhang & Wu (AAAI-22)"

ALGORITHMS = (
    Algorithm("ucb", "causal_bandits.bandits.ucb.UCB", "UCB", citation=f"{PAPER}, §4.1: UCB baseline"),
    Algorithm("cucb", "causal_bandits.bandits.cucb.CUCB", "C-UCB", citation=f"{PAPER}, §4.1: C-UCB baseline"),
    Algorithm("ducb", "causal_bandits.bandits.ducb.DUCB", "D-UCB", citation=f"{PAPER}, §3: D-UCB"),
    Algorithm("fucb", "causal_bandits.bandits.fucb.FUCB", "F-UCB", citation=f"{PAPER}, Algorithm 1: F-UCB"),
    Algorithm(
        "fairlinucb",
        "causal_bandits.bandits.fair_linucb.FairLinUCB",
        "Fair-LinUCB",
        citation=f"{PAPER}, §4.2: Fair-LinUCB baseline",
    ),
)
