"""UCB1 over a per-seed list of arms (Auer et al. 2002), as the unknown_graph SPEC §2.4 fixes it.

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
    """UCB1 state for seeds that each play their own list of arms (global arm ids)."""

    def __init__(self, c: float = 1.0, sigma: float = 1.0):
        self.scale = 2.0 * (c * sigma) ** 2

    def reset(self, n_seeds: int) -> None:
        self.active = np.zeros(n_seeds, dtype=bool)
        self.arms = np.full((n_seeds, 0), -1, dtype=np.int64)
        self.sums = np.zeros((n_seeds, 0))
        self.counts = np.zeros((n_seeds, 0))
        self.size = np.zeros(n_seeds, dtype=np.int64)
        self.t = np.zeros(n_seeds, dtype=np.int64)  # rounds this UCB instance has played
        self._pos = np.zeros(n_seeds, dtype=np.int64)
        self._rows = np.arange(n_seeds)

    def start(self, seeds: Sequence[int], arm_lists: Sequence[np.ndarray]) -> None:
        """Begin a fresh UCB1 for each seed on its (sorted) list of arms."""
        width = max([self.arms.shape[1], *(len(a) for a in arm_lists)])
        if width > self.arms.shape[1]:
            extra = width - self.arms.shape[1]
            self.arms = np.pad(self.arms, ((0, 0), (0, extra)), constant_values=-1)
            self.sums = np.pad(self.sums, ((0, 0), (0, extra)), constant_values=-np.inf)
            self.counts = np.pad(self.counts, ((0, 0), (0, extra)), constant_values=1.0)
        for s, arms in zip(seeds, arm_lists):
            arms = np.sort(np.asarray(arms, dtype=np.int64))
            self.arms[s] = -1
            self.arms[s, : arms.size] = arms
            self.sums[s] = np.where(np.arange(width) < arms.size, 0.0, -np.inf)
            self.counts[s] = np.where(np.arange(width) < arms.size, 0.0, 1.0)  # padding: index -inf
            self.size[s], self.t[s], self.active[s] = arms.size, 0, True

    def select(self) -> np.ndarray:
        """Each active seed's arm (global id); -1 for inactive seeds."""
        t = self.t + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            index = self.sums / self.counts + np.sqrt(self.scale * np.log(t)[:, None] / self.counts)
        self._pos = np.where(t <= self.size, t - 1, index.argmax(axis=1))
        return np.where(self.active, self.arms[self._rows, self._pos], -1)

    def update(self, rewards: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Record the rewards of the arms :meth:`select` chose, for active seeds (within ``mask``)."""
        on = self.active if mask is None else self.active & mask
        rows, pos = self._rows[on], self._pos[on]
        self.sums[rows, pos] += rewards[on]
        self.counts[rows, pos] += 1.0
        self.t[on] += 1


class UCBPolicy:
    """UCB1 on a fixed arm list per seed: all arms (``arm_lists=None``) or, e.g., the true X_R's arms."""

    def __init__(self, arm_lists: Sequence[np.ndarray] | None = None, *, c: float = 1.0, sigma: float = 1.0,
                 name: str = "UCB"):
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
