"""Classic UCB (Auer et al. 2002), the causal-agnostic baseline of the AAAI-22 experiments.

Index of arm a: U_a = mu_hat_a + sqrt(2 ln(1/delta_t) / (1 v N_a)) with delta_t = 1/t^2, i.e. the
radius of Eq. 6 on the arm itself (docs/papers/fairness.md#fairness-ucb). By default the learner ignores the
context (one index per arm); ``per_context=True`` keeps one index per (context, arm).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.cells import log_inv_delta
from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import SeedStreams


class UCB:
    """UCB (optionally one index per context among ``n_contexts``), vectorised over seeds."""

    name = "UCB"

    def __init__(self, n_contexts: int = 1, per_context: bool = False):
        self.per_context = bool(per_context)
        self.n_contexts = int(n_contexts) if per_context else 1

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._ties = stream("ties")
        self._rows = np.arange(n_seeds)
        self._sums = np.zeros((n_seeds, self.n_contexts, n_arms))
        self._counts = np.zeros((n_seeds, self.n_contexts, n_arms))

    def _slot(self, contexts: np.ndarray) -> np.ndarray:
        return contexts if self.per_context else np.zeros_like(contexts)

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        slot = self._slot(contexts)
        n = np.maximum(self._counts[self._rows, slot], 1.0)
        index = self._sums[self._rows, slot] / n + np.sqrt(2.0 * log_inv_delta(t) / n)
        return random_argmax(index, self._ties)

    def update(self, feedback: Feedback) -> None:
        contexts, arms, rewards = feedback.contexts, feedback.arms, feedback.rewards
        assert contexts is not None  # CausalEnvironment.contexts draws a context every round
        slot = self._slot(contexts)
        self._sums[self._rows, slot, arms] += rewards
        self._counts[self._rows, slot, arms] += 1.0
