"""The run store checked like a repository (``causal-bandits check-store``): every file read back, every run
job's files against what the config declares.

Two passes, one line per problem, each naming the file and its fix:

* every run job the config describes (each paper's, study's and own experiment's: the enumeration the cost
  estimate reads, :mod:`causal_bandits.cost`) has its trace and summary, each a readable Parquet file (footer,
  every page against its checksum), with ``seed`` (and the trace ``round``) typed as the store writes them
  (:data:`causal_bandits.store.TRACE_FIELDS`, :data:`~causal_bandits.store.SUMMARY_FIELDS`), the job's
  coordinates and config hash in its metadata, and exactly the job's seeds;
* every other Parquet and JSON file under ``results/`` is read whole (an aggregate, a claims document, an
  instance).

A missing or damaged file's fix is to remove it and name it as a target beside the paper's or study's target
(``snakemake --cores all nonmanip results/runs/.../chunk-0.parquet``): Snakemake rebuilds it and then what reads
it, where a plain rerun would find "nothing to be done" while what was built from it exists.

:func:`repair` is the cheap pass the ``make`` targets that run the workflow run first (``check-store --before-run``):
sizes and Parquet footers of the run jobs' files only, a damaged one removed, and every run file to rebuild named
as a target, so that the run that follows rebuilds it and what reads it.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from causal_bandits import cost, store
from causal_bandits.run_paths import run_path, study_run_path
from causal_bandits.runs import RunJob
from causal_bandits.studies import STUDIES

_TYPES = {f.name: f.type for f in (*store.TRACE_FIELDS, *store.SUMMARY_FIELDS)}


@dataclass
class Report:
    """What :func:`check` found: one line per problem, and how much it read."""

    problems: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    seconds: float = 0.0

    def rate(self) -> str:
        """Files and MB read per second."""
        s = max(self.seconds, 1e-9)
        return (
            f"{self.files:,} files, {self.bytes / 1e6:.1f} MB in {self.seconds:.1f} s "
            f"({self.files / s:,.0f} files/s, {self.bytes / 1e6 / s:.1f} MB/s)"
        )


def _run_files(config: Mapping[str, Any]) -> Iterator[tuple[str, str, RunJob]]:
    """(trace path, target that makes it, job) of every run job the config describes, each job of a batch
    (:class:`causal_bandits.runs.RunBatch`: its wildcards name no strategy) on its own."""
    for part, describe, wildcards in cost._owners(config):
        template = study_run_path(part) if part in STUDIES else run_path(part)
        target = "all" if part == "experiments" else part
        for wc in wildcards:
            for job in cost.members(describe(config, wc)):
                yield template.format(**{"strategy": job.strategy, **wc}), target, job


def _schema_problem(table: pa.Table, columns: tuple[str, ...]) -> str:
    """What is wrong with a run file's columns: a required one missing, or a known one typed otherwise."""
    for name in columns:
        if name not in table.column_names:
            return f"it has no {name!r} column"
    for name in table.column_names:
        if name in _TYPES and table.schema.field(name).type != _TYPES[name]:
            return f"its column {name!r} is {table.schema.field(name).type}, not {_TYPES[name]}"
    return ""


def _job_problem(table: pa.Table, meta: Mapping[str, str], job: RunJob) -> str:
    """What in a run file (its ``table`` and ``meta``data) disagrees with the job that should have written it:
    coordinates, config hash, seeds."""
    expected = {
        "paper": job.paper,
        "experiment": job.experiment,
        "strategy": job.strategy,
        "algorithm": job.algorithm,
        "horizon": str(job.horizon),
        "config_hash": store.config_hash(job.science),
    }
    for key, value in expected.items():
        if meta.get(key) != value:
            return f"its {key} is {meta.get(key)!r}, the job's is {value!r}"
    seeds = set(table.column("seed").to_pylist())
    if seeds != set(job.seeds):
        return f"it holds seeds {sorted(seeds)[:5]}..., the job declares {job.seeds.start}..{job.seeds.stop - 1}"
    return ""


def check(config: Mapping[str, Any], configfiles: str = "", results: str = "results") -> Report:
    """Every problem of the run store under ``results`` (relative to the working directory, the workflow's) for
    ``config`` (validated); ``configfiles`` (`` --configfile ...``) goes into the fixes' commands. A missing file
    is rebuilt by naming it as a target beside the one that reads it (Snakemake otherwise finds "nothing to be
    done" while what was built from it exists)."""
    jobs = list(_run_files(config))  # first: the enumeration imports every run module (a few seconds)
    report, start, seen = Report(), time.perf_counter(), set()

    def read(path: Path, columns: tuple[str, ...] = ()) -> pa.Table:
        report.files += 1
        report.bytes += path.stat().st_size
        table = store.read_table(path)
        problem = _schema_problem(table, columns) if columns else ""  # other tables have columns of their own
        if problem:
            raise store.damaged(path, problem)
        return table

    def rebuild(path: Path, target: str = "") -> str:
        quoted = shlex.quote(str(path))
        return f"snakemake --cores all {target + ' ' if target else ''}{quoted}{configfiles}"

    for trace, target, job in jobs:
        for path, columns in ((Path(trace), ("seed", "round")), (Path(store.summary_path(trace)), ("seed",))):
            seen.add(path)
            try:
                if not path.exists():
                    report.problems.append(
                        f"{path} is missing; rebuild it and what reads it: `{rebuild(path, target)}`"
                    )
                    continue
                problem = _job_problem(read(path, columns), store.read_metadata(path), job)
                if problem:
                    raise store.damaged(path, problem)
            except store.DamagedFile as err:
                fix = f"rebuild it and what reads it: `rm {shlex.quote(str(path))} && {rebuild(path, target)}`"
                report.problems.append(str(store.damaged(path, err.problem, fix)))
    for path in sorted(Path(results).rglob("*")):
        if path in seen or path.name.startswith(".") or path.suffix not in (".parquet", ".json"):
            continue
        try:
            if path.suffix == ".json":
                report.files += 1
                report.bytes += path.stat().st_size
                store.read_json(path)
            else:
                read(path)
        except store.DamagedFile as err:
            fix = f"rebuild it: `rm {shlex.quote(str(path))} && {rebuild(path)}` (the next run redoes what reads it)"
            report.problems.append(str(store.damaged(path, err.problem, fix)))
    report.seconds = time.perf_counter() - start
    return report


def repair(config: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The run files the next run must rebuild, and one line on each: a trace or summary of a run job ``config``
    describes that is empty or whose Parquet footer does not read (removed here), or that is missing while its
    job's folder holds other chunks (deleted from a run that made it; a folder not yet made is a run not yet
    done, which Snakemake plans anyway). Cheap: no page is read (``check-store`` without ``--repair`` reads
    every one)."""
    targets, lines = [], []
    for trace, _, _ in _run_files(config):
        for path in (Path(trace), Path(store.summary_path(trace))):
            if not path.exists():
                if path.parent.is_dir() and any(path.parent.glob("chunk-*.parquet")):
                    targets.append(str(path))
                    lines.append(f"{path} is missing: rebuilding it and what reads it")
                continue
            try:
                if path.stat().st_size == 0:
                    raise store.damaged(path, "empty")
                store.read_metadata(path)
            except store.DamagedFile as err:
                path.unlink()
                targets.append(str(path))
                lines.append(f"{path} is damaged ({err.problem}): removed, rebuilding it and what reads it")
    return targets, lines
