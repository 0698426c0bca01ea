"""Lu, Meisami & Tewari (NeurIPS-21): CN-UCB and the references it is compared with, one registry entry
each (see :mod:`causal_bandits.algorithms`)."""

from causal_bandits.algorithms import Algorithm

PAPER = "Lu, Meisami & Tewari (NeurIPS-21)"
CNUCB = "causal_bandits.bandits.cn_ucb.CNUCB"
UCB1 = "causal_bandits.bandits.ucb1.UCBPolicy"

ALGORITHMS = (
    Algorithm("cn_ucb", CNUCB, "CN-UCB", citation=f"{PAPER}, Algorithms 1-2 (with the corrected stage rules)"),
    Algorithm("cn_ucb_literal", CNUCB, "CN-UCB (literal Alg. 7/8)", citation=f"{PAPER}, Algorithms 7-8 as printed"),
    Algorithm("ucb", UCB1, "UCB", citation="UCB1 on every intervention (Auer et al., 2002)"),
    Algorithm("oracle", UCB1, "Oracle-UCB", citation="UCB1 on the arms of the true reward parents"),
)
