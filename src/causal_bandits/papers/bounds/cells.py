"""Huang & Wu, Table 1: the paper's reported numbers and the cell indexing.

Cells are indexed as in Table 1: index = 1 + n_contexts·a + k with arm a = 2·x1 + x2 and context
k = 2·u1 + u2, i.e. 1 + 8x1 + 4x2 + 2u1 + u2 (inferred from the CP column, docs/papers/bounds.md#bounds-a-index-order).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from causal_bandits.scm.cpt import CPTModel, configurations

PAPER_HORIZON = 15_000
PAPER_SIMULATIONS = 100
PAPER_ROWS = 30_000
PAPER_SELECTED = 15_000  # "approximately 15000 data points used for offline evaluation"

#: Table 1 of the paper (Appendix H), verbatim; rows are indices 1..16.
TABLE1_REPORTED = {
    "cp": [
        0.313,
        0.336,
        0.533,
        0.510,
        0.517,
        0.494,
        0.657,
        0.710,
        0.377,
        0.386,
        0.525,
        0.518,
        0.547,
        0.513,
        0.756,
        0.681,
    ],
    "biased": [
        0.364,
        0.351,
        0.346,
        0.362,
        0.539,
        0.519,
        0.513,
        0.537,
        0.492,
        0.474,
        0.468,
        0.490,
        0.652,
        0.628,
        0.620,
        0.649,
    ],
    "bce_lb": [
        0.246,
        0.236,
        0.233,
        0.244,
        0.350,
        0.376,
        0.371,
        0.389,
        0.296,
        0.285,
        0.282,
        0.295,
        0.414,
        0.409,
        0.404,
        0.324,
    ],
    "bce_ub": [
        0.385,
        0.371,
        0.367,
        0.384,
        0.565,
        0.545,
        0.538,
        0.563,
        0.505,
        0.486,
        0.480,
        0.503,
        0.665,
        0.640,
        0.632,
        0.662,
    ],
    "truth": [
        0.283,
        0.278,
        0.275,
        0.283,
        0.448,
        0.440,
        0.436,
        0.448,
        0.419,
        0.411,
        0.407,
        0.419,
        0.580,
        0.569,
        0.564,
        0.580,
    ],
}
COLUMNS = ("cp", "biased", "bce_lb", "bce_ub", "truth")
LABELS = {"cp": "CP", "biased": "Biased", "bce_lb": "BCE lb", "bce_ub": "BCE ub", "truth": "Truth"}
VARIANTS = ("conditional", "paper_marginal")


def table1_index(arm: np.ndarray, context: np.ndarray, n_contexts: int) -> np.ndarray:
    """Table 1's row index of (arm a, context k): 1 + n_contexts·a + k (docs/papers/bounds.md#bounds-a-index-order)."""
    return 1 + n_contexts * np.asarray(arm) + np.asarray(context)


def cell_frame(m: CPTModel) -> pd.DataFrame:
    """One row per (context, arm) cell, context-major (the order of :func:`flat`): Table 1's index,
    arm, context and a lower-case column per treatment and context variable."""
    n_ctx, n_arms = 2 ** len(m.context), 2 ** len(m.treatment)
    context, arm = np.divmod(np.arange(n_ctx * n_arms), n_arms)
    frame = pd.DataFrame({"index": table1_index(arm, context, n_ctx), "arm": arm, "context": context})
    for names, ids in ((m.treatment, arm), (m.context, context)):
        bits = configurations(len(names))[ids]
        for j, name in enumerate(names):
            frame[name.lower()] = bits[:, j]
    return frame.astype("int64")


def flat(values: np.ndarray) -> np.ndarray:
    """A (n_contexts, n_arms) array as a column in :func:`cell_frame` row order."""
    return np.asarray(values, dtype=float).reshape(-1)
