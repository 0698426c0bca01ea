"""The fairness auditor: counts unfair decisions of any algorithm the way F-UCB would judge them.

Fairness SPEC §2.6 (ambiguity A12): the paper reports "unfair decisions" for UCB, C-UCB, D-UCB
and Fair-LinUCB without saying how it judged them. The auditor is a cell estimator over the
experiment's d-separation set W fed with every run's observations; before each update it computes
F-UCB's quantities (Eqs. 10-12, same counterfactual mode, radius and delta_t) and records, for
the arm the algorithm chose, Delta_hat and UCB_Delta, and over all arms the smallest UCB_Delta.
A decision is *certified-unfair* at tau when its UCB_Delta exceeds tau (F-UCB's own criterion,
so for F-UCB these are exactly its uncertified rounds); it is *truly unfair* when the exact
counterfactual discrepancy of the SCM exceeds tau. Both counts are taken at aggregation time, so
one run of a tau-free algorithm serves every tau.
"""

from __future__ import annotations

import numpy as np

from causal_bandits.bandits.cells import CellEstimator, CellModel
from causal_bandits.bandits.fucb import certificate


class FairnessAuditor:
    """F-UCB's fairness certificate for every decision of a run, vectorised over seeds."""

    def __init__(self, model: CellModel, alpha_c: float = 1.0):
        self.model, self.alpha_c = model, float(alpha_c)

    def reset(self, n_seeds: int) -> None:
        self.estimator = CellEstimator(n_seeds, self.model.n_cells)
        self._rows = np.arange(n_seeds)

    def inspect(self, t: int, contexts: np.ndarray, arms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(Delta_hat of the chosen arm, its UCB_Delta, min over arms of UCB_Delta), each (n_seeds,)."""
        delta_hat, ucb_delta = certificate(self.model, self.estimator, contexts, t, self.alpha_c)
        return delta_hat[self._rows, arms], ucb_delta[self._rows, arms], ucb_delta.min(axis=1)

    def update(self, values: np.ndarray, rewards: np.ndarray) -> np.ndarray:
        """Record the round; returns the observed cell of W per seed."""
        cells = self.model.cell_of(values)
        self.estimator.update(cells, rewards)
        return cells
