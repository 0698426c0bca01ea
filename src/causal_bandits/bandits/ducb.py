"""D-UCB, the causal bandit on a d-separation set (Huang, Zhang & Wu, AAAI-22, Algorithm 1).

Each round t the learner sees the user's context x_t, scores every arm a by

    UCB_a(t) = sum_z P(z | x_t, a) (mu_hat_w + alpha_r sqrt(2 ln(1/delta_t) / (1 v N_w)))   (Eqs. 5-6)

with w = w(a, x_t, z) the cell of the d-separation set W (chosen with minimum domain, §3.2) and
delta_t = 1/t^2, plays the arm with the largest score (ties uniformly at random), then observes
the reward and the value of W and updates that cell's mean (line 9). The weights P(z | x, a) are
known from the causal model; only the cell means are learned (docs/papers/fairness.md#fairness-ducb).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.cells import CellEstimator, CellModel, expected_ucb
from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import SeedStreams


class DUCB:
    """D-UCB over the cells of ``model``, vectorised over seeds."""

    name = "D-UCB"

    def __init__(self, model: CellModel, alpha_r: float = 1.0):
        self.model, self.alpha_r = model, float(alpha_r)

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._ties = stream("ties")
        self.estimator = CellEstimator(n_seeds, self.model.n_cells)

    def scores(self, t: int, contexts: np.ndarray) -> np.ndarray:
        """UCB_a(t) for every seed and arm (Eq. 5)."""
        return expected_ucb(self.model, self.estimator, contexts, t, self.alpha_r)

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        return random_argmax(self.scores(t, contexts), self._ties)

    def update(self, feedback: Feedback) -> None:
        assert feedback.values is not None  # CausalEnvironment.pull returns every variable's value
        self.estimator.update(self.model.cell_of(feedback.values), feedback.rewards)
