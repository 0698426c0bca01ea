"""Huang & Wu: the algorithms of Figure 4 and of the appendix, one registry entry each (see
:mod:`causal_bandits.algorithms`). Labels are spelled as in the paper's legends; ``style["set1"]``
is the colour's index in seaborn's "Set1" palette (a causal algorithm shares its counterpart's
line colour scheme across figures)."""

from causal_bandits.algorithms import Algorithm

LINUCB = "causal_bandits.bandits.linucb.LinUCB"
UCB_PCB = "causal_bandits.bandits.ucb_pcb.UCBPCB"
OAM_PCB = "causal_bandits.bandits.oam_pcb.OAMPCB"
HUANG_WU = "Huang & Wu, robustly improving bandit algorithms with confounded and selection-biased offline data"

ALGORITHMS = (
    Algorithm("linucb_pcb", LINUCB, "LinUCB-PCB", {"set1": 0}, citation=f"{HUANG_WU}: LinUCB-PCB, Figure 4"),
    Algorithm("linucb", LINUCB, "LinUCB", {"set1": 1}, citation=f"{HUANG_WU}: Figure 4 (no offline data)"),
    Algorithm(
        "linucb_biased", LINUCB, "LinUCB_Biased", {"set1": 2}, citation=f"{HUANG_WU}: Figure 4 (biased warm start)"
    ),
    Algorithm(
        "linucb_cp", LINUCB, "LinUCB_CP", {"set1": 3}, citation=f"{HUANG_WU}: Figure 4 (causal-point warm start)"
    ),
    Algorithm("ucb_pcb", UCB_PCB, "UCB-PCB", {"set1": 0}, citation=f"{HUANG_WU}: appendix, UCB-PCB"),
    Algorithm("ucb", UCB_PCB, "UCB", {"set1": 1}, citation=f"{HUANG_WU}: appendix, UCB-PCB without bounds"),
    Algorithm("oam_pcb", OAM_PCB, "OAM-PCB", {"set1": 4}, citation=f"{HUANG_WU}: appendix, OAM-PCB"),
    Algorithm("oam", OAM_PCB, "OAM", {"set1": 6}, citation=f"{HUANG_WU}: appendix, OAM-PCB without bounds"),
)
