"""The contextual counterpart of :mod:`causal_bandits.bandits.engine`: all seeds advance together.

Each round the environment reveals a context per seed, the policy chooses an arm per seed, and
the environment pays the chosen arm's reward. Policies hold their state as arrays over seeds
(``select(t, contexts)``, ``update(contexts, arms, rewards)``); the engine records the same
:class:`~causal_bandits.bandits.engine.Trace` as the non-contextual engine, with the regret taken
against the best arm *of the round's context*.

Randomness: the environment reads the stream ``(paper, experiment, seed, "environment")`` and
policies their own ``"policy/<name>"`` streams. No key names the algorithm, so every algorithm of
an experiment meets the same contexts and the same reward uniforms (common random numbers,
Huang & Wu SPEC §2.3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np

from causal_bandits.bandits.engine import Trace, TraceRecorder
from causal_bandits.rng import SeedStreams


class RoundBlocks:
    """Fixed-width reads of a :class:`SeedStreams`, fetched ``rounds`` reads at a time.

    ``uniform(width)`` returns exactly what ``stream.uniform(width)`` would, in the same order, but
    one stream call serves ``rounds`` consecutive reads (a view into the block), which matters when
    a read happens every round.
    """

    def __init__(self, stream: SeedStreams, width: int, rounds: int = 256) -> None:
        self._stream, self._width, self._rounds = stream, int(width), int(rounds)
        self._block = np.empty((stream.n_seeds, 0, self._width))
        self._next = 0

    def uniform(self, width: int) -> np.ndarray:
        if width != self._width:
            raise ValueError(f"RoundBlocks serves reads of width {self._width}, not {width}")
        if self._next == self._block.shape[1]:
            self._block = self._stream.uniform(self._width * self._rounds).reshape(-1, self._rounds, self._width)
            self._next = 0
        self._next += 1
        return self._block[:, self._next - 1]


class ContextualPolicy(Protocol):
    """What the contextual engine needs from a contextual bandit algorithm."""

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        """Forget everything; ``stream(name)`` returns the policy's keyed uniform stream ``name``."""

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        """Arms (shape (n_seeds,)) for round ``t`` (1-based) given each seed's context index."""

    def update(self, contexts: np.ndarray, arms: np.ndarray, rewards: np.ndarray) -> None:
        """Record the rewards (shape (n_seeds,), in {0, 1}) of the pulled arms."""


@dataclass(frozen=True)
class ContextualBernoulli:
    """Contexts i.i.d. from ``context_probs``; arm a in context k pays 1{V_a < means[k, a]}.

    Each round takes 1 + n_arms uniforms per seed: the context (inverse CDF of the first), then
    one V per arm, so the rewards of all arms are fixed before the policy acts. With
    ``fixed_contexts`` the contexts are that sequence instead (the same for every seed; the first
    uniform is still read, so the reward uniforms do not depend on the choice).
    """

    context_probs: np.ndarray
    means: np.ndarray  # (n_contexts, n_arms)
    fixed_contexts: np.ndarray | None = None

    @property
    def noise_width(self) -> int:
        return 1 + self.means.shape[1]

    @cached_property
    def _cdf(self) -> np.ndarray:
        """Context CDF without its last point (so a uniform maps to at most the last context)."""
        return np.cumsum(self.context_probs)[:-1]

    def draw(self, t: int, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(contexts (n_seeds,), rewards of every arm (n_seeds, n_arms)) of round ``t``."""
        if self.fixed_contexts is None:
            contexts = np.searchsorted(self._cdf, noise[:, 0], side="right")
        else:
            contexts = np.full(noise.shape[0], self.fixed_contexts[t - 1])
        rewards = (noise[:, 1:] < self.means[contexts]).astype(np.int8)
        return contexts, rewards


def simulate_contextual(
    policy: ContextualPolicy,
    env: ContextualBernoulli,
    *,
    paper: str,
    experiment: str,
    seeds: Sequence[int],
    horizon: int,
    grid: np.ndarray,
    block: int = 4096,
) -> Trace:
    """Run ``policy`` in ``env`` for every seed in ``seeds`` over ``horizon`` rounds."""
    seeds = np.asarray(seeds, dtype=np.int64)
    means = np.asarray(env.means, dtype=float)
    recorder = TraceRecorder(seeds, grid, horizon)
    n_arms = means.shape[1]
    mu_star = means.max(axis=1)
    is_optimal = np.isclose(means, mu_star[:, None], rtol=0.0, atol=1e-12).ravel()
    gap = (mu_star[:, None] - means).ravel()  # flat over (context, arm) cells
    env_streams = RoundBlocks(SeedStreams(paper, experiment, seeds, "environment", block), env.noise_width)
    policy.reset(seeds.size, n_arms, lambda name: SeedStreams(paper, experiment, seeds, f"policy/{name}", block))
    rows = np.arange(seeds.size)
    for t in range(1, horizon + 1):
        contexts, all_rewards = env.draw(t, env_streams.uniform(env.noise_width))
        arms = policy.select(t, contexts)
        rewards = all_rewards[rows, arms]
        policy.update(contexts, arms, rewards)
        cell = contexts * n_arms + arms
        recorder.add(t, arms, rewards, gap[cell], mu_star[contexts], is_optimal[cell])
    return recorder.finish()
