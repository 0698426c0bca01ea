"""The run stage of cpe: one seed chunk of one (instance config, strategy, algorithm) on the engine.

The job reads the instance document, builds the policy (constants from the strategy's profile and
α_O; the parallel bandit's budget from its strategy) and the environment, and records, besides the
engine's stopping summary, the stopping diagnostics, the recommendation at every sample checkpoint,
a regret trace on the checkpoint grid and, for E0, whether any confidence interval excluded a true
mean. Fixed-confidence runs stop on their own or are censored at the sample cap; the parallel
bandit runs to its budget. Its nine budgets of one config and chunk are one job (rule ``cpe_run_budgets``, a
:class:`causal_bandits.runs.RunBatch`): the smallest budgets' runs take a few hundredths of a second, beside a
process's 0.8 CPU-s start-up (docs/performance.md#cpe-parallel-bandit-batches).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from causal_bandits import algorithms, runs, store
from causal_bandits.bandits.engine import Recorder
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers.cpe import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.cpe import design
from causal_bandits.papers.cpe.design import Job
from causal_bandits.papers.cpe.environment import CPEEnvironment
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.recorders import IntervalCoverage, RecommendationTrace, StoppingDiagnostics, checkpoints

PAPER = "cpe"


def policy(job: Job, instance: CPEInstance, *, delta: float, epsilon: float):
    """The job's policy on ``instance``."""
    cls = runs.policy_class(algorithms.registry(PAPER)[job.algorithm].path)
    if job.algorithm == design.BUDGETED:
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


def chunks(config: Mapping[str, Any], job: Job) -> runs.Chunks:
    """Seed chunks of a design job's runs (speed only: a seed's streams do not depend on its chunk)."""
    return runs.chunk_seeds(job.n_seeds, config["seeds_per_job"])


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job: each design job of the experiments this config runs, each chunk; the
    fixed-budget algorithm's budgets of one config and chunk once, without a strategy (a batch: :func:`describe`)."""
    section = config["cpe"]
    chosen = design.experiments_run(section)
    later_budgets = set(design.budget_strategies(section)[1:])  # a batch once, at its first budget
    for job in design.jobs(section):
        if job.experiment in chosen and job.strategy not in later_budgets:
            for k in range(len(chunks(config, job))):
                strategy = {} if job.budget is not None else {"strategy": job.strategy}
                yield {"experiment": job.key, **strategy, "algorithm": job.algorithm, "chunk": str(k)}


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob | runs.RunBatch:
    """A run job (rule ``cpe_run``): the design's job at the wildcards' coordinates
    (:func:`causal_bandits.papers.cpe.design.job`), its seeds in chunks, capped at its budget or the
    section's sample cap. Without a strategy (rule ``cpe_run_budgets``), the batch of the fixed-budget algorithm's
    jobs at every budget, one after another in one process, with the batch's measured peak."""
    if "strategy" not in wildcards:
        strategies = design.budget_strategies(config["cpe"])
        batch = tuple(_job(config, {**wildcards, "strategy": s}) for s in strategies)
        return runs.RunBatch(batch, runs.memory_request(runs.measured_peak(PAPER, wildcards)))
    return _job(config, wildcards)


def _job(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    section = config["cpe"]
    job = design.job(section, wildcards["experiment"], wildcards["strategy"], wildcards["algorithm"])
    science = {
        "job": job.__dict__,
        "epsilon": design.epsilon(section, job.experiment, job.config),
        "delta": section["delta"],
        "horizon": section["horizon"],
        "checkpoint_first": section["checkpoint_first"],
    }
    seeds = chunks(config, job)[int(wildcards["chunk"])]
    return runs.RunJob(
        paper=PAPER,
        experiment=job.key,
        strategy=job.strategy,
        algorithm=job.algorithm,
        seeds=seeds,
        science=science,
        horizon=int(science["job"]["budget"] or science["horizon"]),  # the design job's budget, else the cap
        runner=PAPER,
        memory_mb=runs.memory_request(runs.measured_peak(PAPER, wildcards)),
    )


def simulation(job: runs.RunJob, inputs: Mapping[str, str]) -> runs.Simulation:
    """The design job's policy on the ``instance`` document's environment, recording the stopping diagnostics,
    the recommendation and the regret at the sample checkpoints and, for E0, interval coverage."""
    science = job.science
    design_job = design.Job(**science["job"])
    instance = CPEInstance.from_document(store.read_json(inputs["instance"]))
    grid = checkpoints(job.horizon, first=min(science["checkpoint_first"], job.horizon))
    recorders: list[Recorder] = [RegretTrace(grid), StoppingDiagnostics(), RecommendationTrace(grid)]
    if design_job.coverage:
        recorders.append(IntervalCoverage())
    return runs.Simulation(
        policy(design_job, instance, delta=science["delta"], epsilon=science["epsilon"]),
        CPEEnvironment(instance),
        recorders,
    )
