"""Huang & Wu's feature maps φ(c, a) of the contextual linear bandits (Figure 4 and the appendix)."""

from __future__ import annotations

import numpy as np

from causal_bandits.scm.cpt import configurations

FEATURES = ("paper4", "bias5")


def feature_map(kind: str, n_context: int, n_treatment: int) -> np.ndarray:
    """φ(c, a) for every context configuration c and arm a, shape (n_contexts, n_arms, d).

    ``paper4``: x_{c,a} = [c, x_a], the concatenation of user and arm features (§"Online Bandit
    Learning"), d = n_context + n_treatment; ``bias5``: [1, c, x_a] (an intercept added).
    """
    if kind not in FEATURES:
        raise ValueError(f"unknown feature map {kind!r}; use one of {FEATURES}")
    c, x = configurations(n_context), configurations(n_treatment)
    phi = np.concatenate([np.repeat(c[:, None, :], len(x), 1), np.repeat(x[None, :, :], len(c), 0)], axis=2)
    if kind == "bias5":
        phi = np.concatenate([np.ones((*phi.shape[:2], 1)), phi], axis=2)
    return phi.astype(float)
