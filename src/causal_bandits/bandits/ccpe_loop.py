"""The loop that CCPE-BGLM (cpe Algorithm 1) and CCPE-General (Algorithm 3) share, vectorised over seeds.

Iteration t (three samples, docs/papers/cpe.md#cpe-ccpe-bglm):

    h = argmax_a μ̂_a;  l = argmax_{a≠h} U_a                        (line 4)
    stop and return h if U_l <= L_h + ε (and the burn-in allows)   (line 5)
    Step 1: play do(); update the observational estimates and their intervals [L_O, U_O]
    Step 2: play l, then h; interventional intervals [μ̂_I ∓ β_I(N_a)] for a ∈ {l, h, do()}
    Step 3: [L_a, U_a] = [L_O, U_O] ∩ [L_I, U_I]; an empty intersection falls back to the
            interventional interval if N_a > 0, else the observational one (counted,
            ``n_empty_intersections``); μ̂_a = midpoint, 0 while the interval is infinite.

Step 3 and the choice of (h, l) run as one compiled pass over the seeds × arms state (:func:`merge_intervals`,
numba, cached on disk beside this module): as whole-array code they were about twenty numpy operations per
iteration, most of a CCPE job's time on 2,187 arms (E4 k = 7). The pass does the same floating-point operations
element by element, with numpy's rules for NaN in maximum, minimum and argmax and ties to the lowest index. The
interventional side is compiled too (:func:`record_pulls`, :func:`interventional_intervals`, the radii looked up in a
:class:`~causal_bandits.bandits.pure_exploration.RadiusTable`), and L, U and μ̂ are rewritten in place: a dozen small
numpy operations and three fresh seeds × arms arrays per iteration, about a third of CCPE-General's time on E4 k = 7.

Engine rounds 3t−2, 3t−1, 3t play do(), l, h; the stop test runs after round 3t, so a seed that
stops at the start of iteration t has used 3(t−1) samples. Every seed follows the same schedule,
so the phase is a scalar. Subclasses give the observational side: ``_reset_observational``,
``_observe`` (Step 1's data) and ``_observational_intervals`` (at the end of an iteration), and
may delay stopping with ``_may_stop`` (Algorithm 1's burn-in).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numba
import numpy as np

from causal_bandits.bandits.pure_exploration import (
    ALPHA_I,
    PureExplorationPolicy,
    RadiusTable,
    check_confidence,
    check_profile,
)
from causal_bandits.rng import SeedStreams


@numba.njit(cache=True)
def _first_argmax(row, skip):
    """numpy's argmax of ``row`` with entry ``skip`` read as −∞ (none when negative): the first NaN, else the first
    largest entry."""
    best = 0
    top = -np.inf if skip == 0 else row[0]
    if top != top:
        return 0
    for a in range(1, row.shape[0]):
        v = -np.inf if a == skip else row[a]
        if v != v:
            return a
        if v > top:
            top, best = v, a
    return best


@numba.njit(cache=True)
def record_pulls(N, YI, arms, rewards):
    """N[r, arms[r]] += 1 and YI[r, arms[r]] += rewards[r] for every seed r, in place (one arm per seed)."""
    for r in range(arms.shape[0]):
        N[r, arms[r]] += 1
        YI[r, arms[r]] += rewards[r]


@numba.njit(cache=True)
def most_pulls(N, challenger, best):
    """The largest sample count N[r, a] of the arms whose interventional interval an iteration redoes: do(), l, h."""
    top = 0
    for r in range(N.shape[0]):
        top = max(top, N[r, 0], N[r, challenger[r]], N[r, best[r]])
    return top


@numba.njit(cache=True)
def interventional_intervals(N, YI, challenger, best, radius, LI, UI):
    """[μ̂_I ∓ β_I(N_a)] in place for do(), l and h of every seed: μ̂_I = YI / N (0 while N = 0), β_I = radius[N]
    (:class:`~causal_bandits.bandits.pure_exploration.RadiusTable`: interventional_radius's value, ∞ at N = 0). The
    array expression's operations element by element (an arm both do() and l or h gets the same numbers twice)."""
    for r in range(N.shape[0]):
        for a in (0, challenger[r], best[r]):
            n = N[r, a]
            mean = YI[r, a] / n if n > 0 else 0.0
            LI[r, a], UI[r, a] = mean - radius[n], mean + radius[n]


@numba.njit(cache=True)
def merge_intervals(LO, UO, LI, UI, N, epsilon, L, U, mu, empty, best, challenger, gap_closed):
    """Step 3 and line 4-5 of an iteration, seed by seed, into ``L``, ``U``, ``mu`` (seeds × arms) and ``best``,
    ``challenger``, ``gap_closed`` (per seed); ``empty`` counts each seed's empty intersections.

    [L, U] = [max(L_O, L_I), min(U_O, U_I)] as numpy's maximum and minimum (NaN if either end is, the second
    of two equal ends, which decides the sign of a zero), an empty one replaced by the interventional
    interval if N > 0, else the observational one; μ̂ its midpoint, 0 unless both ends are finite; h = argmax μ̂,
    l = argmax_{a≠h} U, ties to the lowest index; the gap is closed when U_l <= L_h + ε. A row's intersections
    are taken in one pass without branches on the data's order (so a fast one) that also finds h and the
    candidates for l (:func:`_challenger`); a row with empty ones has them replaced in a second pass, and h and l
    found again."""
    for r in range(L.shape[0]):
        n_empty = 0
        h, top = 0, -np.inf  # μ̂ is finite (0 unless both ends are): h is its first largest entry
        nan1, nan2, i1, i2, v1, v2 = -1, -1, -1, -1, -np.inf, -np.inf  # U's first two NaNs, two first largest
        for a in range(L.shape[1]):
            lo_o, lo_i, up_o, up_i = LO[r, a], LI[r, a], UO[r, a], UI[r, a]
            lo = lo_o if (lo_o > lo_i) | (lo_o != lo_o) else lo_i  # np.maximum: the second of equals
            up = up_o if (up_o < up_i) | (up_o != up_o) else up_i
            n_empty += lo > up
            L[r, a], U[r, a] = lo, up
            m = (lo + up) / 2.0 if math.isfinite(lo) & math.isfinite(up) else 0.0
            mu[r, a] = m
            if m > top:
                h, top = a, m
            if up != up:
                if nan1 < 0:
                    nan1 = a
                elif nan2 < 0:
                    nan2 = a
            elif (i1 < 0) | (up > v1):
                i2, v2, i1, v1 = i1, v1, a, up
            elif (i2 < 0) | (up > v2):
                i2, v2 = a, up
        if n_empty:
            empty[r] += n_empty
            for a in range(L.shape[1]):
                if L[r, a] > U[r, a]:
                    lo, up = (LI[r, a], UI[r, a]) if N[r, a] > 0 else (LO[r, a], UO[r, a])
                    L[r, a], U[r, a] = lo, up
                    mu[r, a] = (lo + up) / 2.0 if math.isfinite(lo) & math.isfinite(up) else 0.0
            h = _first_argmax(mu[r], -1)
            c = _first_argmax(U[r], h)
        else:
            c = _challenger(h, nan1, nan2, i1, i2, v1, v2)
        best[r], challenger[r] = h, c
        gap_closed[r] = U[r, c] <= L[r, h] + epsilon


@numba.njit(cache=True)
def _challenger(h, nan1, nan2, i1, i2, v1, v2):
    """``_first_argmax(U_row, h)`` from one pass's candidates: the row's first two NaN entries (``nan1``,
    ``nan2``, −1 if none), its first largest non-NaN entry ``i1`` (value ``v1``) and the first largest of the
    others, ``i2`` (value ``v2``). The first NaN but h; else i1 unless it is h, else i2; but index 0 if that one is
    −∞ (then every entry but h and the NaNs is, and the row with −∞ at h starts with a −∞ or with h)."""
    if nan1 >= 0 and nan1 != h:
        return nan1
    if nan2 >= 0:
        return nan2
    c, v = (i1, v1) if i1 != h else (i2, v2)
    return c if (c >= 0) and (v > -np.inf) else 0


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
        self._radius = RadiusTable(n_arms, self.delta_internal, self.alpha_I)
        self.iterations = 0
        self.interval_updates = 0  # intervals change only when an iteration ends
        self._phase = 0
        self._reset_observational(n_seeds)

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        if self._phase == 0:
            return np.zeros(self._rows.size, dtype=np.int64)
        return self._l if self._phase == 1 else self._best

    def update(self, feedback) -> None:
        arms, y = feedback.arms, np.asarray(feedback.rewards, dtype=float)
        record_pulls(self._N, self._YI, arms, y)
        if self._phase == 0:
            self._observe(feedback.values, y)
        self._phase = (self._phase + 1) % 3
        if self._phase == 0:
            self.iterations += 1
            self._finish_iteration()

    def _finish_iteration(self) -> None:
        self._LO, self._UO = self._observational_intervals(self.iterations)
        radius = self._radius.covering(most_pulls(self._N, self._l, self._best))
        interventional_intervals(self._N, self._YI, self._l, self._best, radius, self._LI, self._UI)
        n = self._rows.size
        # L, U and μ̂ are rewritten in place (nothing keeps them between iterations: intervals() is read at once, and
        # retain() slices copies); h and l are new arrays, as select() hands them to the engine.
        self._best, self._l = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        gap_closed = np.empty(n, dtype=np.bool_)
        merge_intervals(
            self._LO, self._UO, self._LI, self._UI, self._N, float(self.epsilon), self._L, self._U, self._mu,
            self._empty, self._best, self._l, gap_closed,
        )  # fmt: skip
        self._stop = gap_closed & self._may_stop(self.iterations + 1)
        self.interval_updates += 1

    def _may_stop(self, t: int) -> bool:
        return True

    def intervals(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Current (lower, upper) per seed and arm: observational, interventional and merged (new only when
        :attr:`interval_updates` has grown)."""
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
