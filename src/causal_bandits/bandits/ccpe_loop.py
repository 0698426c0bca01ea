"""The loop that CCPE-BGLM (cpe Algorithm 1) and CCPE-General (Algorithm 3) share, vectorised over seeds.

Iteration t (three samples, docs/papers/cpe.md#cpe-ccpe-bglm):

    h = argmax_a μ̂_a;  l = argmax_{a≠h} U_a                        (line 4)
    stop and return h if U_l <= L_h + ε (and the burn-in allows)   (line 5)
    Step 1: play do(); update the observational estimates and their intervals [L_O, U_O]
    Step 2: play l, then h; interventional intervals [μ̂_I ∓ β_I(N_a)] for a ∈ {l, h, do()}
    Step 3: [L_a, U_a] = [L_O, U_O] ∩ [L_I, U_I]; an empty intersection falls back to the
            interventional interval if N_a > 0, else the observational one (counted,
            ``n_empty_intersections``); μ̂_a = midpoint, 0 while the interval is infinite.

Engine rounds 3t−2, 3t−1, 3t play do(), l, h; the stop test runs after round 3t, so a seed that
stops at the start of iteration t has used 3(t−1) samples. Every seed follows the same schedule,
so the phase is a scalar. Subclasses give the observational side: ``_reset_observational``,
``_observe`` (Step 1's data) and ``_observational_intervals`` (at the end of an iteration), and
may delay stopping with ``_may_stop`` (Algorithm 1's burn-in).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.pure_exploration import (
    ALPHA_I,
    PureExplorationPolicy,
    check_confidence,
    check_profile,
    interventional_radius,
    lucb_pair,
)
from causal_bandits.rng import SeedStreams


class CCPELoop(PureExplorationPolicy):
    """The LUCB frame with an observation step; ``delta_share`` is the theorems' δ split (δ′ = δ / share)."""

    delta_share = 1.0
    _per_seed: tuple[str, ...] = ("_N", "_YI", "_LI", "_UI", "_LO", "_UO", "_L", "_U", "_mu", "_l", "_empty")

    def __init__(
        self, *, delta: float = 0.05, epsilon: float = 0.0, profile: str = "practical", alpha_I: float | None = None
    ):
        self.delta, self.epsilon = check_confidence(delta, epsilon)
        self.profile = check_profile(profile)
        self.alpha_I = ALPHA_I[profile] if alpha_I is None else float(alpha_I)
        self.delta_internal = self.delta / self.delta_share

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self.n_arms = n_arms
        shape = (n_seeds, n_arms)
        self._rows = np.arange(n_seeds)
        self._N = np.zeros(shape, dtype=np.int64)
        self._YI = np.zeros(shape)
        self._LI, self._UI = np.full(shape, -np.inf), np.full(shape, np.inf)
        self._LO, self._UO = self._LI.copy(), self._UI.copy()
        self._L, self._U = self._LI.copy(), self._UI.copy()
        self._mu = np.zeros(shape)
        self._best = np.zeros(n_seeds, dtype=np.int64)  # h
        self._l = np.ones(n_seeds, dtype=np.int64)
        self._stop = np.zeros(n_seeds, dtype=bool)
        self._empty = np.zeros(n_seeds, dtype=np.int64)
        self.iterations = 0
        self._phase = 0
        self._reset_observational(n_seeds)

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        if self._phase == 0:
            return np.zeros(self._rows.size, dtype=np.int64)
        return self._l if self._phase == 1 else self._best

    def update(self, feedback) -> None:
        arms, y = feedback.arms, np.asarray(feedback.rewards, dtype=float)
        self._N[self._rows, arms] += 1
        self._YI[self._rows, arms] += y
        if self._phase == 0:
            self._observe(feedback.values, y)
        self._phase = (self._phase + 1) % 3
        if self._phase == 0:
            self.iterations += 1
            self._finish_iteration()

    def _finish_iteration(self) -> None:
        self._LO, self._UO = self._observational_intervals(self.iterations)
        touched = np.stack([np.zeros_like(self._l), self._l, self._best], axis=1)
        rows = self._rows[:, None]
        N = self._N[rows, touched]
        mean = np.where(N > 0, self._YI[rows, touched] / np.maximum(N, 1), 0.0)
        radius = interventional_radius(N, self.n_arms, self.delta_internal, self.alpha_I)
        self._LI[rows, touched], self._UI[rows, touched] = mean - radius, mean + radius
        L, U = np.maximum(self._LO, self._LI), np.minimum(self._UO, self._UI)
        empty = L > U
        if empty.any():
            played = self._N > 0
            L = np.where(empty, np.where(played, self._LI, self._LO), L)
            U = np.where(empty, np.where(played, self._UI, self._UO), U)
            self._empty += empty.sum(axis=1)
        self._L, self._U = L, U
        finite = np.isfinite(L) & np.isfinite(U)
        self._mu = np.where(finite, (np.where(finite, L, 0.0) + np.where(finite, U, 0.0)) / 2.0, 0.0)
        self._best, self._l = lucb_pair(self._mu, U)
        gap_closed = U[self._rows, self._l] <= L[self._rows, self._best] + self.epsilon
        self._stop = gap_closed & self._may_stop(self.iterations + 1)

    def _may_stop(self, t: int) -> bool:
        return True

    def intervals(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Current (lower, upper) per seed and arm: observational, interventional and merged."""
        return {
            "observational": (self._LO, self._UO),
            "interventional": (self._LI, self._UI),
            "merged": (self._L, self._U),
        }

    def diagnostics(self) -> dict[str, np.ndarray]:
        """Per-seed counters and the widths of the merged intervals of h and l (docs/papers/cpe.md#cpe-outputs)."""
        n, rows = self._rows.size, self._rows
        width = self._U - self._L
        return {
            "iterations": np.full(n, self.iterations),
            "n_obs_samples": np.full(n, self.iterations),
            "n_int_samples": np.full(n, 2 * self.iterations),
            "n_empty_intersections": self._empty.copy(),
            "width_recommended": width[rows, self._best],
            "width_challenger": width[rows, self._l],
        }

    # -- the observational side, given by the subclasses ------------------------------------
    def _reset_observational(self, n_seeds: int) -> None:
        raise NotImplementedError

    def _observe(self, values: np.ndarray, rewards: np.ndarray) -> None:
        raise NotImplementedError

    def _observational_intervals(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError
