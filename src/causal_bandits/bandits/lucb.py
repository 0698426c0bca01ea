"""LUCB (Kalyanakrishnan, Tewari, Auer & Stone 2012), the "LUCB1" framework the cpe paper builds on.

Every arm is pulled once; then, each iteration, with empirical means μ̂ and radius β,

    h = argmax_a μ̂_a,   l = argmax_{a≠h} μ̂_a + β_a;
    stop and return h if μ̂_l + β_l <= μ̂_h − β_h + ε, else pull h, then l.

do() is an ordinary arm; samples = |A| + 2 · iterations. Two radii (docs/papers/cpe.md#cpe-baselines):

* ``radius="beta_I"`` (LUCB): the CCPE interventional radius β_I(N_a) with δ′ = δ and the same
  α_I as CCPE, so that LUCB differs from CCPE only by ignoring observational data;
* ``radius="kk12"`` (LUCB1-KK12): the original β(u, t) = sqrt(ln(k_1 |A| t^4 / δ) / (2u)),
  k_1 = 5/4, t the iteration index (>= 1) after the initial pulls.

With the ``beta_I`` radius, against an environment whose rounds one compiled node program draws (the cpe SCMs), a
window of rounds is one compiled pass (:func:`_play_window`, the engine's ``WindowPolicy`` with ``NodeDraws``): each
round's pulls, draws and, at an iteration's end, the refresh, the pair and the stop test, with the operations of the
round-by-round path, up to the round after which a seed stops.
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
    lucb_pair,
)
from causal_bandits.errors import ConfigError
from causal_bandits.rng import SeedStreams

RADII = ("beta_I", "kk12")
K1 = 5.0 / 4.0


@numba.njit(cache=True)
def _play_window(noise, program, reward, x, N, total, mu, beta, h, l, stop, rounds, n_arms, radius, epsilon, arms, ys):
    """Rounds of LUCB with β_I for every seed (rows), as ``select``, the environment's pull and ``update`` play them
    one by one: the arms and rewards into ``arms`` and ``ys`` (seeds, L), the state in place. Returns the rounds
    played and the rounds and iterations ended: the window ends after a round in which some seed stops."""
    n, length = arms.shape
    iterations = 0
    for i in range(length):
        r = rounds + i
        for s in range(n):
            a = r if r < n_arms else (h[s] if (r - n_arms) % 2 == 0 else l[s])
            draw_row(x, s, noise[s, i], a, program)
            y = float(x[s, reward])
            N[s, a] += 1
            total[s, a] += y
            arms[s, i], ys[s, i] = a, y
        r += 1
        if r < n_arms or (r - n_arms) % 2:
            continue
        if r > n_arms:
            iterations += 1
        stopped = False
        for s in range(n):
            if r == n_arms:
                for a in range(n_arms):
                    mu[s, a] = total[s, a] / N[s, a]
                    beta[s, a] = radius[N[s, a]]
            else:
                for a in (h[s], l[s]):
                    mu[s, a] = total[s, a] / N[s, a]
                    beta[s, a] = radius[N[s, a]]
            best = 0  # argmax of the means, ties to the lowest index
            for a in range(1, n_arms):
                if mu[s, a] > mu[s, best]:
                    best = a
            challenger, top = 0, -np.inf  # argmax of the upper bounds over the other arms, ties to the lowest index
            for a in range(n_arms):
                upper = -np.inf if a == best else mu[s, a] + beta[s, a]
                if a == 0 or upper > top:
                    challenger, top = a, upper
            h[s], l[s] = best, challenger
            stop[s] = mu[s, challenger] + beta[s, challenger] <= mu[s, best] - beta[s, best] + epsilon
            stopped |= stop[s]
        if stopped:
            return i + 1, r, iterations
    return length, rounds + length, iterations


class LUCB(PureExplorationPolicy):
    """LUCB with the CCPE radius (``beta_I``) or the original LUCB1 radius (``kk12``)."""

    _per_seed = ("_N", "_sum", "_mu", "_beta", "_l", "_pulled")
    window_draws = NodeDraws  # the engine's WindowPolicy: windows drawn with a node program

    def __init__(
        self,
        *,
        delta: float = 0.05,
        epsilon: float = 0.0,
        profile: str = "practical",
        radius: str = "beta_I",
        alpha_I: float | None = None,
    ):
        self.delta, self.epsilon = check_confidence(delta, epsilon)
        self.profile = check_profile(profile)
        if radius not in RADII:
            raise ConfigError(f"radius = {radius!r} is unknown; use one of {list(RADII)}")
        self.radius = radius
        self.alpha_I = ALPHA_I[profile] if alpha_I is None else float(alpha_I)
        self.name = "LUCB" if radius == "beta_I" else "LUCB1-KK12"

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self.n_arms = n_arms
        self._rows = np.arange(n_seeds)
        self._radius = RadiusTable(n_arms, self.delta, self.alpha_I)
        self._pulled = np.zeros((n_seeds, 2), dtype=np.int64)  # h and l of the iteration
        self._N = np.zeros((n_seeds, n_arms), dtype=np.int64)
        self._sum = np.zeros((n_seeds, n_arms))
        self._mu = np.zeros((n_seeds, n_arms))
        self._beta = np.full((n_seeds, n_arms), np.inf)
        self._best = np.zeros(n_seeds, dtype=np.int64)
        self._l = np.zeros(n_seeds, dtype=np.int64)
        self._stop = np.zeros(n_seeds, dtype=bool)
        self._round = 0
        self.iterations = 0
        self.interval_updates = 0

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        r = self._round
        if r < self.n_arms:
            return np.full(self._rows.size, r, dtype=np.int64)
        return self._best if (r - self.n_arms) % 2 == 0 else self._l

    def update(self, feedback) -> None:
        arms, y, rows = feedback.arms, np.asarray(feedback.rewards, dtype=float), self._rows
        self._N[rows, arms] += 1
        self._sum[rows, arms] += y
        self._round += 1
        r = self._round
        if r < self.n_arms or (r - self.n_arms) % 2:
            return
        if r > self.n_arms:
            self.iterations += 1
        self.interval_updates += 1
        if self.radius == "kk12":
            self._mu = self._sum / self._N
            t = self.iterations + 1
            self._beta = np.sqrt(np.log(K1 * self.n_arms * t**4 / self.delta) / (2.0 * self._N))
        elif r > self.n_arms:
            self._refresh()
        else:
            self._mu = self._sum / self._N
            self._beta = self._radius(self._N)
        upper = self._mu + self._beta
        self._best, self._l = lucb_pair(self._mu, upper)
        lower_h = self._mu[rows, self._best] - self._beta[rows, self._best]
        self._stop = upper[rows, self._l] <= lower_h + self.epsilon

    def window(self, t: int) -> int:
        """Any number of rounds with the ``beta_I`` radius (the engine's ``WindowPolicy``), else 1."""
        return 1 << 62 if self.radius == "beta_I" else 1

    def play_window(self, t: int, length: int, draws: NodeDraws) -> tuple[np.ndarray, np.ndarray]:
        """Up to ``length`` rounds in one compiled pass (:func:`_play_window`); they end after a round in which some
        seed stops."""
        arms, rewards, x = draws.outputs()
        radius = self._radius.covering(int(self._N.max()) + length)
        played, self._round, iterations = _play_window(
            draws.noise,
            draws.program.args,
            draws.reward,
            x,
            self._N,
            self._sum,
            self._mu,
            self._beta,
            self._best,
            self._l,
            self._stop,
            self._round,
            self.n_arms,
            radius,
            self.epsilon,
            arms,
            rewards,
        )
        self.iterations += iterations
        self.interval_updates += played
        return arms[:, :played], rewards[:, :played]

    def _refresh(self) -> None:
        """Means and β_I of the two arms just pulled, h and l."""
        pulled = self._pulled
        pulled[:, 0], pulled[:, 1] = self._best, self._l
        rows = self._rows[:, None]
        N = self._N[rows, pulled]
        self._mu[rows, pulled] = self._sum[rows, pulled] / N
        self._beta[rows, pulled] = self._radius(N)

    def intervals(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Current (lower, upper) per seed and arm (infinite before the initial sweep ends; new only when
        :attr:`interval_updates` has grown)."""
        return {"interventional": (self._mu - self._beta, self._mu + self._beta)}

    def diagnostics(self) -> dict[str, np.ndarray]:
        """Per-seed counters and the interval widths 2β of h and l."""
        n, rows = self._rows.size, self._rows
        return {
            "iterations": np.full(n, self.iterations),
            "n_obs_samples": np.zeros(n, dtype=np.int64),
            "n_int_samples": np.full(n, self._round),
            "n_empty_intersections": np.zeros(n, dtype=np.int64),
            "width_recommended": 2 * self._beta[rows, self._best],
            "width_challenger": 2 * self._beta[rows, self._l],
        }
