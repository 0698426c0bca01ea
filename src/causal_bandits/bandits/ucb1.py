"""UCB1 over a per-seed list of arms (Auer et al. 2002), as docs/papers/unknown_graph.md#unknown_graph-baselines fixes
it.

Pull every arm of the list once, in ascending order; then pull argmax_a mu_hat_a + c sigma
sqrt(2 ln t' / N_a), where t' is the 1-based round counter of this UCB instance (not the global
round) and ties go to the lowest arm. This is the "UCB" baseline (all arms), the Oracle-UCB (the
arms of the true X_R) and CN-UCB's stage 3 (the arms of X_hat or C0, started fresh when discovery
ends). The module's existing ``ucb.UCB`` differs (radius 2 ln(1/delta_t), random ties, no initial
pulls), hence a module of its own.

:class:`ArmLists` holds, per seed, its arm list (padded to the widest list), sums, counts and t';
seeds can start at different rounds. :class:`UCBPolicy` is the engine policy over fixed lists.

A round's index, argmax and update run as two compiled passes over the state (numba, cached on disk like
:mod:`causal_bandits.bandits.multinomial`) doing exactly numpy's element-wise operations in numpy's order (one product,
one sum per slot, first maximum; one sum, one division, one square root per pulled slot), so the arms pulled are
bit for bit those of the numpy expressions they replace (``tests/test_ucb1_kernels.py``).

Against an environment whose reward is a table look-up plus noise (the engine's ``OutcomeTables``), a whole window
of rounds is one compiled pass (:func:`_play_window`): each round's index, argmax, draw and update, in the order and
with the operations of the round-by-round path, so the window plays the same arms and rewards bit for bit
(``tests/test_engine_windows.py``). A window plays one seed's rounds after another, so a seed's row stays in cache,
and a row wider than a chunk finds its maximum through upper bounds of its chunks' indices at the largest radius of
a short period (:func:`_bounded_max`): a round evaluates the few chunks that can hold the maximum, not every slot
(docs/performance.md#windows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numba
import numpy as np

from causal_bandits.bandits.engine import OutcomeTables
from causal_bandits.rng import SeedStreams

#: Slots per chunk of :func:`_first_max`'s scan of a wide row.
_CHUNK = 16


@numba.njit(cache=True)
def _first_max(r: float, inv_root: np.ndarray, mean: np.ndarray, s: int, index: np.ndarray) -> int:
    """The first slot maximising ``r * inv_root[s] + mean[s]`` (seed ``s``'s row; numpy's argmax of it). A row of
    at most a chunk is scanned once, keeping the first strict maximum. A wider row's indices go to ``index`` (scratch
    of the row's width) in one pass, which the compiler vectorises; then each chunk's largest, by comparisons alone,
    and a chunk's first slot holding it where it beats every earlier chunk: the same slot, in 60 % of the time on
    2,047 slots. Indices are never NaN (finite means and radii, padding slots -inf), so the chunk maxima are exact in
    any order."""
    width = inv_root.shape[1]
    if width <= _CHUNK:
        best, slot = r * inv_root[s, 0] + mean[s, 0], 0
        for a in range(1, width):
            value = r * inv_root[s, a] + mean[s, a]
            if value > best:
                best, slot = value, a
        return slot
    for a in range(width):
        index[a] = r * inv_root[s, a] + mean[s, a]
    best, slot = index[0], 0
    full = width - width % _CHUNK
    for lo in range(0, full, _CHUNK):
        top = index[lo]
        for j in range(lo + 1, lo + _CHUNK):
            top = index[j] if index[j] > top else top
        if top > best:
            for j in range(lo, lo + _CHUNK):
                if index[j] == top:
                    best, slot = top, j
                    break
    for a in range(full, width):
        if index[a] > best:
            best, slot = index[a], a
    return slot


@numba.njit(cache=True)
def _argmax_index(radius: np.ndarray, inv_root: np.ndarray, mean: np.ndarray, flat: np.ndarray, on: np.ndarray) -> None:
    """``flat[s]`` = s * width + the first slot maximising ``radius[s] * inv_root[s] + mean[s]`` (numpy's
    ``(radius[:, None] * inv_root + mean).argmax(axis=1)``, without the (seeds x slots) temporary:
    :func:`_first_max`), for the seeds ``on``; the others' entries are left as they are."""
    n_seeds, width = inv_root.shape
    index = np.empty(width)
    for s in range(n_seeds):
        if on[s]:
            flat[s] = s * width + _first_max(radius[s], inv_root, mean, s, index)


