"""Test helper: run a policy on the engine with a regret recorder and read the trace as arrays."""

from __future__ import annotations

import dataclasses

import numpy as np

from causal_bandits.bandits.engine import Run, Streams, linear_grid, simulate
from causal_bandits.bandits.recorders import RegretTrace


@dataclasses.dataclass
class Trace:
    """A run's regret trace as arrays (n_seeds, n_grid), with the seeds and the per-seed optimal fraction."""

    seeds: np.ndarray
    rounds: np.ndarray
    cum_regret: np.ndarray
    cum_realized_regret: np.ndarray
    arm: np.ndarray
    optimal: np.ndarray
    optimal_fraction: np.ndarray


def simulate_trace(
    policy, env, seeds, horizon, grid=None, *, paper="test", experiment="bandits", block=4096, recorders=()
) -> tuple[Run, Trace]:
    """The engine with a :class:`RegretTrace` (every round unless ``grid``); the raw Run and its Trace."""
    grid = linear_grid(horizon, horizon) if grid is None else np.asarray(grid)
    run = simulate(
        policy, env, Streams(paper, experiment, np.asarray(seeds), block), horizon, [RegretTrace(grid), *recorders]
    )
    return run, Trace(run.seeds, run.rounds, **run.trace, optimal_fraction=run.summary["optimal_fraction"])


class FairnessRounds:
    """Test recorder: every round's arm, reward and regret, the auditor's UCB_Delta of the chosen arm
    and its minimum over arms, and F-UCB's ``certified`` flag (arrays (n_seeds, horizon) after the run)."""

    def __init__(self, auditor):
        self.auditor = auditor

    def start(self, seeds, horizon, env, policy):
        self.auditor.start(seeds, horizon, env, policy)
        self.policy, self.rows = policy, []

    def record(self, step):
        from causal_bandits.bandits.certificate import certificate

        fb, a = step.feedback, self.auditor
        _, ucb = certificate(a.model, a.estimator, fb.contexts, step.t, a.alpha_c)
        self.rows.append(
            {
                "arms": fb.arms,
                "rewards": fb.rewards,
                "regret": step.gap,
                "ucb_delta": ucb[np.arange(fb.arms.size), fb.arms],
                "min_ucb_delta": ucb.min(axis=1),
                "certified": getattr(self.policy, "certified", np.ones(fb.arms.size, dtype=bool)).copy(),
            }
        )
        a.record(step)

    def finish(self):
        for key in self.rows[0]:
            setattr(self, key, np.stack([r[key] for r in self.rows], axis=1))
        return None, {}, {}
