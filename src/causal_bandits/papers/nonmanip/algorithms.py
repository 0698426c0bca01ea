"""Lee & Bareinboim (AAAI-19): the algorithms of §5, one registry entry each (see
:mod:`causal_bandits.algorithms`). Add your own here with ``addition=True`` (CONTRIBUTING.md,
"Recipe: add an algorithm to an existing paper")."""

from causal_bandits.algorithms import Algorithm
from causal_bandits.papers.nonmanip import POMIS_PLUS

#: In table and legend order. TS and kl-UCB play BF, MIS and POMIS; under POMIS+ their z² versions
#: play the POMIS arms and also learn from the other arms' data (AAAI-19 §5, Alg. 3).
ALGORITHMS = (
    Algorithm(
        "ts",
        "causal_bandits.bandits.thompson.ThompsonSampling",
        "TS",
        {"linestyle": "-"},
        z2="z2_ts",
        citation="Lee & Bareinboim (AAAI-19), §5: Thompson sampling",
    ),
    Algorithm(
        "kl_ucb",
        "causal_bandits.bandits.klucb.KLUCB",
        "KL-UCB",
        {"linestyle": "--"},
        z2="z2_kl_ucb",
        citation="Lee & Bareinboim (AAAI-19), §5: kl-UCB",
    ),
    Algorithm(
        "z2_ts",
        "causal_bandits.bandits.z2_thompson.Z2ThompsonSampling",
        "z²-TS",
        strategies=(POMIS_PLUS,),
        citation="Lee & Bareinboim (AAAI-19), Alg. 3 with Thompson sampling",
    ),
    Algorithm(
        "z2_kl_ucb",
        "causal_bandits.bandits.z2_klucb.Z2KLUCB",
        "z²-KL-UCB",
        strategies=(POMIS_PLUS,),
        citation="Lee & Bareinboim (AAAI-19), Alg. 3 with kl-UCB",
    ),
)
