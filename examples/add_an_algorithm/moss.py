"""MOSS (Audibert & Bubeck, "Minimax policies for adversarial and stochastic bandits", COLT 2009, §2), vectorised
over seeds: an algorithm with a parameter, the horizon T.

After one pull of each arm, every seed pulls the arm with the largest index
``mean_i + sqrt(max(log(T / (K n_i)), 0) / n_i)`` (K arms, arm i pulled n_i times; ties go to the lowest index).
The index needs the horizon T: ``MOSS(horizon=T)`` is the paper's algorithm; ``MOSS()`` (no horizon) puts the
current round t in place of T, the anytime reading (Degenne & Perchet, "Anytime optimal algorithms in stochastic
multi-armed bandits", ICML 2016). A config passes the run's horizon with ``params: {horizon: T}``
(docs/guide/add-an-algorithm.md). Copy this file to ``src/causal_bandits/bandits/moss.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.engine import Feedback
from causal_bandits.rng import SeedStreams


class MOSS:
    """MOSS on the engine's Policy protocol (``reset``, ``select``, ``update``); deterministic, so it draws nothing."""

    name = "moss"

    def __init__(self, horizon: int | None = None):
        if horizon is not None and horizon < 1:
            raise ValueError(f"horizon = {horizon} must be a positive number of rounds (or None for anytime MOSS)")
        self.horizon = horizon

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._rows = np.arange(n_seeds)
        self._pulls = np.zeros((n_seeds, n_arms))
        self._sums = np.zeros((n_seeds, n_arms))

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        n_arms = self._pulls.shape[1]
        horizon = self.horizon or t
        with np.errstate(divide="ignore", invalid="ignore"):
            bonus = np.sqrt(np.maximum(np.log(horizon / (n_arms * self._pulls)), 0.0) / self._pulls)
            index = np.where(self._pulls > 0, self._sums / self._pulls + bonus, np.inf)
        return index.argmax(axis=1)

    def update(self, feedback: Feedback) -> None:
        self._pulls[self._rows, feedback.arms] += 1
        self._sums[self._rows, feedback.arms] += feedback.rewards
