"""UCB with prior causal bounds (Huang & Wu, Appendix F, Algorithm 6), vectorised over seeds.

Non-contextual arms do(X = x). With N_a pulls and empirical mean μ̂_a, the index of arm a is

    UCB_a = μ̂_a + sqrt(2 log(1/δ) / N_a)   (+∞ while N_a = 0),   δ = 1/T² (Theorem 8),

clipped by the prior causal bounds [L_a, U_a] of P_x(y): UCB^_a = max{min{U_a, UCB_a}, L_a}
(line 6). The arm with the largest clipped index is pulled; ties are broken uniformly at random
(policy stream ``"ties"``). Without bounds this is the UCB baseline with the same δ.
A policy of the engine (:mod:`causal_bandits.bandits.engine`); it ignores contexts.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import SeedStreams


class UCBPCB:
    """Algorithm 6 (``lower``/``upper`` given) or plain UCB (neither given), δ = 1/T²."""

    def __init__(self, horizon: int, lower: np.ndarray | None = None, upper: np.ndarray | None = None) -> None:
        if (lower is None) != (upper is None):
            raise ValueError("give both causal bounds or neither")
        self.width2 = 2.0 * np.log(float(horizon) ** 2)  # 2 log(1/δ)
        self.lower = None if lower is None else np.asarray(lower, dtype=float)
        self.upper = None if upper is None else np.asarray(upper, dtype=float)

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._ties = stream("ties")
        self._rows = np.arange(n_seeds)
        self._pulls = np.zeros((n_seeds, n_arms))
        self._sums = np.zeros((n_seeds, n_arms))

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            index = np.where(self._pulls > 0, self._sums / self._pulls + np.sqrt(self.width2 / self._pulls), np.inf)
        if self.upper is not None:
            assert self.lower is not None  # __init__ takes both bounds or neither
            index = np.maximum(np.minimum(self.upper, index), self.lower)  # line 6
        return random_argmax(index, self._ties)

    def update(self, feedback: Feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        self._pulls[self._rows, arms] += 1
        self._sums[self._rows, arms] += rewards
