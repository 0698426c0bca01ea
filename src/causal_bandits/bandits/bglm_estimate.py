"""BGLM-estimate (cpe Algorithm 2): maximum-likelihood BGLM parameters from observational rounds.

Algorithm 2 solves, per non-constant node X (Y included), Σ_j (X_j − f(V_{j,X}^T θ)) V_{j,X} − λθ = 0
over the observational rounds, λ = 1 by default (M_{0,X} = I; the paper's λ = 0 may have no
solution under separation, docs/papers/cpe.md#cpe-a9-ridge). Parents are binary, so the sum only needs, per
parent configuration, the number of rounds and of rounds with X = 1: :class:`BGLMCounts` keeps
them, and :func:`fit` runs Newton's method on them for all seeds at once (each seed iterates until
its own step is below ``tol``, so its estimate does not depend on the other seeds).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from causal_bandits.bandits.bglm_model import BGLMStructure, link
from causal_bandits.bandits.count_tables import Strata


class BGLMCounts:
    """Per node and parent configuration: number of observational rounds and of rounds with X = 1."""

    def __init__(self, structure: BGLMStructure):
        self.structure = structure
        self.strata = Strata(structure.varying_parents)
        self._target = np.asarray(structure.nodes)

    def empty(self, n_seeds: int) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.zeros((n_seeds, self.strata.n_cells), dtype=np.int64),
            np.zeros((n_seeds, self.strata.n_cells), dtype=np.int64),
        )

    def add(self, counts: np.ndarray, ones: np.ndarray, values: np.ndarray, rewards: np.ndarray) -> None:
        """Record one observational round per seed in place (values (n, n_columns), rewards (n,))."""
        full = np.concatenate([values, rewards.astype(values.dtype)[:, None]], axis=1)
        cells = self.strata.cells(full)
        rows = np.arange(full.shape[0])[:, None]
        counts[rows, cells] += 1
        ones[rows, cells] += full[:, self._target]

    def node_tables(self, counts: np.ndarray, ones: np.ndarray, i: int) -> tuple[np.ndarray, np.ndarray]:
        start = self.strata.offsets[i]
        stop = start + self.structure.designs[i].shape[0]
        return counts[:, start:stop].astype(float), ones[:, start:stop].astype(float)


def fit(
    theta: Sequence[np.ndarray],
    tables: BGLMCounts,
    counts: np.ndarray,
    ones: np.ndarray,
    *,
    ridge: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 100,
) -> list[np.ndarray]:
    """Algorithm 2: θ̂_X for every node by Newton's method from the warm start ``theta`` (seeds × |Pa|)."""
    f = link(tables.structure.link)
    out = []
    for i, V in enumerate(tables.structure.designs):
        n, y = tables.node_tables(counts, ones, i)
        th = np.array(theta[i], dtype=float, copy=True)
        VV = V.T[:, None, :] * V.T[None, :, :]  # (d, d, C)
        eye = ridge * np.eye(V.shape[1])
        active = np.arange(th.shape[0])
        for _ in range(max_iter):
            if not active.size:
                break
            t = th[active]
            z = (t[:, None, :] * V[None]).sum(axis=2)
            resid = y[active] - n[active] * f.f(z)
            grad = (resid[:, None, :] * V.T[None]).sum(axis=2) - ridge * t
            info = ((n[active] * f.df(z))[:, None, None, :] * VV[None]).sum(axis=3) + eye
            step = np.linalg.solve(info, grad[..., None])[..., 0]
            th[active] = t + step
            active = active[np.abs(step).max(axis=1) > tol]
        else:
            if active.size:
                raise RuntimeError(f"BGLM-estimate did not converge in {max_iter} Newton steps")
        out.append(th)
    return out
