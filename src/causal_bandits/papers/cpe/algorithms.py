"""cpe (ICLR 2023): the algorithms of the designed experiments, one registry entry each (see
:mod:`causal_bandits.algorithms`); ``style`` holds each one's colour in every figure."""

from causal_bandits.algorithms import Algorithm

ALGORITHMS = (
    Algorithm(
        "ccpe_general",
        "causal_bandits.bandits.ccpe_general.CCPEGeneral",
        "CCPE-General",
        {"color": "#1b9e77"},
        citation="Combinatorial pure exploration of causal bandits (ICLR 2023), CCPE-General",
    ),
    Algorithm(
        "ccpe_bglm",
        "causal_bandits.bandits.ccpe_bglm.CCPEBGLM",
        "CCPE-BGLM",
        {"color": "#7570b3"},
        citation="Combinatorial pure exploration of causal bandits (ICLR 2023), CCPE-BGLM",
    ),
    Algorithm(
        "naive",
        "causal_bandits.bandits.ccpe_naive.NaiveCCPE",
        "naive",
        {"color": "#e7298a"},
        citation="baseline: CCPE without the observational estimates",
    ),
    Algorithm(
        "lucb",
        "causal_bandits.bandits.lucb.LUCB",
        "LUCB",
        {"color": "#d95f02"},
        citation="baseline: Kalyanakrishnan et al. (ICML 2012), LUCB",
    ),
    Algorithm(
        "lucb1",
        "causal_bandits.bandits.lucb.LUCB",
        "LUCB1",
        {"color": "#a6761d"},
        citation="baseline: Kalyanakrishnan et al. (ICML 2012), LUCB1 radius",
    ),
    Algorithm(
        "se",
        "causal_bandits.bandits.successive_elimination.SuccessiveElimination",
        "SE",
        {"color": "#666666"},
        citation="baseline: Even-Dar et al. (JMLR 2006), successive elimination",
    ),
    Algorithm(
        "pb",
        "causal_bandits.bandits.parallel_bandit.ParallelBandit",
        "PB",
        {"color": "#e6ab02"},
        citation="baseline: Lattimore et al. (NeurIPS 2016), parallel bandit (fixed budget)",
    ),
)
