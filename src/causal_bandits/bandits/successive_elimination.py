"""Successive elimination (Even-Dar, Mannor & Mansour 2002), a fixed-confidence baseline of
docs/papers/cpe.md#cpe-baselines.

Active set = A. Round r: pull each active arm once (lowest index first); then, with c_r = β_I(r)
(the CCPE interventional radius, δ′ = δ) and μ̂ the empirical means after r pulls each, drop every
active a with μ̂_a + c_r < max_b μ̂_b − c_r; stop when one arm is left or c_r <= ε/2 and return the
empirical best active arm (lowest index among ties). Seeds eliminate at different rounds, so each
seed walks its own active set; the state is masks over (seeds × arms).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.pure_exploration import (
    ALPHA_I,
    PureExplorationPolicy,
    RadiusTable,
    check_confidence,
    check_profile,
)
from causal_bandits.rng import SeedStreams


class SuccessiveElimination(PureExplorationPolicy):
    """Successive elimination with confidence radius β_I, vectorised over seeds."""

    name = "SE"
    _per_seed = ("_active", "_pending", "_left", "_sum", "_r", "_pulls")

    def __init__(
        self, *, delta: float = 0.05, epsilon: float = 0.0, profile: str = "practical", alpha_I: float | None = None
    ):
        self.delta, self.epsilon = check_confidence(delta, epsilon)
        self.profile = check_profile(profile)
        self.alpha_I = ALPHA_I[profile] if alpha_I is None else float(alpha_I)

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self.n_arms = n_arms
        self._rows = np.arange(n_seeds)
        self._active = np.ones((n_seeds, n_arms), dtype=bool)
        self._pending = self._active.copy()  # active arms not yet pulled in this round
        self._left = np.full(n_seeds, n_arms, dtype=np.int64)  # how many: the round ends at 0
        self._radius = RadiusTable(n_arms, self.delta, self.alpha_I)
        self._sum = np.zeros((n_seeds, n_arms))
        self._r = np.zeros(n_seeds, dtype=np.int64)
        self._pulls = np.zeros(n_seeds, dtype=np.int64)
        self._best = np.zeros(n_seeds, dtype=np.int64)
        self._stop = np.zeros(n_seeds, dtype=bool)

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        return self._pending.argmax(axis=1)

    def update(self, feedback) -> None:
        arms = feedback.arms
        self._sum[self._rows, arms] += feedback.rewards
        self._pending[self._rows, arms] = False
        self._pulls += 1
        self._left -= 1
        ended = (self._left == 0).nonzero()[0]
        if not ended.size:
            return
        self._r[ended] += 1
        active = self._active[ended]
        mu = np.where(active, self._sum[ended] / self._r[ended, None], -np.inf)
        c = self._radius(self._r[ended])
        top = mu.max(axis=1)
        active &= ~(mu + c[:, None] < (top - c)[:, None])
        self._active[ended] = active
        self._pending[ended] = active
        self._left[ended] = active.sum(axis=1)
        self._best[ended] = np.where(active, mu, -np.inf).argmax(axis=1)
        self._stop[ended] = (active.sum(axis=1) == 1) | (c <= self.epsilon / 2.0)

    def diagnostics(self) -> dict[str, np.ndarray]:
        """Per-seed counters; every active arm's interval has width 2 c_r after round r."""
        zeros = np.zeros_like(self._r)
        width = 2 * self._radius(self._r)
        return {
            "iterations": self._r.copy(),
            "n_obs_samples": zeros,
            "n_int_samples": self._pulls.copy(),
            "n_empty_intersections": zeros,
            "width_recommended": width,
            "width_challenger": width,
        }
