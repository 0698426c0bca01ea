"""What a run will cost, from its config alone, before any job is planned: CPU-hours and the largest job's memory.

Every run job of every configured paper, study and own experiment is described (:class:`causal_bandits.runs.RunJob`,
by the ``run_jobs`` and ``describe`` of the module that owns it) and costed with a coarse model calibrated on the
paper-scale run: a start-up per job (one for a batch's jobs, :class:`causal_bandits.runs.RunBatch`), plus the
simulation's CPU as the paper whose runner builds the job declares it beside its config checks
(``papers/<key>/config.py``: ``cpu_seconds(job)``, per seed-round, or per seed where the runs stop on their own; a
study or an own experiment is costed by the runner it uses). The jobs that are not runs (instances, aggregates,
figures, claims, CN-UCB's discovery) are a measured share of each paper's runs (``OTHER_SHARE`` there). The constants
are fitted to the archived paper-scale run (``benchmarks/cost_model.py`` prints the fit; :func:`measured` gives its CPU
per paper); the model is good to within a factor of 2 per paper there (a test holds it to that). Its purpose is to stop
a run that is orders of magnitude beyond what the machine or the user meant, with one line, before Snakemake spends
minutes building its DAG.

The check (:func:`check`) refuses a config whose largest job requests more memory than the machine has (the
memory request the scheduler uses, :attr:`RunJob.memory_mb`), or whose estimate exceeds ``budget.cpu_hours``;
raising that key (or setting it to null) is the explicit override. A run of more than :data:`MAX_JOBS` run jobs
is refused while it is being counted, whatever the budget.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from causal_bandits import algorithms
from causal_bandits.errors import ConfigError
from causal_bandits.experiments import pure_exploration, pure_exploration_keys
from causal_bandits.experiments import runs as experiment_runs
from causal_bandits.papers import PAPERS, paper
from causal_bandits.runs import EVERY, RunBatch, RunJob

#: CPU seconds a run job costs beyond its simulation: the process's start (Python, numpy, numba, pyarrow, the package)
#: and writing its files. In an archived paper-scale run (archive/paper-scale, when this was fitted) its cheapest run
#: jobs cost 0.9-1.3 CPU-s in all, of which 0.3-0.8 s before the first round (benchmarks/job_costs.py).
START_UP_S = 1.0
#: The most run jobs a run may plan: Snakemake needs about 3 ms of CPU per job to plan (docs/performance.md), so
#: 100,000 jobs already take minutes before the first one starts.
MAX_JOBS = 100_000
#: The paper whose cost model a runner's jobs follow, where the runner is not a paper (a job's ``runner``).
COST_MODELS = {pure_exploration_keys.RUNNER: pure_exploration_keys.COST_MODEL}


@dataclass(frozen=True)
class Estimate:
    """A run's estimated cost: CPU-hours per part (paper, study or ``experiments``), run jobs, the largest
    job's memory request (MB) and where it is, and, within a paper's part, the CPU-hours and runs of each
    algorithm a researcher added to it (``additions``, by (paper, key): an entry with ``addition=True``)."""

    cpu_hours: dict[str, float]
    jobs: int
    largest_mb: int
    largest: str
    additions: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.cpu_hours.values())

    def line(self) -> str:
        """One line for the console."""
        parts = ", ".join(f"{k} {v:.2g}" for k, v in self.cpu_hours.items())
        return (
            f"estimated cost: {self.total:.2g} CPU-h ({parts}); {self.jobs} run jobs, the largest requests "
            f"{self.largest_mb / 1024:.1f} GiB ({self.largest})"
        )


def _owners(config: Mapping[str, Any]) -> Iterator[tuple[str, Callable, Iterator[dict[str, str]]]]:
    """(part, describe, the wildcards of its run jobs) for every configured owner of run jobs."""
    for key in PAPERS:
        if key in config:
            module = importlib.import_module(paper(key).runs)
            yield key, module.describe, module.run_jobs(config)
    if config.get("experiments"):
        yield "experiments", experiment_runs.describe, experiment_runs.run_jobs(config)
    if config.get(pure_exploration.KEY):
        yield pure_exploration.KEY, pure_exploration.describe, pure_exploration.run_jobs(config)
    if config.get("studies"):
        # Late: the study records import their figure code (matplotlib, seaborn: a second and more), which a
        # papers-only parse of the workflow does not need.
        from causal_bandits import studies

        for name in studies.with_runs(config):
            module = studies.module(name)
            yield name, module.describe, module.run_jobs(config)


def run_job_counts(config: Mapping[str, Any]) -> dict[str, int]:
    """How many run jobs each part (paper, study, ``experiments``) of a validated config plans."""
    return {part: sum(1 for _ in wildcards) for part, _, wildcards in _owners(config)}


def members(described: RunJob | RunBatch) -> tuple[RunJob, ...]:
    """The run jobs a described job runs: a batch's, or the job itself."""
    return described.jobs if isinstance(described, RunBatch) else (described,)


