"""The run stage of cpe: one seed chunk of one (instance config, strategy, algorithm) on the engine.

The job reads the instance document, builds the policy (constants from the strategy's profile and
α_O; the parallel bandit's budget from its strategy) and the environment, and records, besides the
engine's stopping summary, the stopping diagnostics, the recommendation at every sample checkpoint,
a regret trace on the checkpoint grid and, for E0, whether any confidence interval excluded a true
mean. Fixed-confidence runs stop on their own or are censored at the sample cap; the parallel
bandit runs to its budget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from causal_bandits import algorithms, runs
from causal_bandits.bandits.engine import Recorder
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers.cpe import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.cpe.design import Job
from causal_bandits.papers.cpe.environment import CPEEnvironment
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.recorders import IntervalCoverage, RecommendationTrace, StoppingDiagnostics, checkpoints

PAPER = "cpe"


def policy(job: Job, instance: CPEInstance, *, delta: float, epsilon: float):
    """The job's policy on ``instance``."""
    cls = runs.policy_class(algorithms.registry(PAPER)[job.algorithm].path)
    if job.algorithm == "pb":
        return cls(instance.policy_arms(), budget=job.budget)
    settings: dict[str, Any] = {"delta": delta, "epsilon": epsilon, "profile": job.profile}
    if job.alpha_O is not None:
        settings["alpha_O"] = job.alpha_O
    if job.algorithm == "ccpe_general":
        return cls(instance.policy_arms(), instance.policy_sequences(), **settings)
    if job.algorithm == "ccpe_bglm":
        return cls(
            instance.policy_arms(), instance.bglm_structure(), kappa=instance.kappa, eta=instance.eta, **settings
        )
    if job.algorithm == "naive":
        return cls(instance.policy_arms(), **settings)
    if job.algorithm == "lucb1":
        settings["radius"] = "kk12"
    return cls(**settings)


def run_chunk(
    instance_doc: Mapping[str, Any],
    job: Job,
    *,
    delta: float,
    epsilon: float,
    seeds: Sequence[int],
    horizon: int,
    checkpoint_first: int,
    trace_path: str,
    summary_path: str,
    metadata: Mapping[str, str],
) -> None:
    """Simulate one chunk and write its trace and summary Parquet files atomically."""
    instance = CPEInstance.from_document(instance_doc)
    cap = job.budget or horizon
    grid = checkpoints(cap, first=min(checkpoint_first, cap))
    recorders: list[Recorder] = [RegretTrace(grid), StoppingDiagnostics(), RecommendationTrace(grid)]
    if job.coverage:
        recorders.append(IntervalCoverage())
    runs.run_chunk(
        policy(job, instance, delta=delta, epsilon=epsilon),
        CPEEnvironment(instance),
        recorders,
        paper=PAPER,
        experiment=job.key,
        strategy=job.strategy,
        algorithm=job.algorithm,
        seeds=seeds,
        horizon=cap,
        trace_path=trace_path,
        summary_path=summary_path,
        metadata=metadata,
    )
