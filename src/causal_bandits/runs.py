"""One job of the run stage, for every paper, study and own experiment: simulate a seed chunk and store it.

One interface for all of them. A run job is described whole by a :class:`RunJob` (where it sits in
the run store, its seeds, horizon, what its results depend on, the runner that builds it), made
once per job in the library by the ``describe(config, wildcards)`` function of the run module that
owns it, from the config section and the job's wildcards. The workflow passes it to one script
(``workflow/scripts/run.py``), which calls :func:`execute`: the runner's ``simulation(job, inputs)``
builds the policy, the environment and the recorders (a :class:`Simulation`) from the job's input
files; all seeds of the chunk then run at once (:func:`causal_bandits.bandits.engine.simulate`), and
the job logs its progress and writes the trace and the
per-seed summary to the run store (``results/runs/<paper>/<experiment>/<strategy>/<algorithm>/
chunk-<k>.parquet`` and ``.summary.parquet``). Seeds are cut into chunks by :func:`chunk_seeds`.

Where a job's simulation is short beside a process's start-up (about 0.8 CPU-s: numpy, numba and its compiled
kernels' target, pyarrow, the package), a run module may describe a :class:`RunBatch` instead: several run jobs that
differ in one coordinate (cpe's parallel bandit, its nine budgets), executed one after another in one process, each
written to its own files exactly as it would be alone (:func:`execute_batch`).
"""

from __future__ import annotations

import importlib
import logging
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, overload

import numpy as np

from causal_bandits import papers, store, yaml_io
from causal_bandits.bandits.engine import Environment, Policy, Recorder, Run, StoppingPolicy, Streams, simulate
from causal_bandits.errors import CausalBanditsError
from causal_bandits.logs import since_process_start

log = logging.getLogger(__name__)

#: The margin of every memory request over a measured peak, stated once: 15 %.
MEMORY_MARGIN = 1.15
#: The measured peaks of the run jobs (MB), one figure per kind of job (its wildcards but its chunk), from an archived
#: paper-scale run's manifest (``python benchmarks/resources.py --write-peaks``). What a job reserves, not what it
#: computes: package data beside this module (shipped in the wheel, read by the workflow from here), not a module, so
#: the archive's code record leaves it out and a refit to a remade run lands without another remake and reruns
#: nothing (docs/performance.md#memory-requests).
PEAKS_FILE = Path(__file__).with_name("run_peaks.yaml")
#: The figure of a job that no measured kind resembles (a new paper, until an archived run measures its jobs): the
#: largest peak of the papers' run jobs other than POMIS+'s, whose state grows with their seeds (unknown_graph's
#: when it was measured: 354.5 MB): the process (Python, numpy, pyarrow, numba, the package) and state.
PROCESS_MB = 354.5
#: The coordinates a kind of run job is named by in :data:`PEAKS_FILE`, joined by "/".
KIND = ("experiment", "strategy", "algorithm")
#: A batch's kind in place of the coordinate its jobs differ in (:class:`RunBatch`): ``E2-d0.05/*/pb``.
EVERY = "*"
#: The run modules beyond the papers' (a kind of own experiment that plays a paper's algorithms on a researcher's
#: model), by the key a job's ``runner`` names them by; a paper's run module is its package's ``runs``.
OWN_RUNNERS = {"pure_exploration": "causal_bandits.experiments.cpe"}


def runner(key: str) -> ModuleType:
    """The run module a job's ``runner`` names: :data:`OWN_RUNNERS`, else the registered paper ``key``'s
    (:attr:`causal_bandits.papers.Paper.runs`). Its ``simulation(job, inputs)`` builds the job."""
    return importlib.import_module(OWN_RUNNERS.get(key) or papers.paper(key).runs)


def kind(wildcards: Mapping[str, str]) -> tuple[str, ...]:
    """The kind of the run job (or batch) at ``wildcards``: its :data:`KIND` coordinates, :data:`EVERY` for one a
    batch's jobs differ in (its rule has no such wildcard)."""
    return tuple(wildcards.get(name, EVERY) for name in KIND)


@cache
def measured_peaks() -> dict[str, dict[str, float]]:
    """Paper -> kind (``experiment/strategy/algorithm``) -> the kind's measured peak (MB), from :data:`PEAKS_FILE`."""
    try:
        table = yaml_io.load(PEAKS_FILE.read_text())
    except FileNotFoundError:
        raise CausalBanditsError(
            f"{PEAKS_FILE} is missing: restore it (git checkout -- src/causal_bandits/{PEAKS_FILE.name}) or write it "
            "from an archive (python benchmarks/resources.py --write-peaks)"
        ) from None
    return {paper: {kind: float(mb) for kind, mb in kinds.items()} for paper, kinds in table["peaks"].items()}


