"""The 81-arm bandit of Lee & Bareinboim's NeurIPS-18 Markovian experiment: many arms close to the leader.

"Structural Causal Bandits: Where to Intervene?" (NeurIPS 2018). Its public code (github.com/sanghack81/
SCMMAB-NIPS2018, ``npsem/NIPS2018POMIS_exp/scm_examples.py``, ``simple_markovian_SCM(seed=0)``, the experiment
``mark`` of ``test_bandit_strategies.py``, horizon 10,000) defines a Markovian SCM over binary variables

    Z1 = U_Z1,  Z2 = U_Z2,  X1 = U_X1 xor Z1 xor Z2,  X2 = 1 xor U_X2 xor Z1 xor Z2,  Y = U_Y or (X1 and X2)

with independent U_V ~ Bern(q_V), q drawn by that code's seeded generator (numpy's legacy ``seed(0)``, uniforms on
[0.1, 0.9] rounded to two decimals, one per variable in sorted order): the values below. Its brute-force bandit has
one arm per intervention do(S = s), S any subset of {X1, X2, Z1, Z2} (by increasing size, each size in
lexicographic order; values in binary order): 3^4 = 81 arms. Nine of them (do(X1 = 1, X2 = 1) with any Z) have mean
exactly 1, so their kl-UCB indices are exactly 1 and tie for ever; 45 have the mean P(U_Y = 1) = 0.58 (X1 and X2
are never both 1), and the rest lie between 0.65 and 0.86. The means here are computed exactly from the SCM by
enumerating the 2^5 exogenous states.
"""

from __future__ import annotations

from itertools import combinations, product

import numpy as np

#: P(U_V = 1), as the code's ``simple_markovian_SCM(seed=0)`` draws them.
Q = {"U_X1": 0.54, "U_X2": 0.67, "U_Y": 0.58, "U_Z1": 0.54, "U_Z2": 0.44}
INTERVENABLE = ("X1", "X2", "Z1", "Z2")


def outcome(u: dict[str, int], do: dict[str, int]) -> int:
    """Y under do(``do``) with the exogenous state ``u``."""
    z1, z2 = do.get("Z1", u["U_Z1"]), do.get("Z2", u["U_Z2"])
    x1 = do.get("X1", u["U_X1"] ^ z1 ^ z2)
    x2 = do.get("X2", 1 ^ u["U_X2"] ^ z1 ^ z2)
    return u["U_Y"] | (x1 & x2)


def arms() -> list[dict[str, int]]:
    """The 81 interventions in the code's arm order."""
    return [
        dict(zip(subset, values, strict=True))
        for size in range(len(INTERVENABLE) + 1)
        for subset in combinations(INTERVENABLE, size)
        for values in product((0, 1), repeat=size)
    ]


def means() -> np.ndarray:
    """E[Y | do(s)] = 1 - P(Y = 0 | do(s)) for every arm, by enumeration of the exogenous states (so that the
    arms with Y = 1 in every state have mean exactly 1)."""
    states = [dict(zip(Q, bits, strict=True)) for bits in product((0, 1), repeat=len(Q))]
    weights = [float(np.prod([Q[k] if u[k] else 1.0 - Q[k] for k in Q])) for u in states]
    return np.array([1.0 - sum(w for u, w in zip(states, weights, strict=True) if not outcome(u, do)) for do in arms()])
