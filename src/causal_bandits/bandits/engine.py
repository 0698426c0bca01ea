"""The shared bandit engine: all seeds of a job advance together, one round at a time.

A policy holds its state as arrays of shape (n_seeds, n_arms) and chooses one arm per seed per
round; an environment turns (arms, uniforms) into rewards. Every policy here implements the same
small interface (scikit-learn style: hyper-parameters in ``__init__``, state created by
``reset``), so the engine, the run store and the workflow treat all algorithms alike.

Randomness: the environment reads the stream ``(paper, experiment, seed, "environment")`` and the
policy the streams ``(paper, experiment, seed, "policy/<name>")`` it asks for at ``reset``. Neither key names the algorithm or the
arm set, so every algorithm of an experiment meets the same environment draws (common random
numbers), and two strategies with the same arm list and algorithm give bit-identical runs
(Lee & Bareinboim 2019, footnote 4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from causal_bandits.rng import SeedStreams


class Policy(Protocol):
    """What the engine needs from a bandit algorithm."""

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        """Forget everything; prepare state for ``n_seeds`` parallel runs over ``n_arms`` arms.

        ``stream(name)`` returns the policy's keyed uniform stream called ``name``.
        """

    def select(self, t: int) -> np.ndarray:
        """Arms (int array, shape (n_seeds,)) to pull at round ``t`` (1-based)."""

    def update(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        """Record the rewards (shape (n_seeds,), values in {0, 1}) of the pulled arms."""


class Environment(Protocol):
    """What the engine needs from a stochastic bandit environment."""

    means: np.ndarray  # exact expected reward of each arm, shape (n_arms,)
    noise_width: int  # uniforms consumed per seed per round

    def pull(self, arms: np.ndarray, noise: np.ndarray) -> np.ndarray:
        """Rewards of ``arms`` given this round's uniforms ``noise`` (n_seeds, noise_width)."""


@dataclass(frozen=True)
class BernoulliArms:
    """Independent Bernoulli arms: the reward of arm a is ``u < means[a]``."""

    means: np.ndarray
    noise_width: int = 1

    def pull(self, arms: np.ndarray, noise: np.ndarray) -> np.ndarray:
        return (noise[:, 0] < self.means[arms]).astype(np.int8)


@dataclass
class Trace:
    """What one job records: values at the grid rounds, per seed, plus per-seed summaries.

    ``cum_regret`` is the pseudo-regret sum_{s<=t} (mu*_s - mu_{a_s}) (its mean estimates the
    expected regret with less noise); ``cum_realized_regret`` is sum_{s<=t} (mu*_s - y_s), the
    convention of Lee & Bareinboim's code. Both have the same expectation. mu*_s is the best mean
    of round s (the best arm's, or the best arm's in the round's context for contextual bandits).
    """

    seeds: np.ndarray  # (n_seeds,)
    rounds: np.ndarray  # (n_grid,) 1-based
    cum_regret: np.ndarray  # (n_seeds, n_grid)
    cum_realized_regret: np.ndarray  # (n_seeds, n_grid)
    arm: np.ndarray  # (n_seeds, n_grid) arm pulled at that round
    optimal: np.ndarray  # (n_seeds, n_grid) bool
    optimal_fraction: np.ndarray  # (n_seeds,) share of all T rounds that pulled an optimal arm


def linear_grid(horizon: int, points: int) -> np.ndarray:
    """About ``points`` rounds spread evenly over 1..horizon, always including both ends."""
    if horizon < 1:
        raise ValueError(f"horizon must be >= 1, got {horizon}")
    n = min(max(points, 2), horizon)
    return np.unique(np.linspace(1, horizon, n).round().astype(np.int64))


class TraceRecorder:
    """Accumulates regrets round by round and keeps their values at the grid rounds.

    Shared by every engine that records a :class:`Trace` (this module's and the contextual one).
    ``add`` takes, per seed, the arm pulled, its reward, its gap to the best mean of the round and
    that best mean (the best arm's mean, or the best arm's mean *in the round's context*), and
    whether the arm was optimal.
    """

    def __init__(self, seeds: np.ndarray, grid: np.ndarray, horizon: int):
        grid = np.asarray(grid, dtype=np.int64)
        if grid.size == 0 or (np.diff(grid) <= 0).any() or grid[0] < 1 or grid[-1] != horizon:
            raise ValueError("grid must be increasing rounds within 1..horizon that end at the horizon")
        n, shape = seeds.size, (seeds.size, grid.size)
        self.horizon = horizon
        self.trace = Trace(
            seeds=seeds,
            rounds=grid,
            cum_regret=np.empty(shape),
            cum_realized_regret=np.empty(shape),
            arm=np.empty(shape, dtype=np.int32),
            optimal=np.empty(shape, dtype=bool),
            optimal_fraction=np.empty(n),
        )
        self._regret, self._best = np.zeros(n), np.zeros(n)
        self._rewards = np.zeros(n, dtype=np.int64)
        self._n_optimal = np.zeros(n, dtype=np.int64)
        self._g = 0

    def add(self, t: int, arms: np.ndarray, rewards: np.ndarray, gaps: np.ndarray, best: np.ndarray | float,
            optimal: np.ndarray) -> None:
        self._regret += gaps
        self._best += best
        self._rewards += rewards
        self._n_optimal += optimal
        g, trace = self._g, self.trace
        if g < trace.rounds.size and trace.rounds[g] == t:
            trace.cum_regret[:, g] = self._regret
            trace.cum_realized_regret[:, g] = self._best - self._rewards
            trace.arm[:, g] = arms
            trace.optimal[:, g] = optimal
            self._g += 1

    def finish(self) -> Trace:
        self.trace.optimal_fraction[:] = self._n_optimal / self.horizon
        return self.trace


def simulate(
    policy: Policy,
    env: Environment,
    *,
    paper: str,
    experiment: str,
    seeds: Sequence[int],
    horizon: int,
    grid: np.ndarray,
    block: int = 4096,
) -> Trace:
    """Run ``policy`` on ``env`` for every seed in ``seeds`` over ``horizon`` rounds."""
    seeds = np.asarray(seeds, dtype=np.int64)
    means = np.asarray(env.means, dtype=float)
    recorder = TraceRecorder(seeds, grid, horizon)
    mu_star = means.max()
    is_optimal = np.isclose(means, mu_star, rtol=0.0, atol=1e-12)
    gap = mu_star - means
    env_streams = SeedStreams(paper, experiment, seeds, "environment", block)
    policy.reset(
        seeds.size, means.size, lambda name: SeedStreams(paper, experiment, seeds, f"policy/{name}", block)
    )
    for t in range(1, horizon + 1):
        arms = policy.select(t)
        rewards = env.pull(arms, env_streams.uniform(env.noise_width))
        policy.update(arms, rewards)
        recorder.add(t, arms, rewards, gap[arms], mu_star, is_optimal[arms])
    return recorder.finish()
