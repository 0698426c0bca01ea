"""What the causal learners know and estimate: cells of a d-separation set W (docs/papers/fairness.md#fairness-cells).

Huang, Zhang & Wu (AAAI-22) learn only the means mu_w = E[R | w] of the value combinations
("cells") of a d-separation set W and combine them with the known P(z | x, a) (Eq. 2):

    mu_a(x) = sum_z E[R | w(a, x, z)] P(z | x, a),      Z = W minus (A and X).

:class:`CellModel` holds that knowledge as arrays over (context, arm, z): the cell id of
w(a, x, z) and the weight P(z | x, a), plus, for the counterfactual estimates of §3.3, the
contexts with the sensitive attribute set to s+ / s- (and, in the non-identifiable case of
Theorem 2, every value b of its descendants B among the user features).
:class:`CellEstimator` keeps per-seed sums and counts of every cell. Confidence radii follow
Eq. 6 / Eq. 12 with delta_t = 1/t^2, i.e. ln(1/delta_t) = 2 ln t (docs/papers/fairness.md#fairness-cells).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

CF_MODES = ("identifiable", "bounds")


def log_inv_delta(t: int) -> float:
    """L_t = ln(1/delta_t) = 2 ln t for delta_t = 1/t^2 (docs/papers/fairness.md#fairness-cells; L_1 = 0)."""
    return 2.0 * float(np.log(t))


@dataclass(frozen=True)
class CellModel:
    """A learner's causal knowledge over ``n_contexts`` contexts and ``n_arms`` arms.

    * ``w_vars``: the variables of W; ``w_columns`` their columns in the experiment's value rows
      and ``w_cards`` their domain sizes. The cell id of a value row is the mixed-radix number of
      its W values in this order (first variable most significant).
    * ``cells[c, a, j]``, ``weights[c, a, j]``: cell of w(a, x_c, z_j) and P(z_j | x_c, a), j over
      the assignments of Z (one column, weight 1, when Z is empty).
    * ``cf_contexts[c, s, b]``: context c with S := s+ (s = 0) or s- (s = 1) and, in ``bounds``
      mode, the descendants B of S among the user features set to their b-th joint value.
    """

    w_vars: tuple[str, ...]
    w_columns: tuple[int, ...]
    w_cards: tuple[int, ...]
    z_vars: tuple[str, ...]
    cells: np.ndarray
    weights: np.ndarray
    cf_contexts: np.ndarray
    cf_mode: str = "identifiable"

    def __post_init__(self) -> None:
        if self.cf_mode not in CF_MODES:
            raise ValueError(f"cf_mode must be one of {CF_MODES}, got {self.cf_mode!r}")
        if self.cells.shape != self.weights.shape or self.cells.ndim != 3:
            raise ValueError("cells and weights must both have shape (n_contexts, n_arms, n_z)")
        if not np.allclose(self.weights.sum(axis=2), 1.0, atol=1e-9):
            raise ValueError("weights P(z | x, a) must sum to 1 over z for every context and arm")
        if self.cf_contexts.shape[:2] != (self.cells.shape[0], 2):
            raise ValueError("cf_contexts must have shape (n_contexts, 2, n_b)")

    @property
    def n_cells(self) -> int:
        return int(np.prod(self.w_cards))

    @property
    def shape(self) -> tuple[int, int]:
        """(n_contexts, n_arms)."""
        return self.cells.shape[0], self.cells.shape[1]

    def cell_of(self, values: np.ndarray) -> np.ndarray:
        """Cell ids of value rows ``values`` (n, n_vars) of domain indices."""
        return cell_ids(values[:, list(self.w_columns)], self.w_cards)

    def to_document(self) -> dict[str, Any]:
        return {
            "w_vars": list(self.w_vars),
            "w_columns": list(self.w_columns),
            "w_cards": list(self.w_cards),
            "z_vars": list(self.z_vars),
            "cells": self.cells.tolist(),
            "weights": self.weights.tolist(),
            "cf_contexts": self.cf_contexts.tolist(),
            "cf_mode": self.cf_mode,
        }

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> CellModel:
        return cls(
            w_vars=tuple(doc["w_vars"]),
            w_columns=tuple(doc["w_columns"]),
            w_cards=tuple(doc["w_cards"]),
            z_vars=tuple(doc["z_vars"]),
            cells=np.asarray(doc["cells"], dtype=np.int64),
            weights=np.asarray(doc["weights"], dtype=float),
            cf_contexts=np.asarray(doc["cf_contexts"], dtype=np.int64),
            cf_mode=doc["cf_mode"],
        )


def cell_ids(values: np.ndarray, cards: Sequence[int]) -> np.ndarray:
    """Mixed-radix ids of rows of domain indices (first column most significant)."""
    values = np.asarray(values, dtype=np.int64)
    cell = np.zeros(values.shape[:-1], dtype=np.int64)
    for i, card in enumerate(cards):
        cell = cell * card + values[..., i]
    return cell


class CellEstimator:
    """Per-seed sample means and counts of every cell of W (docs/papers/fairness.md#fairness-cells
    ``CellEstimator``)."""

    def __init__(self, n_seeds: int, n_cells: int):
        self.sums = np.zeros((n_seeds, n_cells))
        self.counts = np.zeros((n_seeds, n_cells))
        self._rows = np.arange(n_seeds)

    def means(self) -> np.ndarray:
        """mu_hat_w (0 for unvisited cells), shape (n_seeds, n_cells)."""
        return self.sums / np.maximum(self.counts, 1.0)

    def radius(self, t: int, scale: float) -> np.ndarray:
        """sqrt(scale * L_t / (1 v N_w)): scale 2 is Eq. 6, scale 8 is Eq. 12."""
        return np.sqrt(scale * log_inv_delta(t) / np.maximum(self.counts, 1.0))

    def update(self, cells: np.ndarray, rewards: np.ndarray) -> None:
        self.sums[self._rows, cells] += rewards  # one cell per seed: no repeated index
        self.counts[self._rows, cells] += 1.0


def gather(per_cell: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """``per_cell[i, cells[i, ...]]`` for every seed i: values of (n_seeds, n_cells) at cell ids."""
    rows = np.arange(per_cell.shape[0]).reshape((-1,) + (1,) * (cells.ndim - 1))
    return per_cell[rows, cells]


def expected_ucb(model: CellModel, est: CellEstimator, contexts: np.ndarray, t: int, alpha: float) -> np.ndarray:
    """UCB_a(t) = sum_z P(z | x_t, a) (mu_hat_w + alpha sqrt(2 L_t / (1 v N_w)))  (Eqs. 5-6).

    Shape (n_seeds, n_arms); ``contexts`` holds each seed's context id.
    """
    index = est.means() + alpha * est.radius(t, 2.0)
    return (model.weights[contexts] * gather(index, model.cells[contexts])).sum(axis=2)
