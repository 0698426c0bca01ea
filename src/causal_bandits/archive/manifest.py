"""``causal-bandits archive``: the manifest of a finished run and a copy of its final artefacts.

The manifest (``manifest.json`` in the archive folder) lists every job of the run, one per line:
its rule and wildcards, its log, the outputs of other jobs it read, its CPU seconds and peak memory
(exact, from the resources line that ends its log: :func:`causal_bandits.logs.resources_line`; for a job
whose log has none, from its benchmark file with the seconds after the file's last sample,
:func:`unsampled_seconds`, whose CPU is not in it; jobs with neither: ``null``, and the wall seconds
Snakemake recorded), and
each output's path, bytes and sha256 (a Parquet file also the sha256 of its data alone, so that a
file rebuilt with another pyarrow, which stamps its version in the file, still compares). Above the
jobs: the run's provenance (:mod:`.provenance`), its totals, the files copied beside the manifest (the final
artefacts, and the intermediates the derived jobs read: :func:`.stages.intermediates`), the fingerprint of every
claim rule its verdicts were judged by (``rules``, :func:`causal_bandits.preregistration.fingerprints`: a rule
changed after the archive needs an amendment), and a digest of all of it, so that an edited line is detected. The
digest is unkeyed: it shows an archive edited by hand, not one forged together with its digest; what vouches for an
archive is the git history it was committed in.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import posixpath
import re
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from causal_bandits import logs, preregistration, store
from causal_bandits.archive import jobs as planned
from causal_bandits.archive import provenance, readings, stages
from causal_bandits.errors import CausalBanditsError, DataError

#: The manifest's format: 2 keeps the intermediates (format 1, without them, is still read: verify then rebuilds
#: only a sample).
FORMAT = 2
READABLE = (1, 2)
MANIFEST = "manifest.json"
#: The folder ``causal-bandits verify`` checks when none is named: the papers' paper-scale run.
DEFAULT_FOLDER = Path("archive/paper-scale")
#: Where the claims documents are (copied with the final artefacts: the report is made from them).
CLAIMS = "results/claims/"
#: The largest archive folder ``archive`` writes without ``--max-mb`` (it is committed to git).
MAX_MB = 30.0
#: Idle time between a run's first start and last end that the README calls pauses (hours). Wall and busy hours are
#: each rounded to 0.01 h, so a run with no pause can read 0.01 h apart (the 765-job paper-scale run: 0.2 s idle
#: in 2.63 h, busy rounded to 2.62).
PAUSE_HOURS = 0.05


def data_sha256(path: Path) -> str:
    """sha256 of a Parquet file's table (schema and values, file metadata left out) in Arrow's
    stream format: equal for two files that hold the same data whatever wrote them."""
    table = store.read_table(path)  # a damaged file: one line naming it and the fix (causal_bandits.store.damaged)
    table = table.replace_schema_metadata(None).combine_chunks()
    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return hashlib.sha256(sink.getvalue()).hexdigest()


def describe_file(path: Path, relative: str) -> dict[str, Any]:
    """A manifest entry for one output: path, bytes, sha256 (and the data's sha256 for Parquet); a folder output
    (``directory()``): its files' bytes and :func:`.provenance.output_sha256`."""
    size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size
    entry: dict[str, Any] = {"path": relative, "bytes": size, "sha256": provenance.output_sha256(path)}
    if relative.endswith(".parquet"):
        entry["data_sha256"] = data_sha256(path)
    return entry


#: Snakemake samples a benchmarked job every 0.5 s for its first 15 s, then every 30 s, and keeps the last sample.
SAMPLED_FIRST, EVERY_FIRST, EVERY_AFTER = 15.0, 0.5, 30.0


def unsampled_seconds(wall: float) -> float:
    """Seconds between a job's last benchmark sample and its end, for a job of ``wall`` seconds: the CPU of that
    tail (at most this much per core used) is missing from the benchmark file's ``cpu_time``. Measured with a
    process burning 20 s and 50 s of CPU: 14.9 and 44.9 s recorded."""
    if wall < SAMPLED_FIRST:
        last = EVERY_FIRST * (wall // EVERY_FIRST)
    else:
        last = SAMPLED_FIRST + EVERY_AFTER * ((wall - SAMPLED_FIRST) // EVERY_AFTER)
    return round(wall - last, 2)


def _benchmark(path: Path) -> tuple[float | None, float | None, float | None]:
    """CPU seconds, peak resident memory (MB) and the unsampled tail (s) from a Snakemake benchmark file's
    first row."""
    if not path.is_file():
        return None, None, None
    with open(path, newline="") as handle:
        row = next(csv.DictReader(handle, delimiter="\t"), None) or {}

    def number(key: str) -> float | None:
        try:
            return round(float(row.get(key, "")), 2)
        except ValueError:
            return None

    wall = number("s")
    return number("cpu_time"), number("max_rss"), None if wall is None else unsampled_seconds(wall)


def _wall(workdir: Path, output: str) -> tuple[float | None, float | None, float | None]:
    """Start, end and wall seconds of the job that wrote ``output``, from Snakemake's record of it
    (``.snakemake/metadata``: one JSON file per output, named by its path in URL-safe base64 and
    split into parts of the file system's longest name)."""
    name = base64.urlsafe_b64encode(output.encode()).decode()
    longest = os.pathconf(workdir, "PC_NAME_MAX") - 1
    parts = [name[i : i + longest] for i in range(0, len(name), longest)]
    path = workdir.joinpath(".snakemake", "metadata", *["@" + p for p in parts[:-1]], parts[-1])
    try:
        record = json.loads(path.read_text())
        start, end = float(record["starttime"]), float(record["endtime"])
    except (OSError, ValueError, KeyError, TypeError):
        return None, None, None
    return start, end, round(end - start, 2)


def _job_entry(workdir: Path, job: planned.PlannedJob, produced: set[str]) -> dict[str, Any]:
    missing = [path for path in job.outputs if not (workdir / path).exists()]
    if missing:
        raise DataError(
            f"the run in {workdir} is not finished ({missing[0]} is missing): finish it with snakemake, then archive it"
        )
    exact = logs.read_resources(workdir / job.log) if job.log else None
    cpu, rss, tail = _benchmark(workdir / job.benchmark) if job.benchmark else (None, None, None)
    if exact is not None:
        (cpu, rss), tail = exact, 0.0
    start, end, wall = _wall(workdir, job.outputs[0])
    return {
        "rule": job.rule,
        "wildcards": job.wildcards,
        "log": job.log,
        "inputs": [path for path in job.inputs if path in produced],
        "cpu_s": cpu,
        "cpu_exact": exact is not None,
        "cpu_unsampled_s": tail,
        "max_rss_mb": rss,
        "wall_s": wall,
        "start": start,
        "end": end,
        "outputs": [describe_file(workdir / path, path) for path in job.outputs],
    }


def _busy_seconds(intervals: list[tuple[float, float]]) -> float:
    """Seconds during which at least one job ran: the length of the union of the jobs' [start, end]."""
    busy, reach = 0.0, float("-inf")
    for start, end in sorted(intervals):
        if end > reach:
            busy += end - max(start, reach)
            reach = end
    return busy


def _totals(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The run's totals: jobs, CPU hours (benchmark CPU, else wall; and with each job's unsampled tail added, an
    upper bound for jobs of one core), peak memory, first start to last end, and the time some job ran (the wall
    time without the pauses between resumptions)."""
    starts = [e["start"] for e in entries if e["start"] is not None]
    ends = [e["end"] for e in entries if e["end"] is not None]
    intervals = [(e["start"], e["end"]) for e in entries if e["start"] is not None and e["end"] is not None]
    cpu = sum(e["cpu_s"] if e["cpu_s"] is not None else e["wall_s"] or 0.0 for e in entries)
    tails = sum(e.get("cpu_unsampled_s") or 0.0 for e in entries)
    stamp = lambda t: datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")  # noqa: E731
    return {
        "jobs": len(entries),
        "measured_jobs": sum(e["cpu_s"] is not None for e in entries),
        "exact_jobs": sum(bool(e.get("cpu_exact")) for e in entries),
        "cpu_hours": round(cpu / 3600, 2),
        "cpu_hours_with_unsampled_tails": round((cpu + tails) / 3600, 2),
        "peak_rss_mb": max((e["max_rss_mb"] or 0.0 for e in entries), default=0.0),
        "started": stamp(min(starts)) if starts else None,
        "finished": stamp(max(ends)) if ends else None,
        "wall_hours": round((max(ends) - min(starts)) / 3600, 2) if starts and ends else None,
        "busy_hours": round(_busy_seconds(intervals) / 3600, 2),
    }


def digest(manifest: dict[str, Any]) -> str:
    """sha256 of a manifest's canonical JSON without its own digest."""
    body = {key: value for key, value in manifest.items() if key != "digest"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write(path: Path, manifest: dict[str, Any]) -> None:
    """Write a manifest with its digest, one job per line (a reviewer can read and diff it)."""
    manifest = {**manifest, "digest": digest(manifest)}
    head = [f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in manifest.items() if k != "jobs"]
    jobs = ",\n".join(json.dumps(job, sort_keys=True) for job in manifest["jobs"])
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("{\n" + ",\n".join(head) + ',\n"jobs": [\n' + jobs + "\n]}\n")
    tmp.replace(path)


def read(folder: Path) -> dict[str, Any]:
    """An archive's manifest, its digest and its artefacts' bytes checked; a one-line error otherwise."""
    path = folder / MANIFEST
    if not path.is_file():
        raise DataError(
            f"{folder} holds no archived run (no {MANIFEST}): name the folder `causal-bandits archive` wrote "
            "(this checkout may ship none yet: docs/guide/reviewers.md#verify)"
        )
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise DataError(
            f"{path} cannot be read as an archive manifest ({err}): give the folder `causal-bandits archive` wrote"
        ) from None
    if manifest.get("format") not in READABLE:
        raise DataError(
            f"{path} has format {manifest.get('format')!r}, which this version does not read ({READABLE}): "
            "verify it with the package version that made it"
        )
    if manifest.get("digest") != digest(manifest):
        raise DataError(f"{path} was edited after it was made (its digest does not match): restore it from git")
    wanted = {o["path"]: o["sha256"] for job in manifest["jobs"] for o in job["outputs"]}
    for artefact in copied(manifest):
        copy = folder / artefact
        if not copy.is_file() or _written_sha256(copy, artefact) != wanted[artefact]:
            raise DataError(f"{copy} is missing or not the file the run wrote (sha256 differs): restore it from git")
    return manifest


def _written_sha256(copy: Path, artefact: str) -> str:
    """sha256 of an archived artefact as the run wrote it: the report with its reading links put back
    (:func:`.readings.as_written`)."""
    if artefact != readings.REPORT:
        return provenance.file_sha256(copy)
    return hashlib.sha256(readings.as_written(copy.read_bytes().decode()).encode()).hexdigest()


#: A link of the report to a page of the documentation (``../docs/papers/<key>.md#...``, in HTML or Markdown).
DOCS_LINK = re.compile(r'(?:href="|\]\()([^"#)\s]+\.md)')


def linked_docs(workdir: Path, artefacts: Sequence[str]) -> list[str]:
    """The documentation pages (``docs/...md``) the run's reports link: the archive copies them beside the
    report, so that its reading links resolve from the archive's folder as they do from the run's."""
    pages = set()
    for artefact in artefacts:
        if posixpath.basename(artefact) in ("REPORT.html", "REPORT.md"):
            for m in DOCS_LINK.finditer((workdir / artefact).read_text()):
                path = posixpath.normpath(posixpath.join(posixpath.dirname(artefact), m.group(1)))
                if path.startswith("docs/") and (workdir / path).is_file():
                    pages.add(path)
    return sorted(pages)


def copied(manifest: dict[str, Any]) -> list[str]:
    """The files an archive holds beside its manifest: the final artefacts and the intermediates."""
    return sorted({*manifest["artefacts"], *manifest.get("intermediates", [])})


def _rules(workdir: Path, artefacts: Sequence[str]) -> dict[str, str]:
    """The fingerprint of every claim rule the run's papers were judged by, from their claims documents."""
    documents = [
        json.loads((workdir / path).read_text())
        for path in artefacts
        if path.startswith(CLAIMS) and path.count("/") == CLAIMS.count("/") and path.endswith(".json")
    ]
    return preregistration.fingerprints({doc["paper"]: doc for doc in documents if "paper" in doc})


def build(workdir: Path, configfiles: Sequence[str], out: Path, max_mb: float = MAX_MB) -> dict[str, Any]:
    """Archive the finished run in ``workdir`` into ``out``: its final artefacts, the documentation pages its
    report links (:func:`linked_docs`), as Markdown and rendered (:func:`.readings.carry`), and ``manifest.json``.

    Parameters
    ----------
    workdir : Path
        The run's working folder.
    configfiles : sequence of str
        The config files the run was started with (as ``--configfile``), relative to ``workdir``.
    out : Path
        The archive folder (made if needed; a previous archive there is replaced).
    max_mb : float
        Refuse an archive whose copied files take more (default 30 MB: it is committed to git).
    """
    plan = planned.plan(workdir, configfiles)
    produced = {path for job in plan for path in job.outputs}
    # by first output: Snakemake's plan lists independent jobs in an order that changes between calls
    entries = sorted(
        (_job_entry(workdir, job, produced) for job in plan if job.outputs), key=lambda e: e["outputs"][0]["path"]
    )
    finals = {path for job in plan if not job.outputs for path in job.inputs if path in produced}
    artefacts = sorted(finals | {path for path in produced if path.startswith(CLAIMS)})
    kept = stages.intermediates(entries, stages.stages(entries, stages.summaries(entries)))
    files = sorted({*artefacts, *kept})
    size = sum(o["bytes"] for e in entries for o in e["outputs"] if o["path"] in files) / 1e6
    if size > max_mb:
        raise CausalBanditsError(
            f"the final artefacts and the intermediates take {size:.1f} MB, over --max-mb {max_mb:g}: "
            "raise it or make them smaller"
        )
    # the library files jobs execute, and those they read (the report's templates)
    modules = {*provenance.job_modules(), *(path for job in plan for path in job.inputs if path.startswith("src/"))}
    modules.add(provenance.KERNELS)  # the workflow pins every job's kernels with it
    if out.exists():
        shutil.rmtree(out)
    docs = linked_docs(workdir, artefacts)
    for path in [*files, *docs]:
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(workdir / path, out / path)
    manifest = {
        "format": FORMAT,
        "provenance": provenance.record(workdir, configfiles, modules),
        "run": _totals(entries),
        "rules": _rules(workdir, artefacts),
        "artefacts": artefacts,
        "intermediates": kept,
        "jobs": entries,
    }
    write(out / MANIFEST, manifest)
    (out / "README.md").write_text(readme(manifest, out))
    try:
        readings.carry(workdir, out, docs)  # the readings quote this archive: after its manifest
    except CausalBanditsError:
        shutil.rmtree(out)  # no archive rather than one whose report links Markdown
        raise
    return manifest


def verify_command(out: Path) -> str:
    """How the README at ``out`` tells a reader to verify it: ``make verify`` for the default folder, else with the
    folder named (as the repository's root sees it when ``out`` is one of its ``archive/`` folders)."""
    folder = Path("archive", out.name) if out.parent.name == "archive" else out
    return "make verify" if folder == DEFAULT_FOLDER else f"make verify VERIFY_ARGS={folder}"


def readme(manifest: dict[str, Any], out: Path = DEFAULT_FOLDER) -> str:
    """The README of the archive folder ``out``: what it holds, the run's totals and provenance, how to verify it."""
    run, made = manifest["run"], manifest["provenance"]
    files = " + ".join(["config/config.yaml", *made["config"]["files"]])
    measured = run.get("measured_jobs", run.get("benchmarked_jobs", 0))  # an archive from before exact CPU: none
    exact = run.get("exact_jobs", 0)
    sampled = measured - exact
    cpu_basis = (
        f"{exact} jobs measured exactly (getrusage at the job's end, the last line of its log)"
        + (
            f", {sampled} from their benchmark files, at most {run['cpu_hours_with_unsampled_tails']} CPU-h with the "
            "CPU a benchmark file cannot see (Snakemake samples a job every 0.5 s for 15 s, then every 30 s, and "
            "keeps the last sample)"
            if sampled
            else ""
        )
        + f", {run['jobs'] - measured} counted at their wall time"
    )
    pauses = (
        f"; some job was running for {run['busy_hours']} h of it, the rest being pauses between resumptions"
        if run["wall_hours"] - run["busy_hours"] > PAUSE_HOURS
        else ", with no pause"
    )
    kept = (
        f"* **Intermediates:** the {len(manifest['intermediates'])} files the derived jobs read (aggregates, "
        "the run summaries of jobs that read no trace, instances and the like), under their paths in the run, so "
        "that `verify` rebuilds every derived job; not the prepared copies of the raw data (`data/processed/`), "
        "which `verify` rebuilds from the raw data.\n"
        if manifest.get("intermediates")
        else ""
    )
    return f"""# An archived run

Written by `causal-bandits archive`; do not edit (`causal-bandits verify` refuses an edited archive).

* **Config:** {files} (sha256 of the merged config, `data.raw_dir` left out: `{made["config"]["sha256"][:16]}`).
* **Commit:** `{made["commit"]}`; Python {made["python"]}, Snakemake {made["snakemake"]}, {made["platform"]}.
* **Run:** {run["jobs"]} jobs, {run["cpu_hours"]} CPU-h: {cpu_basis}; peak memory of one job
  {run["peak_rss_mb"]:.0f} MB; first job started
  {run["started"]}, last ended {run["finished"]} ({run["wall_hours"]} h{pauses}).
* **Here:** the report (`figures/REPORT.md`, `figures/REPORT.html`), every table and figure, the claims
  documents (`results/claims/`), and `manifest.json`: every job with its rule, wildcards, CPU seconds and
  peak memory, and each file it wrote with its size and sha256.
* **Readings:** the documentation pages the report's reading links open, rendered (`{readings.FOLDER}/papers/`,
  as the site showed them at the run's commit, with the stylesheets and scripts they load): `figures/REPORT.html`
  links them at their sections, from disk as over HTTP. The run wrote those links to the checkout's Markdown
  (`../docs/papers/...md`); the manifest's sha256 is of that file, and `verify` checks the copy here with those
  links put back. `figures/REPORT.md` links the Markdown pages copied under `docs/papers/`, which a code host
  renders.
{kept}
Check it from the repository root: `{verify_command(out)}` rebuilds a random sample of the jobs from scratch and
every derived job (tables, figures, claims, report) from the intermediates (10-20 minutes on 2 cores), and compares
every file they write with the manifest (docs/guide/reviewers.md#verify). What vouches for this folder is the git
history it was committed in (`git log -- <this folder>`; docs/guide/reviewers.md#what-a-pass-means).
"""