@numba.njit(cache=True)
def _learn(
    flat: np.ndarray,
    rewards: np.ndarray,
    on: np.ndarray,
    sums: np.ndarray,
    counts: np.ndarray,
    mean: np.ndarray,
    inv_root: np.ndarray,
    t: np.ndarray,
) -> None:
    """Add ``rewards[s]`` to slot ``flat[s]`` of every seed ``s`` with ``on[s]`` (flat state arrays): its sum, count,
    mean = sum / count, 1 / sqrt(count), and the seed's round counter."""
    for s in range(flat.size):
        if on[s]:
            i = flat[s]
            total, count = sums[i] + rewards[s], counts[i] + 1.0
            sums[i], counts[i] = total, count
            mean[i] = total / count
            inv_root[i] = 1.0 / np.sqrt(count)
            t[s] += 1


#: Rounds a wide row's index bounds serve before they are recomputed (:func:`_bounds`): a longer period costs fewer
#: recomputations of every slot but looser bounds, so more slots are evaluated a round.
_PERIOD = 128


@numba.njit(cache=True)
def _bounds(r: float, w: np.ndarray, m: np.ndarray, bound: np.ndarray, top: np.ndarray, group: np.ndarray) -> None:
    """``bound[a] = r * w[a] + m[a]`` for every slot, ``top[c]`` the largest bound of chunk ``c`` (slots ``c * _CHUNK``
    on) and ``group[g]`` the largest of chunks ``g * _CHUNK`` on: the same operations as an index, so for any radius
    at most ``r`` a slot's index is at most its bound (rounding is monotone and ``w`` is never negative)."""
    for a in range(w.size):
        bound[a] = r * w[a] + m[a]
    for c in range(top.size):
        _chunk_top(bound, top, c)
    for g in range(group.size):
        _chunk_top(top, group, g)


@numba.njit(cache=True)
def _chunk_top(values: np.ndarray, top: np.ndarray, c: int) -> None:
    """``top[c]`` = the largest of chunk ``c`` of ``values`` (``values[c * _CHUNK:(c + 1) * _CHUNK]``)."""
    lo = c * _CHUNK
    best = values[lo]
    for a in range(lo + 1, min(lo + _CHUNK, values.size)):
        best = values[a] if values[a] > best else best
    top[c] = best


@numba.njit(cache=True)
def _first_top(values: np.ndarray, lo: int, hi: int) -> int:
    """The first position of the largest of ``values[lo:hi]``."""
    lead = lo
    for c in range(lo + 1, hi):
        lead = c if values[c] > values[lead] else lead
    return lead


@numba.njit(cache=True)
def _scan_chunk(r: float, w: np.ndarray, m: np.ndarray, c: int, best: float, slot: int) -> tuple[float, int]:
    """The best index and its slot once chunk ``c``'s slots are evaluated: a slot wins on a larger index, or on an
    equal one at a lower slot (and the first slot evaluated wins)."""
    for a in range(c * _CHUNK, min(c * _CHUNK + _CHUNK, w.size)):
        value = r * w[a] + m[a]
        if value > best or (value == best and a < slot) or slot < 0:
            best, slot = value, a
    return best, slot


@numba.njit(cache=True)
def _bounded_max(r: float, w: np.ndarray, m: np.ndarray, top: np.ndarray, group: np.ndarray) -> int:
    """The first slot maximising ``r * w + m`` (:func:`_first_max`'s slot), evaluating only the chunks whose largest
    bound (``top``, grouped in ``group``, at a radius at least ``r``) reaches the best index found so far: the chunk
    with the largest bound first, then the others in order (:func:`_scan_chunk`). A slot left out has index <= bound <
    best, so it neither beats nor ties the maximum, and every slot holding the maximum is evaluated: the lowest of
    them wins, as in numpy's argmax."""
    g = _first_top(group, 0, group.size)
    lead = _first_top(top, g * _CHUNK, min(g * _CHUNK + _CHUNK, top.size))
    best, slot = _scan_chunk(r, w, m, lead, -np.inf, -1)
    for g in range(group.size):
        if group[g] < best:
            continue
        for c in range(g * _CHUNK, min(g * _CHUNK + _CHUNK, top.size)):
            if c != lead and top[c] >= best:
                best, slot = _scan_chunk(r, w, m, c, best, slot)
    return slot