def simulation_seconds(job: RunJob) -> float:
    """The model's CPU seconds of one run job's simulation, beyond its start-up, as the paper whose runner builds it
    declares them (:meth:`causal_bandits.papers.Paper.cpu_seconds`)."""
    return paper(COST_MODELS.get(job.runner, job.runner)).cpu_seconds(job)


def seconds(job: RunJob | RunBatch) -> float:
    """The model's CPU seconds of one run job or batch: one start-up, and its simulations."""
    return START_UP_S + sum(simulation_seconds(member) for member in members(job))


def estimate(config: Mapping[str, Any]) -> Estimate:
    """The estimated cost of a validated config (:func:`causal_bandits.config.check`)."""
    hours: dict[str, float] = {}
    additions: dict[tuple[str, str], tuple[float, int]] = {}
    jobs, largest_mb, largest = 0, 0, "none"
    for part, describe, wildcards in _owners(config):
        hours[part] = 0.0
        for wc in wildcards:
            job = describe(config, wc)
            first = members(job)[0]
            seeds = len(first.seeds)
            hours[part] += seconds(job) / 3600
            jobs += 1
            if jobs > MAX_JOBS:
                raise ConfigError(
                    f"the run would plan more than {MAX_JOBS:,} run jobs ({part}: {seeds} seeds per job), "
                    "more than Snakemake can plan in reasonable time; raise that section's seeds_per_job"
                )
            if job.memory_mb > largest_mb:
                strategy = EVERY if isinstance(job, RunBatch) else first.strategy
                largest_mb = job.memory_mb
                largest = f"{part}: {first.experiment}/{strategy}/{first.algorithm}, {seeds} seeds"
            if part in PAPERS:
                _add(additions, part, job)
        share = 1 + (paper(part).other_share if part in PAPERS else 0.0)
        hours[part] *= share
        for k, (spent, runs) in additions.items():  # an addition's share of the paper's other jobs too
            if k[0] == part:
                additions[k] = (spent * share, runs)
    return Estimate(hours, jobs, largest_mb, largest, additions)


def _add(additions: dict[tuple[str, str], tuple[float, int]], part: str, job: RunJob | RunBatch) -> None:
    """Count ``job``'s runs of algorithms added to paper ``part`` (registered with ``addition=True``) in
    ``additions``: CPU-hours (a batch's start-up shared by its members) and runs (one seed chunk each: a run job,
    or a member of a batch)."""
    found = members(job)
    for member in found:
        entry = algorithms.registry(part).get(member.algorithm)
        if entry is not None and entry.addition:
            spent, count = additions.get((part, entry.key), (0.0, 0))
            share = (START_UP_S / len(found) + simulation_seconds(member)) / 3600
            additions[(part, entry.key)] = (spent + share, count + 1)


def measured(manifest: Mapping[str, Any]) -> dict[str, float]:
    """CPU-hours per paper of an archived run (its ``manifest.json``): every job of a rule ``<paper>_...``, exact per
    job (the report's own job counts under no paper), for the papers it ran (not one registered since), in
    registry order."""
    hours: dict[str, float] = {}
    for job in manifest["jobs"]:
        key = next((k for k in PAPERS if job["rule"].startswith(f"{k}_")), None)
        if key:
            hours[key] = hours.get(key, 0.0) + job["cpu_s"] / 3600
    return {k: hours[k] for k in PAPERS if k in hours}


def machine_memory_mb() -> int:
    """The machine's physical memory in MB."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20


def check(config: Mapping[str, Any], found: Estimate | None = None) -> Estimate:
    """The estimate, or one line naming what is too large and the fix: a job that requests more memory than
    the machine has, or a run beyond ``budget.cpu_hours``."""
    found = found or estimate(config)
    memory = machine_memory_mb()
    if found.largest_mb > memory:
        raise ConfigError(
            f"a run job would request {found.largest_mb / 1024:.1f} GiB ({found.largest}), more than this "
            f"machine's {memory / 1024:.1f} GiB; lower that section's seeds_per_job (or pomis_plus.bootstrap)"
        )
    budget = config.get("budget", {}).get("cpu_hours")
    if budget is not None and found.total > budget:
        raise ConfigError(
            f"{found.line()}: more than budget.cpu_hours = {budget:g}; shrink the run (horizon, n_seeds) or "
            f"raise the budget (--config 'budget={{cpu_hours: {2 * found.total:.0f}}}')"
        )
    return found
