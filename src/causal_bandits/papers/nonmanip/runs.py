"""The run stage of Lee & Bareinboim (AAAI-19): one seed chunk of one (panel, arm set, solver).

The job reads the panel's instance document (the diagram, the SCM and the arm lists written by the
instance stage), plays the strategy's arms with the solver, and stores the run. Arms are reported
by their index in the panel's full (brute-force) arm list, so runs of different arm sets compare.
Run jobs take exact means from the instance and never import pgmpy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from causal_bandits import runs
from causal_bandits.bandits.engine import linear_grid
from causal_bandits.bandits.environments import InterventionArms
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

PAPER = "nonmanip"
#: The solvers of §5: names used in configs and run paths -> policy classes (dotted paths).
ALGORITHMS = {"TS": "causal_bandits.bandits.thompson.ThompsonSampling", "KLUCB": "causal_bandits.bandits.klucb.KLUCB"}


def environment(instance: Mapping[str, Any], strategy: str) -> tuple[InterventionArms, np.ndarray]:
    """The strategy's arms as an environment (exact means from the instance), and their ids."""
    diagram = CausalDiagram.from_dict(instance["graph"])
    scm = XorBernoulliSCM(diagram, instance["scm"]["q"], instance["scm"]["c"])
    ids = np.asarray(instance["arm_lists"][strategy], dtype=np.int64)
    arms = tuple(instance["arms"][i]["values"] for i in ids)
    means = np.array([instance["arms"][i]["mu"] for i in ids])
    return InterventionArms(scm, instance["reward"], arms, means), ids


def run_chunk(instance: Mapping[str, Any], *, strategy: str, algorithm: str, seeds: Sequence[int], horizon: int,
              record_points: int, trace_path: str, summary_path: str, metadata: Mapping[str, str]) -> None:
    """Simulate one chunk and write its trace and summary Parquet files atomically."""
    env, ids = environment(instance, strategy)
    runs.run_chunk(runs.policy_class(ALGORITHMS[algorithm])(), env, [RegretTrace(linear_grid(horizon, record_points))], paper=PAPER,
                   experiment=instance["experiment"], strategy=strategy, algorithm=algorithm, seeds=seeds,
                   horizon=horizon, trace_path=trace_path, summary_path=summary_path, metadata=metadata,
                   arm_ids=ids)
