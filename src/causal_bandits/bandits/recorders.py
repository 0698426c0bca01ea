r"""Generic recorders: what the engine keeps of a run, plugged into :func:`causal_bandits.bandits.engine.simulate`.

* :class:`RegretTrace` — cumulative regret on a round grid (every round when the grid is every
  round), with the pulled arm and whether it was optimal, and per-seed final values.

Paper-specific recorders live beside their algorithms (the fairness auditor,
:mod:`causal_bandits.bandits.audit`).

Regrets: ``cum_regret`` is the pseudo-regret $\sum_{s \le t} (\mu^*_s - \mu_{a_s})$ (its mean estimates the
expected regret with less noise); ``cum_realized_regret`` is $\sum_{s \le t} (\mu^*_s - y_s)$, the
convention of Lee & Bareinboim's code. Both have the same expectation. $\mu^*_s$ is the best mean of
round $s$ (the best arm's, or the best arm's in the round's context).
"""

from __future__ import annotations

import numpy as np

from causal_bandits.bandits.engine import Environment, Policy, Step, Window


class RegretTrace:
    """Cumulative regrets at the rounds of ``grid`` (increasing, ending at the horizon).

    Parameters
    ----------
    grid : numpy.ndarray
        The rounds to record, increasing within 1..horizon and ending at the horizon
        (:func:`~causal_bandits.bandits.engine.linear_grid`).
    """

    def __init__(self, grid: np.ndarray):
        self.grid = np.asarray(grid, dtype=np.int64)

    def start(self, seeds: np.ndarray, horizon: int, env: Environment, policy: Policy) -> None:
        grid = self.grid
        if grid.size == 0 or (np.diff(grid) <= 0).any() or grid[0] < 1 or grid[-1] != horizon:
            raise ValueError("grid must be increasing rounds within 1..horizon that end at the horizon")
        n, shape = seeds.size, (seeds.size, grid.size)
        self.horizon = horizon
        self.cum_regret, self.cum_realized_regret = np.empty(shape), np.empty(shape)
        self.arm, self.optimal = np.full(shape, -1, dtype=np.int32), np.zeros(shape, dtype=bool)
        self._regret, self._best = np.zeros(n), np.zeros(n)
        self._rewards = np.zeros(n)
        self._n_optimal = np.zeros(n, dtype=np.int64)
        self._g = 0

    def record(self, step: Step) -> None:
        rows = step.rows if step.rows.size < self._regret.size else slice(None)
        self._regret[rows] += step.gap
        self._best[rows] += step.best
        self._rewards[rows] += step.feedback.rewards
        self._n_optimal[rows] += step.optimal
        g = self._g
        if g < self.grid.size and self.grid[g] == step.t:
            self.cum_regret[:, g] = self._regret
            self.cum_realized_regret[:, g] = self._best - self._rewards
            self.arm[rows, g] = step.feedback.arms
            self.optimal[rows, g] = step.optimal
            self._g += 1

    def record_window(self, window: Window) -> None:
        """Every round of ``window``, as :meth:`record` round by round: the running sums add the rounds one at a time
        in round order (:func:`~causal_bandits.bandits.running_sums.accumulate`: each round's sum is the same number),
        read at the grid's rounds; a seed that has stopped keeps its sums at the grid's rounds."""
        from causal_bandits.bandits.running_sums import accumulate  # numba loads only in jobs that play windows

        rows = window.rows if window.rows.size < self._regret.size else slice(None)
        length = window.arms.shape[1]
        g = self._g
        end = g + int(np.searchsorted(self.grid[g:], window.t + length))
        at = self.grid[g:end] - window.t
        regret, best, rewards = (np.empty((window.rows.size, at.size)) for _ in range(3))
        if end > g:  # the seeds that have stopped keep their sums
            self.cum_regret[:, g:end] = self._regret[:, None]
            self.cum_realized_regret[:, g:end] = (self._best - self._rewards)[:, None]
        for total, rounds, out in (
            (self._regret, window.gap, regret),
            (self._best, window.best, best),
            (self._rewards, window.rewards, rewards),
        ):  # read-only views all three, so that one compiled version serves them
            accumulate(total, window.rows, np.broadcast_to(rounds, window.arms.shape), at, out)
        if end > g:
            self.cum_regret[rows, g:end] = regret
            self.cum_realized_regret[rows, g:end] = best - rewards
            self.arm[rows, g:end] = window.arms[:, at]
            self.optimal[rows, g:end] = window.optimal[:, at]
            self._g = end
        self._n_optimal[rows] += window.optimal.sum(axis=1)

    def window_end(self, t: int) -> int:
        """Any round: a window's rounds on the grid are recorded from its sums."""
        return self.horizon

    def finish(self):
        # Rounds of the grid after the run ended early (every seed stopped): regrets stay where they are.
        self.cum_regret[:, self._g :] = self._regret[:, None]
        self.cum_realized_regret[:, self._g :] = (self._best - self._rewards)[:, None]
        trace = {
            "cum_regret": self.cum_regret,
            "cum_realized_regret": self.cum_realized_regret,
            "arm": self.arm,
            "optimal": self.optimal,
        }
        summary = {
            "final_regret": self.cum_regret[:, -1],
            "final_realized_regret": self.cum_realized_regret[:, -1],
            "optimal_fraction": self._n_optimal / self.horizon,
        }
        return self.grid, trace, summary