def measured_peak(paper: str, wildcards: Mapping[str, str]) -> float:
    """The measured peak (MB) of ``paper``'s run jobs of the kind of ``wildcards`` (:data:`KIND`). A kind not measured
    (a study's instance, an own experiment, a horizon the paper's config does not run) gets the largest figure of the
    measured kinds most like it: the same strategy and algorithm, else the same strategy, else the paper's; a paper
    not measured gets :data:`PROCESS_MB`."""
    kinds = measured_peaks().get(paper, {})
    this = kind(wildcards)
    if (key := "/".join(this)) in kinds:
        return kinds[key]
    named = {tuple(name.split("/")): mb for name, mb in kinds.items()}
    for alike in (lambda k: k[1:] == this[1:], lambda k: k[1] == this[1], lambda k: True):
        figures = [mb for k, mb in named.items() if alike(k)]
        if figures:
            return max(figures)
    return PROCESS_MB


def memory_request(peak_mb: float, base_mb: float | None = None, growth: float = 1.0) -> int:
    """A job's memory request (MB): :data:`MEMORY_MARGIN` over its measured peak ``peak_mb`` (:func:`measured_peak`);
    for a job whose state grows (POMIS+'s bootstrap replicates with its seeds and B), over ``base_mb`` (the process
    without that state) plus the peak's excess over it times ``growth`` (the job's state over the measured job's)."""
    base = peak_mb if base_mb is None else base_mb
    return math.ceil(MEMORY_MARGIN * (base + (peak_mb - base) * growth))


@dataclass(frozen=True)
class RunJob:
    """One run job, whole: its run-store coordinates, its seeds, and what its results depend on.

    ``paper``, ``experiment``, ``strategy`` and ``algorithm`` are the coordinates its files carry and its
    random streams are keyed by (``paper``, ``experiment``; a study reruns a paper's experiment under the
    paper's key, so its seeds pair with the main run's). ``science`` is everything else the results depend
    on, the provenance hash's input (:func:`causal_bandits.store.provenance`). ``horizon`` is the rounds the job
    plays (a cap, where its seeds stop on their own), computed once by the describing module from the config it
    read. ``runner`` names the run module whose ``simulation(job, inputs)`` builds the job (:func:`runner`: a
    paper's key, or an own experiment's kind); ``policy`` the key, in the runner's algorithm registry
    (:mod:`causal_bandits.algorithms`), of the entry that plays, where the describing module chose it (empty where
    the runner does); ``memory_mb`` the job's memory request.
    """

    paper: str
    experiment: str
    strategy: str
    algorithm: str
    seeds: range
    science: Mapping[str, Any]
    horizon: int
    runner: str
    policy: str = ""
    memory_mb: int = field(default=500, compare=False)

    def fields(self) -> dict[str, Any]:
        """The job as the workflow passes it to its script, ``RunJob(**fields)`` again: builtin types only, which
        Snakemake records with the job's outputs, so a job whose description changed (a horizon, a setting) is
        run again (its ``params`` rerun trigger ignores objects it cannot represent). Without ``memory_mb``, what
        the scheduler reserves rather than what the job computes: a new memory request reruns nothing."""
        fields = asdict(self)
        del fields["memory_mb"]
        return fields


@dataclass(frozen=True)
class RunBatch:
    """Run jobs executed one after another in one process (:func:`execute_batch`), each writing its own files, as
    if alone: a process's start-up paid once for all of them. ``memory_mb`` is the batch's request (its kind's
    measured peak, :func:`measured_peak` of the batch's wildcards); the jobs' own are not used."""

    jobs: tuple[RunJob, ...]
    memory_mb: int = field(default=500, compare=False)

    def fields(self) -> list[dict[str, Any]]:
        """The jobs as the workflow passes them to its script (:meth:`RunJob.fields` each)."""
        return [job.fields() for job in self.jobs]


@dataclass
class Simulation:
    """What a run module's ``simulation(job, inputs)`` builds for :func:`execute`: the policy, the environment
    and the recorders, and, where a paper needs them, the arm ids of the environment's arms (``arm_ids``), the
    experiment whose streams it shares (``streams_key``), the summary columns its recorders add (``declared``)
    and metadata beyond the provenance (``metadata``)."""

    policy: Policy
    env: Environment
    recorders: Sequence[Recorder]
    arm_ids: np.ndarray | None = None
    streams_key: str | None = None
    declared: Sequence[str] = ()
    metadata: Mapping[str, str] = field(default_factory=dict)


def policy_class(path: str) -> type[Any]:
    """The policy class at dotted ``path`` (``causal_bandits.bandits.klucb.KLUCB``), imported on demand.

    Paper registries name their algorithms' classes by path, so a job imports only the algorithm it
    runs (start-up time, and the files it depends on: :mod:`causal_bandits.sources`).
    """
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


class ProgressLog:
    """How far a long job has got, logged at most once per ``every`` seconds of wall time (a job
    shorter than that logs nothing more): the round, the share of the horizon played, the time so
    far and, unless the seeds stop on their own before the horizon (``stopping``), a linear estimate
    of the time left. Passed to :func:`~causal_bandits.bandits.engine.simulate` as ``progress``; it
    reads nothing but ``t`` and the clock, so the run's numbers never depend on it.
    """

    def __init__(
        self, label: str, horizon: int, *, stopping: bool = False, every: float = 60.0, clock=time.perf_counter
    ):
        self.label, self.horizon, self.stopping, self.every, self.clock = label, horizon, stopping, every, clock
        self.start = clock()
        self.due = self.start + every

    def __call__(self, t: int) -> None:
        now = self.clock()
        if now < self.due:
            return
        self.due = now + self.every
        share, elapsed = (t - 1) / self.horizon, now - self.start
        left = "" if self.stopping or share <= 0 else f", about {elapsed * (1 - share) / share:.0f} s left"
        log.info(
            "%s: round %d of %d (%.0f %%), %.0f s so far%s", self.label, t, self.horizon, 100 * share, elapsed, left
        )


