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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from causal_bandits.rng import SeedStreams


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
        self._rows = np.arange(n_seeds)
        self._offsets = np.zeros(n_seeds, dtype=np.int64)
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
        self._offsets = self._rows * width
        self._all_active = bool(self.active.all())

    def select(self) -> np.ndarray:
        """Each active seed's arm (global id); -1 for inactive seeds."""
        radius = np.sqrt(self.scale * np.log(self.t + 1.0))
        index = radius[:, None] * self.inv_root
        index += self.mean
        self._flat = self._offsets + index.argmax(axis=1)
        arms = self.arms.ravel()[self._flat]
        return arms if self._all_active else np.where(self.active, arms, -1)

    def update(self, rewards: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Record the rewards of the arms :meth:`select` chose, for active seeds (within ``mask``)."""
        rows: slice | np.ndarray
        if mask is None and self._all_active:
            flat, r, rows = self._flat, rewards, slice(None)
        else:
            on = self.active if mask is None else self.active & mask
            flat, r, rows = self._flat[on], rewards[on], on
        sums, counts = self.sums.ravel(), self.counts.ravel()
        s = sums[flat] + r
        c = counts[flat] + 1.0
        sums[flat], counts[flat] = s, c
        self.mean.ravel()[flat] = s / c
        self.inv_root.ravel()[flat] = 1.0 / np.sqrt(c)
        self.t[rows] += 1


class UCBPolicy:
    """UCB1 on a fixed arm list per seed: all arms (``arm_lists=None``) or, e.g., the true X_R's arms."""

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
