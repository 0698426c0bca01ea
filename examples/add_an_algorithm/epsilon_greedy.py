"""ε-greedy (Sutton & Barto, Reinforcement Learning, 2nd ed. 2018, §2.2), vectorised over seeds.

Each round, every seed explores with probability ε (a uniformly random arm) and otherwise pulls the
arm with the highest empirical mean (an arm never pulled counts as best; ties go to the lowest
index). The worked example of CONTRIBUTING.md, "Recipe: add an algorithm to an existing paper":
copy this file to ``src/causal_bandits/bandits/epsilon_greedy.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.engine import Feedback
from causal_bandits.rng import SeedStreams


class EpsilonGreedy:
    """ε-greedy on the engine's Policy protocol: ``reset``, ``select``, ``update``."""

    name = "eps_greedy"

    def __init__(self, epsilon: float = 0.1):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon = {epsilon} must lie in [0, 1]")
        self.epsilon = epsilon

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._uniforms = stream("epsilon-greedy")  # two uniforms per seed per round: explore?, which arm
        self._rows = np.arange(n_seeds)
        self._pulls = np.zeros((n_seeds, n_arms))
        self._sums = np.zeros((n_seeds, n_arms))

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        u = self._uniforms.uniform(2)
        n_arms = self._pulls.shape[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            means = np.where(self._pulls > 0, self._sums / self._pulls, np.inf)
        greedy = means.argmax(axis=1)
        random = np.minimum((u[:, 1] * n_arms).astype(np.int64), n_arms - 1)
        return np.where(u[:, 0] < self.epsilon, random, greedy)

    def update(self, feedback: Feedback) -> None:
        self._pulls[self._rows, feedback.arms] += 1
        self._sums[self._rows, feedback.arms] += feedback.rewards
