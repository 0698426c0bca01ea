"""What a run will cost, from its config alone, before any job is planned: CPU-hours and the largest job's memory.

Every run job of every configured paper, study and own experiment is described
(:class:`causal_bandits.runs.RunJob`, by the ``run_jobs`` and ``describe`` of the module that owns it) and
costed with a coarse model calibrated on the paper-scale run: a start-up per job, plus its seeds x rounds
times a cost per seed-round (:data:`PER_SEED_ROUND`); cpe's runs stop on their own, so they cost per seed. The
jobs that are not runs (instances, aggregates, figures, claims, CN-UCB's discovery) are a measured share of
each paper's runs (:data:`OTHER_SHARE`). The model is good to within a factor of about 2 at the scales the package
ships; its purpose is to stop a run that is orders of magnitude beyond what the machine or the user meant,
with one line, before Snakemake spends minutes building its DAG.

The check (:func:`check`) refuses a config whose largest job requests more memory than the machine has (the
memory request the scheduler uses, :attr:`RunJob.memory_mb`), or whose estimate exceeds ``budget.cpu_hours``;
raising that key (or setting it to null) is the explicit override. A run of more than :data:`MAX_JOBS` run jobs
is refused while it is being counted, whatever the budget.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from causal_bandits.errors import ConfigError
from causal_bandits.experiments import pure_exploration
from causal_bandits.experiments import runs as experiment_runs
from causal_bandits.papers import PAPERS, paper
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.runs import RunJob

#: CPU seconds a run job costs beyond its simulation: Snakemake's job start and Python's imports
#: (benchmarks/wall_time.py's MODEL, "a job's parse 2.2 s + start-up 1.2 s").
START_UP_S = 3.4
#: CPU seconds per seed-round of a run job, by paper (and for nonmanip's runner by strategy and graph),
#: from the archived paper-scale run (``archive/paper-scale/manifest.json``, each job's exact CPU) over its
#: seeds x rounds: nonmanip's baselines 92 CPU-s over 1.8e8 seed-rounds; POMIS+ per graph from the Figure 5 jobs
#: at T = 10,000 (Fig. 5d 602 CPU-s, Fig. 2a 362, front-door 138, over 2.0e7 seed-rounds each); unknown_graph's
#: V1-V4 runs 1,776 CPU-s over 1.8e9; bounds and fairness from earlier paper-scale runs (0.08 CPU-h over 2.4e7,
#: 0.03 over 3.8e5: upper bounds of the archived run's 60 and 38 CPU-s).
PER_SEED_ROUND = {
    "nonmanip": 5.1e-7,
    "POMISplus/frontdoor": 6.9e-6,
    "POMISplus/fig2a": 1.8e-5,
    "POMISplus/fig5d": 3.0e-5,  # also any other graph: the largest catalogue measured
    "bounds": 7e-6,
    "fairness": 1e-5,
    "unknown_graph": 1.0e-6,
}
#: The most run jobs a run may plan: Snakemake needs about 3 ms of CPU per job to plan (docs/performance.md), so
#: 100,000 jobs already take minutes before the first one starts.
MAX_JOBS = 100_000
#: POMIS+ under the paper's every-round bootstrap (the refresh study) against the adaptive schedule: the spot
#: check measured 2.28 CPU-h for 50 seeds of the three panels and both solvers, 36 times the adaptive run's
#: cost for the same seeds; the bit-identical speed-up helped the every-round path a little more.
EVERY_ROUND = 30.0
#: cpe's runs stop on their own well before the sample cap: the archived run's 338 jobs, 0.79 CPU-h, 32,260 seeds.
CPE_PER_SEED_S = 0.09
#: The CPU of each paper's jobs other than its runs, as a share of its runs' CPU, measured at paper scale
#: (benchmarks/wall_time.py's MODEL): nonmanip 0.05 of 0.95 CPU-h, bounds 0.03 of 0.06, fairness 0.03 of 0.015,
#: cpe 0.28 of 1.02, unknown_graph about 0.4 of 1.32 (the lower-bound families 0.13, half of CN-UCB's discovery
#: jobs 0.09, the readings 0.03, measured; the heavier half of the discovery jobs projected at twice that).
OTHER_SHARE = {"nonmanip": 0.05, "bounds": 0.5, "fairness": 2.0, "cpe": 0.27, "unknown_graph": 0.3}


@dataclass(frozen=True)
class Estimate:
    """A run's estimated cost: CPU-hours per part (paper, study or ``experiments``), run jobs, the largest
    job's memory request (MB) and where it is."""

    cpu_hours: dict[str, float]
    jobs: int
    largest_mb: int
    largest: str

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


def _seconds(job: RunJob) -> float:
    """The model's CPU seconds of one run job."""
    if job.paper in ("cpe", pure_exploration.KEY):  # cpe's algorithms, on the paper's instances or an own graph
        return START_UP_S + CPE_PER_SEED_S * len(job.seeds)
    if job.strategy == POMIS_PLUS:
        graph = job.science.get("panel", {}).get("graph", "fig5d")
        rate = PER_SEED_ROUND.get(f"POMISplus/{graph}", PER_SEED_ROUND["POMISplus/fig5d"])
        if job.science.get("pomis_plus", {}).get("refresh") == "every_round":
            rate *= EVERY_ROUND
    else:
        rate = PER_SEED_ROUND.get(job.paper, PER_SEED_ROUND["nonmanip"])
    return START_UP_S + rate * len(job.seeds) * job.horizon


def estimate(config: Mapping[str, Any]) -> Estimate:
    """The estimated cost of a validated config (:func:`causal_bandits.config.check`)."""
    hours: dict[str, float] = {}
    jobs, largest_mb, largest = 0, 0, "none"
    for part, describe, wildcards in _owners(config):
        hours[part] = 0.0
        for wc in wildcards:
            job = describe(config, wc)
            hours[part] += _seconds(job) / 3600
            jobs += 1
            if jobs > MAX_JOBS:
                raise ConfigError(
                    f"the run would plan more than {MAX_JOBS:,} run jobs ({part}: {len(job.seeds)} seeds per job), "
                    "more than Snakemake can plan in reasonable time; raise that section's seeds_per_job"
                )
            if job.memory_mb > largest_mb:
                largest_mb = job.memory_mb
                largest = f"{part}: {job.experiment}/{job.strategy}/{job.algorithm}, {len(job.seeds)} seeds"
        hours[part] *= 1 + OTHER_SHARE.get(part, 0.0)
    return Estimate(hours, jobs, largest_mb, largest)


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
