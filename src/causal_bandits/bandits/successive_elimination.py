"""Successive elimination (Even-Dar, Mannor & Mansour 2002), a fixed-confidence baseline of
docs/papers/cpe.md#cpe-baselines.

Active set = A. Round r: pull each active arm once (lowest index first); then, with c_r = β_I(r)
(the CCPE interventional radius, δ′ = δ) and μ̂ the empirical means after r pulls each, drop every
active a with μ̂_a + c_r < max_b μ̂_b − c_r; stop when one arm is left or c_r <= ε/2 and return the
empirical best active arm (lowest index among ties). Seeds eliminate at different rounds, so each
seed walks its own active set; the state is masks over (seeds × arms).

Against an environment whose rounds one compiled node program draws (the cpe SCMs), a window of rounds is one compiled
pass (:func:`_play_window`, the engine's ``WindowPolicy`` with ``NodeDraws``): each round's pull, draw and, where a
seed's round ends, its elimination, with the operations of the round-by-round path, up to the round after which a seed
stops.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from causal_bandits.bandits.engine import NodeDraws
from causal_bandits.bandits.node_program import draw_row
from causal_bandits.bandits.pure_exploration import (
    ALPHA_I,
    PureExplorationPolicy,
    RadiusTable,
    check_confidence,
    check_profile,
)
from causal_bandits.rng import SeedStreams


@numba.njit(cache=True)
def _play_window(
    noise, program, reward, x, active, pending, left, total, r, pulls, best, stop, radius, epsilon, arms, ys
):
    """Rounds of successive elimination for every seed (rows), as ``select``, the environment's pull and ``update``
    play them one by one: the arms and rewards into ``arms`` and ``ys`` (seeds, L), the state in place. Returns the
    rounds played: the window ends after a round in which some seed stops."""
    n, length = arms.shape
    n_arms = active.shape[1]
    mu = np.empty(n_arms)
    after = np.zeros(n, dtype=np.int64)  # each seed's last pull, + 1: the arms before it are not pending
    for i in range(length):
        stopped = False
        for s in range(n):
            a = after[s]  # the first pending arm
            while not pending[s, a]:
                a += 1
            after[s] = a + 1
            draw_row(x, s, noise[s, i], a, program)
            y = float(x[s, reward])
            total[s, a] += y
            pending[s, a] = False
            pulls[s] += 1
            left[s] -= 1
            arms[s, i], ys[s, i] = a, y
            if left[s]:
                continue
            r[s] += 1
            c = radius[r[s]]
            top = -np.inf
            for k in range(n_arms):
                mu[k] = total[s, k] / r[s] if active[s, k] else -np.inf
                top = max(top, mu[k])
            kept, first = 0, -1
            for k in range(n_arms):
                if active[s, k] and mu[k] + c < top - c:
                    active[s, k] = False
                pending[s, k] = active[s, k]
                if active[s, k]:
                    kept += 1
                    if first < 0 or mu[k] > mu[first]:
                        first = k
            left[s], best[s], after[s] = kept, first, 0
            stop[s] = kept == 1 or c <= epsilon / 2.0
            stopped |= stop[s]
        if stopped:
            return i + 1
    return length


class SuccessiveElimination(PureExplorationPolicy):
    """Successive elimination with confidence radius β_I, vectorised over seeds."""

    name = "SE"
    _per_seed = ("_active", "_pending", "_left", "_sum", "_r", "_pulls")
    window_draws = NodeDraws  # the engine's WindowPolicy: windows drawn with a node program

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

    def window(self, t: int) -> int:
        """Any number of rounds (the engine's ``WindowPolicy``)."""
        return 1 << 62

    def play_window(self, t: int, length: int, draws: NodeDraws) -> tuple[np.ndarray, np.ndarray]:
        """Up to ``length`` rounds in one compiled pass (:func:`_play_window`); they end after a round in which some
        seed stops."""
        arms, rewards, x = draws.outputs()
        radius = self._radius.covering(int(self._r.max()) + length)
        played = _play_window(
            draws.noise,
            draws.program.args,
            draws.reward,
            x,
            self._active,
            self._pending,
            self._left,
            self._sum,
            self._r,
            self._pulls,
            self._best,
            self._stop,
            radius,
            self.epsilon,
            arms,
            rewards,
        )
        return arms[:, :played], rewards[:, :played]

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
