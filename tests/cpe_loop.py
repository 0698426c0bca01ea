"""TEST HELPER, not library code: a minimal stand-in for the one engine that is being built on main.

It follows the engine contract of the helpers' brief (environment uniforms from the keyed stream
"environment", select / pull / update, done -> record stopping round and recommendation -> retain,
censoring at the horizon) so that the cpe policies can be tested before the engine lands; it will
be replaced by ``causal_bandits.bandits.engine.simulate``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from causal_bandits.rng import SeedStreams


@dataclass
class Feedback:
    arms: np.ndarray
    rewards: np.ndarray
    contexts: np.ndarray | None
    values: np.ndarray | None


@dataclass
class Stopping:
    seeds: np.ndarray
    samples: np.ndarray  # stopping round (= samples used); the horizon when censored
    recommended: np.ndarray
    censored: np.ndarray
    diagnostics: dict


def run_to_stop(policy, env, *, seeds, horizon, experiment="test", paper="cpe", block=4096, monitor=None) -> Stopping:
    """Run every seed until its policy stops or ``horizon`` rounds pass; ``monitor(t, policy, active)`` each round."""
    seeds = np.asarray(seeds, dtype=np.int64)
    n = seeds.size
    streams = SeedStreams(paper, experiment, seeds, "environment", block)
    policy.reset(n, env.n_arms, lambda name: SeedStreams(paper, experiment, seeds, f"policy/{name}", block))
    active = np.arange(n)
    samples = np.full(n, horizon, dtype=np.int64)
    recommended = np.full(n, -1, dtype=np.int64)
    censored = np.ones(n, dtype=bool)
    diagnostics: dict = {}

    def record(stopped, rows):
        recommended[rows] = policy.recommend()[stopped]
        for key, value in getattr(policy, "diagnostics", dict)().items():
            diagnostics.setdefault(key, np.zeros(n, dtype=value.dtype))[rows] = value[stopped]

    for t in range(1, horizon + 1):
        noise = streams.uniform(env.noise_width)[active]
        contexts = env.contexts(t, noise)
        arms = policy.select(t, contexts)
        rewards, values = env.pull(t, contexts, arms, noise)
        policy.update(Feedback(arms, rewards, contexts, values))
        if monitor is not None:
            monitor(t, policy, active)
        stopped = policy.done()
        if stopped.any():
            rows = active[stopped]
            samples[rows], censored[rows] = t, False
            record(stopped, rows)
            policy.retain(~stopped)
            active = active[~stopped]
        if not active.size:
            break
    if active.size:
        record(np.ones(active.size, dtype=bool), active)
    return Stopping(seeds, samples, recommended, censored, diagnostics)
