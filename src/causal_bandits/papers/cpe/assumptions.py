"""The constants of the BGLM assumptions (cpe §4, Assumptions 1-3), exactly, from θ* and the SCM.

* κ (Assumption 2) = ``inf_{X, v ∈ [0,1]^|Pa(X)|, ‖θ − θ*_X‖ <= 1} f′(v · θ)``. For the logistic link f′
  decreases in |z| and ``|v·θ*| + ‖v‖₂`` is convex in v, so κ = ``min_X min_{v ∈ {0,1}^|Pa(X)|}
  f′(|v · θ*_X| + ‖v‖₂)`` (docs/papers/cpe.md#cpe-paper); for the linear link f′ ≡ 1 and κ = 1.
* η (Assumption 3) = the smallest P(X′ = x | Pa(X) \\ {X′, X_1} = v) over nodes X, parents X′ ≠ X_1,
  values v of positive probability and x, from the exact observational distribution.

M^(1), M^(2) (Assumption 1) belong to the link (:mod:`causal_bandits.bandits.bglm_model`).
"""

from __future__ import annotations

import numpy as np

from causal_bandits.bandits.bglm_model import link
from causal_bandits.papers.cpe.scm import BinarySCM
from causal_bandits.scm.cpt import configurations


def kappa(scm: BinarySCM, constant: str, link_name: str) -> float:
    """κ of Assumption 2 for the BGLM ``scm`` (θ*_X = the weights of X's mechanism, X_1's included)."""
    if link_name == "linear":
        return 1.0
    f = link(link_name)
    worst = np.inf
    for v in scm.nodes:
        if v == constant or not scm.parents(v):
            continue
        theta = np.asarray(scm.mechanisms[v].weights, dtype=float)
        V = configurations(theta.size)
        worst = min(worst, float(f.df(np.abs(V @ theta) + np.sqrt(V.sum(axis=1))).min()))
    return worst


def eta(scm: BinarySCM, constant: str) -> float:
    """η of Assumption 3 (1 when no node has two non-constant parents to condition on)."""
    worst = 1.0
    for v in scm.nodes:
        pa = [p for p in scm.parents(v) if p != constant]
        if not pa:
            continue
        joint = scm.marginal(pa).reshape((2,) * len(pa))
        for axis in range(len(pa)):
            rest = joint.sum(axis=axis, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                cond = np.where(rest > 0, joint / rest, np.inf)
            worst = min(worst, float(cond.min()))
    return worst