@dataclass(frozen=True)
class Chunks(Sequence[range]):
    """Seeds 0..n-1 cut into consecutive chunks of ``size`` (the last may be shorter), each computed when asked
    for: planning a run of a million seeds in chunks of one builds no list of a million ranges per job."""

    n_seeds: int
    size: int

    def __len__(self) -> int:
        return -(-self.n_seeds // self.size)

    @overload
    def __getitem__(self, k: int) -> range: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[range]: ...

    def __getitem__(self, k: int | slice) -> range | Sequence[range]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not -len(self) <= k < len(self):
            raise IndexError(f"chunk {k} of {len(self)}")
        start = (k % len(self)) * self.size
        return range(start, min(start + self.size, self.n_seeds))


def chunk_seeds(n_seeds: int, seeds_per_job: int) -> Chunks:
    """Seeds 0..n-1 cut into consecutive chunks of ``seeds_per_job`` (the last may be shorter)."""
    return Chunks(n_seeds, seeds_per_job)


def execute_batch(
    described: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    inputs: Mapping[str, str],
    trace_paths: str | Sequence[str],
    summary_paths: str | Sequence[str],
) -> None:
    """Run the job or the batch the workflow passes (``described``: :meth:`RunJob.fields`, or
    :meth:`RunBatch.fields`, then each job's file paths in the same order), each job on its own (:func:`execute`)."""
    if isinstance(described, Mapping):
        described, trace_paths, summary_paths = [described], [str(trace_paths)], [str(summary_paths)]
    for k, (fields, trace, summary) in enumerate(zip(described, trace_paths, summary_paths, strict=True)):
        execute(RunJob(**fields), inputs, trace, summary, first=k == 0)


def execute(job: RunJob, inputs: Mapping[str, str], trace_path: str, summary_path: str, *, first: bool = True) -> Run:
    """Run ``job`` and write its trace and summary atomically; returns the run.

    Its runner's ``simulation(job, inputs)`` (``inputs``: the job's input files by name) gives the policy,
    the environment and the recorders; all seeds of the chunk run at once on the engine, with the random
    streams keyed by (paper, experiment), or by the simulation's ``streams_key`` where an experiment shares
    another's streams (common random numbers across experiments). Arms are reported by the simulation's
    ``arm_ids`` where a strategy plays a subset of the experiment's arms. The files' metadata are the
    provenance of ``job.science``, the simulation's metadata, then the job's coordinates. The process's start-up
    is logged where the job is its ``first``.
    """
    sim = runner(job.runner).simulation(job, inputs)
    seeds = np.asarray(job.seeds, dtype=np.int64)
    if first:  # a batch's first job: the others start in a process already up
        wall, cpu = since_process_start()
        log.info("start-up: %.2f s wall, %.2f s CPU from process start to the first round", wall, cpu)
    label = f"{job.paper}/{job.experiment}/{job.strategy}/{job.algorithm} seeds {seeds[0]}..{seeds[-1]}"
    progress = ProgressLog(label, job.horizon, stopping=isinstance(sim.policy, StoppingPolicy))
    streams = Streams(job.paper, sim.streams_key or job.experiment, seeds)
    run = simulate(sim.policy, sim.env, streams, job.horizon, sim.recorders, progress=progress)
    _log_done(label, run, job.horizon, time.perf_counter() - progress.start)
    if sim.arm_ids is not None and "arm" in run.trace:
        arm = run.trace["arm"]
        run.trace["arm"] = np.where(arm >= 0, sim.arm_ids[np.maximum(arm, 0)], -1).astype(np.int32)
    coordinates = {
        "paper": job.paper,
        "experiment": job.experiment,
        "strategy": job.strategy,
        "algorithm": job.algorithm,
        "horizon": str(job.horizon),
        "seeds": f"{seeds[0]}-{seeds[-1]}",
    }
    metadata = {**store.provenance(job.science), **sim.metadata, **coordinates}
    store.write_run(trace_path, summary_path, run, metadata, paper=job.paper, declared=sim.declared)
    return run


def _log_done(label: str, run: Run, horizon: int, elapsed: float) -> None:
    """One line at the end of a job: rounds, time, speed and the mean final regret where the run records it."""
    final = run.summary.get("final_regret")
    log.info(
        "%s: %d rounds in %.1f s (%.0f seed-rounds/s)%s",
        label,
        horizon,
        elapsed,
        run.seeds.size * horizon / max(elapsed, 1e-9),
        "" if final is None else f", mean final regret {final.mean():.2f}",
    )
