"""Recorders of the cpe runs, plugged into the one engine (:func:`causal_bandits.bandits.engine.simulate`).

The engine itself keeps ``stopped_at``, ``recommended``, ``correct`` and ``censored`` per seed.

* :class:`StoppingDiagnostics` — each seed's counters (iterations, observational / interventional
  samples, empty O∩I intersections) and interval widths of the recommended arm and its challenger,
  taken in the round the seed stops, or at the sample cap when it is censored (docs/papers/cpe.md#cpe-outputs).
* :class:`RecommendationTrace` — the recommendation (the policy's current argmax) at sample
  checkpoints ⌈1000 · 2^{j/2}⌉; a seed that has stopped keeps its final recommendation
  (docs/papers/cpe.md#cpe-experiments, "Trace"), for error-probability-against-budget curves. The run store's trace
  vocabulary has no column for it, so it is stored as per-seed summary columns ``cpe_rec_<checkpoint>``.
* :class:`IntervalCoverage` — whether, in any round, any interval of the policy excludes the true
  mean of its arm (E0's ``ci_violation``).

They read which seeds stop this round from the engine's ``Step.stopped``.
"""

from __future__ import annotations

from typing import Protocol, cast

import numpy as np

from causal_bandits.bandits.engine import Environment, Policy, Step, StoppingPolicy


class _Diagnosed(Protocol):
    """A cpe policy's per-seed counters (CCPE, LUCB, SE, PB)."""

    def diagnostics(self) -> dict[str, np.ndarray]: ...


class _Intervals(Protocol):
    """A cpe policy's confidence intervals per kind (CCPE, LUCB), and how many times it has recomputed them."""

    interval_updates: int

    def intervals(self) -> dict[str, tuple[np.ndarray, np.ndarray]]: ...


def checkpoints(cap: int, first: int = 1000) -> np.ndarray:
    """⌈first · 2^{j/2}⌉ for j = 0, 1, ... up to the sample cap (the cap itself ends the grid)."""
    points = []
    j = 0
    while (c := int(np.ceil(first * 2 ** (j / 2)))) < cap:
        points.append(c)
        j += 1
    return np.array([*points, cap], dtype=np.int64)


class StoppingDiagnostics:
    """Per-seed ``cpe_<counter>`` summary columns from ``policy.diagnostics()`` at stopping or at the cap."""

    def start(self, seeds: np.ndarray, horizon: int, env: Environment, policy: Policy) -> None:
        self.policy, self.n, self.horizon = cast(_Diagnosed, policy), seeds.size, horizon
        self.values: dict[str, np.ndarray] = {}
        self._running = np.arange(seeds.size)

    def _take(self, rows: np.ndarray, mask: np.ndarray) -> None:
        for key, value in self.policy.diagnostics().items():
            if key not in self.values:
                self.values[key] = np.zeros(self.n, dtype=value.dtype)
            self.values[key][rows] = value[mask]

    def record(self, step: Step) -> None:
        done = step.stopped
        assert done is not None  # cpe policies are stopping policies: simulate passes which seeds stop
        if done.any():  # the running seeds change only here
            self._take(step.rows[done], done)
            self._running = step.rows[~done]

    def record_window(self, window) -> None:
        """Nothing: no seed stops inside a window."""

    def window_end(self, t: int) -> int:
        return self.horizon

    def finish(self):
        if self._running.size:  # censored at the cap: the policy holds exactly these seeds
            self._take(self._running, np.ones(self._running.size, dtype=bool))
        return None, {}, {f"cpe_{key}": value for key, value in self.values.items()}


class RecommendationTrace:
    """``cpe_rec_<c>`` per checkpoint c: the arm each seed recommends after c samples."""

    def __init__(self, grid: np.ndarray):
        self.grid = np.asarray(grid, dtype=np.int64)

    def start(self, seeds: np.ndarray, horizon: int, env: Environment, policy: Policy) -> None:
        if self.grid.size == 0 or (np.diff(self.grid) <= 0).any() or self.grid[-1] != horizon:
            raise ValueError("checkpoints must increase and end at the horizon (the sample cap)")
        self.policy = cast(StoppingPolicy, policy)
        self.current = np.zeros(seeds.size, dtype=np.int64)  # a stopped seed keeps its last value
        self.recommended = np.zeros((seeds.size, self.grid.size), dtype=np.int32)
        self._g = 0

    def record(self, step: Step) -> None:
        done = step.stopped
        assert done is not None  # cpe policies are stopping policies: simulate passes which seeds stop
        at_checkpoint = self._g < self.grid.size and self.grid[self._g] == step.t
        if done.any() or at_checkpoint:
            self.current[step.rows] = self.policy.recommend()
        if at_checkpoint:
            self.recommended[:, self._g] = self.current
            self._g += 1

    def record_window(self, window) -> None:
        """Nothing: no seed stops inside a window, and a checkpoint ends one (:meth:`window_end`)."""

    def window_end(self, t: int) -> int:
        """The next checkpoint: the recommendation is read after it."""
        return int(self.grid[self._g]) if self._g < self.grid.size else int(self.grid[-1])

    def finish(self):
        self.recommended[:, self._g :] = self.current[:, None]  # every seed stopped before these checkpoints
        return None, {}, {f"cpe_rec_{c}": self.recommended[:, g] for g, c in enumerate(self.grid)}


class IntervalCoverage:
    """``cpe_ci_violation``: some observational or interventional interval excluded the true mean. A round in which
    the policy did not recompute its intervals is not checked again: the seeds still running are a subset of those
    checked, against the same intervals (CCPE recomputes them once an iteration, every third round)."""

    def start(self, seeds: np.ndarray, horizon: int, env: Environment, policy: Policy) -> None:
        self.policy, self.mu = cast(_Intervals, policy), np.asarray(env.means, dtype=float)[0]
        self.violated = np.zeros(seeds.size, dtype=bool)
        self._checked = -1  # the policy's interval_updates at the last check

    def record(self, step: Step) -> None:
        if self.policy.interval_updates == self._checked:
            return
        self._checked = self.policy.interval_updates
        for kind, (lower, upper) in self.policy.intervals().items():
            if kind != "merged":  # the merged interval is their intersection (or a fallback to one)
                self.violated[step.rows] |= ((lower > self.mu + 1e-12) | (upper < self.mu - 1e-12)).any(axis=1)

    def finish(self):
        return None, {}, {"cpe_ci_violation": self.violated}
