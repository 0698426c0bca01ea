"""A stand-in simulation loop that serves CN-UCB's discovery batches as blocks of rounds.

The one engine (``causal_bandits.bandits.engine``) runs every paper round by round. CN-UCB's
discovery is made of batches of B rounds of a fixed arm, so this loop asks the policy, each time,
for how many rounds its arms stay fixed (``policy.block(t)``) and, when that is more than one, draws
the environment's uniforms for the whole block at once (the same uniforms, in the same order, as
round by round), calls ``env.pull_block`` and ``policy.update_block``, and records the regret of the
block in closed form (a fixed arm per seed adds its gap every round). Otherwise it is the engine's
per-round step, with the variables the policy observes (``policy.observed(t)``) passed to the
environment. It is to be replaced by the engine once the engine has these hooks (see the paper's
closing note for the exact interface).

Regret is pseudo-regret, per seed against that seed's instance: sum_t (mu*_s - mu_s(a_t)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from causal_bandits.rng import SeedStreams


@dataclass(frozen=True)
class Feedback:
    """What a policy sees after a round (rewards (S,), values (S, m)) or a block ((S, L), (S, L, m))."""

    arms: np.ndarray
    rewards: np.ndarray
    contexts: np.ndarray | None
    values: np.ndarray | None


class NoiseBuffer:
    """The environment's per-round uniforms, drawn ``chunk`` rounds ahead: ``take(L)`` gives the next
    L rounds, (S, L, W), exactly the numbers L single-round reads would give."""

    def __init__(self, streams: SeedStreams, width: int, chunk: int = 1024):
        self._streams, self._w, self._chunk = streams, width, chunk
        self._buf = np.empty((streams.n_seeds, 0, width))
        self._pos = 0

    def take(self, rounds: int) -> np.ndarray:
        left = self._buf.shape[1] - self._pos
        if rounds > left:
            more = max(rounds - left, self._chunk)
            fresh = self._streams.uniform(more * self._w).reshape(-1, more, self._w)
            self._buf = np.concatenate([self._buf[:, self._pos:], fresh], axis=1)
            self._pos = 0
        out = self._buf[:, self._pos: self._pos + rounds]
        self._pos += rounds
        return out


@dataclass
class Run:
    seeds: np.ndarray
    rounds: np.ndarray  # grid, 1-based
    cum_regret: np.ndarray  # (S, G)
    per_round_steps: int  # rounds served one at a time
    blocks: int  # blocks served


def simulate(policy, env, *, paper: str, experiment: str, seeds: Sequence[int], horizon: int,
             grid: np.ndarray | None = None, blocks: bool = True) -> Run:
    """Run ``policy`` on ``env`` for ``horizon`` rounds; ``blocks=False`` serves every round singly."""
    seeds = np.asarray(seeds, dtype=np.int64)
    grid = np.array([horizon]) if grid is None else np.asarray(grid, dtype=np.int64)
    S, W = seeds.size, env.noise_width
    rows = np.arange(S)
    means = np.asarray(env.means, dtype=float).reshape(S, -1)
    gap = (means.max(axis=1, keepdims=True) - means).ravel()  # flat: seed s, arm a at s * n_arms + a
    offsets = rows * means.shape[1]
    noise = NoiseBuffer(SeedStreams(paper, experiment, seeds, "environment"), W)
    policy.reset(S, means.shape[1], lambda name: SeedStreams(paper, experiment, seeds, f"policy/{name}"))
    contexts = env.contexts(1)
    observed = getattr(policy, "observed", lambda t: None)
    block = getattr(policy, "block", None) if blocks else None
    regret, cum = np.zeros(S), np.empty((S, grid.size))
    g, t, singles, n_blocks = 0, 1, 0, 0
    while t <= horizon:
        length = min(block(t), horizon - t + 1) if block is not None else 1
        arms = policy.select(t, contexts)
        gaps = gap[offsets + arms]
        if length > 1:
            rewards, values = env.pull_block(t, contexts, arms, length, noise.take(length), observed(t))
            policy.update_block(Feedback(arms, rewards, contexts, values))
            n_blocks += 1
        else:
            rewards, values = env.pull(t, contexts, arms, noise.take(1)[:, 0], observed(t))
            policy.update(Feedback(arms, rewards, contexts, values))
            singles += 1
        if grid[g] < t + length:
            while g < grid.size and grid[g] < t + length:
                cum[:, g] = regret + gaps * (grid[g] - t + 1)
                g += 1
        regret += gaps * length
        t += length
    return Run(seeds, grid, cum, singles, n_blocks)