@numba.njit(cache=True)
def _pull(s, i, slot, u, noise, cdf, value, arms, sums, counts, mean, inv_root, t, pulled, rewards) -> None:
    """Round ``i`` of seed ``s`` pulls ``slot``: its arm's outcome x = #{k : cdf[s, arm, k] <= u[s, i]}, the reward
    ``value[s, x] + noise[s, i]`` and the update of :func:`_learn`."""
    arm = arms[s, slot]
    x = 0
    for k in range(cdf.shape[2]):
        if u[s, i] >= cdf[s, arm, k]:
            x += 1
    reward = value[s, x] + noise[s, i]
    total, count = sums[s, slot] + reward, counts[s, slot] + 1.0
    sums[s, slot], counts[s, slot] = total, count
    mean[s, slot] = total / count
    inv_root[s, slot] = 1.0 / np.sqrt(count)
    t[s] += 1
    pulled[s, i], rewards[s, i] = arm, reward


@numba.njit(cache=True)
def _play_window(
    radius: np.ndarray,
    u: np.ndarray,
    noise: np.ndarray,
    cdf: np.ndarray,
    value: np.ndarray,
    arms: np.ndarray,
    sums: np.ndarray,
    counts: np.ndarray,
    mean: np.ndarray,
    inv_root: np.ndarray,
    t: np.ndarray,
    pulled: np.ndarray,
    rewards: np.ndarray,
) -> None:
    """Rounds i = 0..L-1 of every seed s (all active), a seed's rounds one after another (the seeds share nothing):
    the first slot maximising ``radius[s, i] * inv_root + mean`` and its pull (:func:`_pull`); the arms and rewards go
    to ``pulled`` and ``rewards`` (S, L). A row of at most a chunk is scanned whole (:func:`_first_max`); a wider one
    through bounds at the largest radius of each :data:`_PERIOD` rounds (:func:`_bounded_max`), the pulled slot's
    bound and its chunk's recomputed after each round."""
    n_seeds, width = mean.shape
    index = np.empty(width)
    bound, top = np.empty(width), np.empty((width + _CHUNK - 1) // _CHUNK)
    group = np.empty((top.size + _CHUNK - 1) // _CHUNK)
    for s in range(n_seeds):
        w, m = inv_root[s], mean[s]
        for lo in range(0, radius.shape[1], _PERIOD):
            hi = min(lo + _PERIOD, radius.shape[1])
            ceiling = radius[s, lo:hi].max()
            if width > _CHUNK:
                _bounds(ceiling, w, m, bound, top, group)
            for i in range(lo, hi):
                if width > _CHUNK:
                    slot = _bounded_max(radius[s, i], w, m, top, group)
                else:
                    slot = _first_max(radius[s, i], inv_root, mean, s, index)
                _pull(s, i, slot, u, noise, cdf, value, arms, sums, counts, mean, inv_root, t, pulled, rewards)
                if width > _CHUNK:
                    bound[slot] = ceiling * w[slot] + m[slot]
                    _chunk_top(bound, top, slot // _CHUNK)
                    _chunk_top(top, group, slot // (_CHUNK * _CHUNK))


class ArmLists:
    """UCB1 state for seeds that each play their own list of arms (global arm ids).

    Kept per list slot: the mean and 1/sqrt(N) (N = pulls), so a round costs one product, one sum and
    an argmax over the slots. An unpulled arm has 1/sqrt(N) = 1e150, so its index is astronomically
    large from t' = 2 on and the lowest unpulled slot wins: the initial pulls come out in ascending
    order with no special case (at t' = 1, ln t' = 0 and every index ties at 0, so slot 0 wins).
    Padding slots have mean -inf.
    """

    _UNPULLED = 1e150

    def __init__(self, c: float = 1.0, sigma: float = 1.0):
        self.scale = 2.0 * (c * sigma) ** 2

    def reset(self, n_seeds: int) -> None:
        self.active = np.zeros(n_seeds, dtype=bool)
        self.arms = np.full((n_seeds, 0), -1, dtype=np.int64)
        self.sums = np.zeros((n_seeds, 0))
        self.counts = np.zeros((n_seeds, 0))
        self.mean = np.zeros((n_seeds, 0))
        self.inv_root = np.zeros((n_seeds, 0))
        self.t = np.zeros(n_seeds, dtype=np.int64)  # rounds this UCB instance has played
        self._flat = np.zeros(n_seeds, dtype=np.int64)
        self._all_active = False

    def start(self, seeds: Sequence[int], arm_lists: Sequence[np.ndarray]) -> None:
        """Begin a fresh UCB1 for each seed on its (sorted) list of arms."""
        width = max([self.arms.shape[1], *(len(a) for a in arm_lists)])
        if width > self.arms.shape[1]:
            pad = ((0, 0), (0, width - self.arms.shape[1]))
            self.arms = np.pad(self.arms, pad, constant_values=-1)
            self.sums, self.counts = np.pad(self.sums, pad), np.pad(self.counts, pad)
            self.mean = np.pad(self.mean, pad, constant_values=-np.inf)
            self.inv_root = np.pad(self.inv_root, pad)
        slots = np.arange(width)
        for s, arms in zip(seeds, arm_lists):
            arms = np.sort(np.asarray(arms, dtype=np.int64))
            real = slots < arms.size
            self.arms[s] = -1
            self.arms[s, : arms.size] = arms
            self.sums[s], self.counts[s] = 0.0, 0.0
            self.mean[s] = np.where(real, 0.0, -np.inf)
            self.inv_root[s] = np.where(real, self._UNPULLED, 0.0)
            self.t[s], self.active[s] = 0, True
        self._all_active = bool(self.active.all())

    def select(self) -> np.ndarray:
        """Each active seed's arm (global id); -1 for inactive seeds."""
        radius = np.sqrt(self.scale * np.log(self.t + 1.0))
        _argmax_index(radius, self.inv_root, self.mean, self._flat, self.active)  # inactive seeds: no arm to find
        arms = self.arms.ravel()[self._flat]
        return arms if self._all_active else np.where(self.active, arms, -1)

    def play_window(self, length: int, tables) -> tuple[np.ndarray, np.ndarray]:
        """``length`` rounds of every seed (all active) against ``tables`` (the engine's ``OutcomeTables``): the
        arms pulled and the rewards, (n_seeds, length) each, as :meth:`select`, the draw and :meth:`update` round
        by round would give them. The radius is numpy's, as :meth:`select` computes it."""
        radius = np.sqrt(self.scale * np.log((self.t[:, None] + np.arange(length)) + 1.0))
        pulled = np.empty((self.t.size, length), dtype=np.int64)
        rewards = np.empty((self.t.size, length))
        _play_window(
            radius,
            tables.u,
            tables.noise,
            tables.cdf,
            tables.value,
            self.arms,
            self.sums,
            self.counts,
            self.mean,
            self.inv_root,
            self.t,
            pulled,
            rewards,
        )
        return pulled, rewards

    def update(self, rewards: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Record the rewards of the arms :meth:`select` chose, for active seeds (within ``mask``)."""
        on = self.active if mask is None else self.active & mask
        r = np.asarray(rewards, dtype=float)
        _learn(
            self._flat, r, on, self.sums.ravel(), self.counts.ravel(), self.mean.ravel(), self.inv_root.ravel(), self.t
        )


class UCBPolicy:
    """UCB1 on a fixed arm list per seed: all arms (``arm_lists=None``) or, e.g., the true X_R's arms."""

    window_draws = OutcomeTables  # the engine's WindowPolicy: windows against reward tables

    def __init__(
        self, arm_lists: Sequence[np.ndarray] | None = None, *, c: float = 1.0, sigma: float = 1.0, name: str = "UCB"
    ):
        self.arm_lists, self.name = arm_lists, name
        self._ucb = ArmLists(c, sigma)

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams] | None = None) -> None:
        lists = self.arm_lists or [np.arange(n_arms)] * n_seeds
        if len(lists) != n_seeds:
            raise ValueError(f"{self.name}: {len(lists)} arm lists for {n_seeds} seeds")
        self._ucb.reset(n_seeds)
        self._ucb.start(range(n_seeds), lists)

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        return self._ucb.select()

    def update(self, feedback) -> None:
        self._ucb.update(feedback.rewards)

    def window(self, t: int) -> int:
        """Every round from ``t`` on can be played in a window (the engine's ``WindowPolicy``)."""
        return 1 << 62

    def play_window(self, t: int, length: int, tables) -> tuple[np.ndarray, np.ndarray]:
        return self._ucb.play_window(length, tables)
