"""The one engine's loop, plus blocks: serve CN-UCB's discovery batches B rounds at a time.

:func:`causal_bandits.bandits.engine.simulate` runs round by round. CN-UCB's discovery is made of
batches of B rounds of a fixed arm, so :func:`simulate_blocks` asks the policy, each time, for how
many rounds every seed's arm stays what ``select`` returns (``policy.block(t)``); when that is more
than one it draws the environment's uniforms of the whole block at once (the very numbers, in the
same order, that single rounds would read), calls ``env.pull_block`` and ``policy.update_block``,
and hands the recorders the block's rounds one by one (the engine's recorders, unchanged).
Otherwise it is the engine's per-round step, except that the variables the policy observes
(``policy.observed(t)``) are passed to the environment, which then samples only those.

Same streams, same feedback, same recorders as the engine: a policy without ``block`` gives
bit-identical runs under both loops. This module should disappear into the engine once the engine
has these hooks (no stopping policies here: CN-UCB never stops a seed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from causal_bandits.bandits.engine import MEAN_TOLERANCE, Feedback, Recorder, Run, Step, Streams
from causal_bandits.rng import SeedStreams


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


def simulate_blocks(policy, env, streams: Streams, horizon: int, recorders: Sequence[Recorder] = (),
                    stop: Callable[[], bool] | None = None) -> Run:
    """Run ``policy`` in ``env`` for every seed of ``streams`` over ``horizon`` rounds, in blocks where
    the policy allows (see the module docstring); ``stop()``, checked before each step, ends the run
    early (e.g. discovery-only runs: when no seed is still searching)."""
    seeds = np.asarray(streams.seeds, dtype=np.int64)
    n, W = seeds.size, env.noise_width
    rows = np.arange(n)
    means = np.atleast_2d(np.asarray(env.means, dtype=float))
    mu_star = means.max(axis=1)
    gap = mu_star[:, None] - means
    is_optimal = np.isclose(means, mu_star[:, None], rtol=0.0, atol=MEAN_TOLERANCE)
    env.reset(streams, horizon)
    noise = NoiseBuffer(streams.uniforms("environment"), W)
    policy.reset(n, env.n_arms, lambda name: streams.uniforms(f"policy/{name}"))
    for recorder in recorders:
        recorder.start(seeds, horizon, env, policy)
    observed = getattr(policy, "observed", lambda t: None)
    block = getattr(policy, "block", None)
    t = 1
    while t <= horizon and not (stop is not None and stop()):
        length = min(block(t), horizon - t + 1) if block is not None else 1
        u = noise.take(length)
        contexts = env.contexts(t, u[:, 0], rows)
        arms = policy.select(t, contexts)
        cell = 0 if contexts is None else contexts
        best = mu_star[0] if contexts is None else mu_star[contexts]
        if length > 1:
            rewards, values = env.pull_block(t, contexts, arms, length, u, observed(t))
            policy.update_block(Feedback(arms, rewards, contexts, values))
            steps = [Feedback(arms, rewards[:, i], contexts, None) for i in range(length)]
        else:
            rewards, values = env.pull(t, contexts, arms, u[:, 0], observed(t))
            steps = [Feedback(arms, rewards, contexts, values)]
            policy.update(steps[0])
        if recorders:
            g, opt = gap[cell, arms], is_optimal[cell, arms]
            for i, feedback in enumerate(steps):
                step = Step(t + i, rows, feedback, g, best, opt)
                for recorder in recorders:
                    recorder.record(step)
        t += length
    run = Run(seeds)
    for recorder in recorders:
        rounds, trace, summary = recorder.finish()
        if rounds is not None:
            run.rounds = rounds
        run.trace.update(trace)
        run.summary.update(summary)
    return run
