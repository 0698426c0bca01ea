"""Bernoulli Thompson sampling (Thompson 1933; Beta(1, 1) priors).

Each round, for every arm draw theta_a ~ Beta(S_a + 1, F_a + 1), where S_a / F_a count the arm's
rewards 1 / 0, and pull the arm with the largest draw. This is the "TS" solver of Lee & Bareinboim
(NeurIPS 2018, AAAI 2019 §5, docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh). Ties have probability zero and are
broken by the lowest index.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.beta import BetaShapes
from causal_bandits.bandits.engine import Feedback
from causal_bandits.rng import SeedStreams


class ThompsonSampling:
    """Beta-Bernoulli Thompson sampling, vectorised over seeds."""

    name = "TS"

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._draws, self._retries = stream("beta"), stream("beta-retry")
        self._rows = np.arange(n_seeds)
        self._posterior = BetaShapes(np.ones((n_seeds, n_arms)), np.ones((n_seeds, n_arms)))

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        return self._posterior.sample(self._draws, self._retries).argmax(axis=1)

    def update(self, feedback: Feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        self._posterior.add(self._rows, arms, rewards, 1 - rewards)
