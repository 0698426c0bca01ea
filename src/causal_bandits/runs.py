"""One job of the run stage: a seed chunk of one (experiment, arm set, algorithm), to Parquet.

The job reads the experiment's instance file (the diagram, the SCM and the arm lists written by
the instance stage), builds the environment restricted to the strategy's arms, runs the policy
for all seeds of the chunk at once and writes the trace and the per-seed summary. Arms are
reported by their index in the experiment's full (brute-force) arm list, so runs of different
arm sets are comparable.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from causal_bandits import store
from causal_bandits.bandits import ALGORITHMS
from causal_bandits.bandits.engine import linear_grid, simulate
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.xor_bernoulli import InterventionArms, XorBernoulliSCM

log = logging.getLogger(__name__)


def chunk_seeds(n_simulations: int, seeds_per_job: int) -> list[range]:
    """Seeds 0..n-1 cut into consecutive chunks of ``seeds_per_job`` (the last may be shorter)."""
    return [
        range(start, min(start + seeds_per_job, n_simulations))
        for start in range(0, n_simulations, seeds_per_job)
    ]


def environment(instance: Mapping[str, Any], strategy: str) -> tuple[InterventionArms, np.ndarray]:
    """The strategy's arms as an environment (exact means from the instance), and their ids."""
    diagram = CausalDiagram.from_dict(instance["graph"])
    scm = XorBernoulliSCM(diagram, instance["scm"]["q"], instance["scm"]["c"])
    ids = np.asarray(instance["arm_lists"][strategy], dtype=np.int64)
    arms = tuple(instance["arms"][i]["values"] for i in ids)
    means = np.array([instance["arms"][i]["mu"] for i in ids])
    return InterventionArms(scm, instance["reward"], arms, means), ids


def run_chunk(
    instance: Mapping[str, Any],
    *,
    paper: str,
    strategy: str,
    algorithm: str,
    seeds: Sequence[int],
    horizon: int,
    record_points: int,
    trace_path: str,
    summary_path: str,
    metadata: Mapping[str, str],
) -> None:
    """Simulate one chunk and write its trace and summary Parquet files atomically."""
    env, ids = environment(instance, strategy)
    start = time.perf_counter()
    trace = simulate(
        ALGORITHMS[algorithm](),
        env,
        paper=paper,
        experiment=instance["experiment"],
        seeds=seeds,
        horizon=horizon,
        grid=linear_grid(horizon, record_points),
    )
    trace.arm = ids[trace.arm].astype(np.int32)
    elapsed = time.perf_counter() - start
    log.info(
        "%s/%s/%s seeds %d..%d: %d rounds in %.1f s (%.0f seed-rounds/s), mean final regret %.2f",
        instance["experiment"], strategy, algorithm, seeds[0], seeds[-1], horizon, elapsed,
        len(seeds) * horizon / elapsed, trace.cum_regret[:, -1].mean(),
    )
    meta = {**metadata, "paper": paper, "experiment": instance["experiment"], "strategy": strategy,
            "algorithm": algorithm, "horizon": str(horizon), "seeds": f"{seeds[0]}-{seeds[-1]}"}
    store.write_table(trace_path, store.trace_table(trace), meta)
    store.write_table(summary_path, store.summary_table(trace), meta)
