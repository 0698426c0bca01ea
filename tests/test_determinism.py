"""Same bytes whatever happens to a run: other cores, other chunks, SIGKILL at five points.

One adversarial run of the tiny workflow against the uninterrupted one (the ``tiny_run`` fixture:
2 cores, the config's two seeds per job). It differs in everything that must not matter at once:
one core and one seed per job (TINY_VARIANT), and it is killed at five points and resumed.

- **Killed.** The workflow (Snakemake and every job it started: one process group) gets SIGKILL
  when the outputs show it reached a point — after the first instance, mid run jobs, mid
  aggregation, mid figures, during the report — and each time every output under its final name
  must parse (outputs are written to a hidden temporary and renamed: ``store.atomic_path``).
  Resuming is the README's command: ``--unlock``, then the same command with ``--rerun-incomplete``.
  No temporary may be left behind.
- **Compared:** every output under results/, figures/ and data/ — Parquet, CSV, Markdown, JSON, the
  report (figures/REPORT.md, REPORT.html), PDF and PNG figures — byte for byte. Run store files
  are the one exception: their number is ``n_seeds / seeds_per_job`` per group, so for them the
  rows of all chunks of a group, concatenated in seed order (and their provenance less each
  chunk's seed range), are compared instead; everything downstream of them (aggregates, tables,
  figures, claims, report) is compared byte for byte. Logs and Snakemake's benchmark files record
  times, so they are not outputs and are not compared.

A difference names the files; rerunning with one change at a time tells which change caused it.
One run for all three costs CI one tiny run instead of two (a variant beside the reference, and
the killed run).
"""

from __future__ import annotations

import os
import signal
import time
from fnmatch import fnmatch

import pytest
from conftest import TINY, copy_workflow, snakemake, start_snakemake
from workflow_outputs import check_parses, differences, fingerprint, output_files

pytestmark = pytest.mark.workflow

#: One core and one seed per job (the reference: two cores, the config's two seeds per job).
TINY_VARIANT = ("--cores", "1", "--config", "seeds_per_job=1")
ARGS = (*TINY_VARIANT, *TINY)


def _count(files, pattern: str) -> int:
    return sum(fnmatch(f, pattern) for f in files)


def kill_points(reference: set[str]):
    """(name, predicate on the outputs present) for the five points, in the order a run reaches them."""

    def share(pattern: str, fraction: float):
        need = max(1, int(fraction * _count(reference, pattern)))
        return lambda done: _count(done, pattern) >= need

    return [
        ("after the first instance", share("results/*/instances/*.json", 0)),
        ("mid run jobs", share("results/runs/*.summary.parquet", 0.5)),
        ("mid aggregation", share("results/*/agg/*.parquet", 0.5)),
        ("mid figures", share("figures/*/*.pdf", 0.5)),
        ("during the report", share("results/claims/*.json", 1)),  # every claim file: the report's inputs
    ]


def _run_until(work, point: str, reached, resume: bool) -> set[str]:
    """Start the workflow (resuming as the README says if ``resume``), SIGKILL its process group once
    ``reached(outputs)`` holds and a new output appeared; return the outputs present at the kill."""
    log = work.parent / "snakemake.log"
    if resume:
        unlock = snakemake(work, *ARGS, "--unlock")
        assert unlock.returncode == 0, unlock.stderr[-3000:]
    before = set(output_files(work))
    proc = start_snakemake(work, *ARGS, *(("--rerun-incomplete",) if resume else ()), log=log)
    deadline = time.monotonic() + 900
    try:
        while True:
            done = set(output_files(work))
            if reached(done) and done - before:
                break
            assert proc.poll() is None, f"the workflow ended before '{point}':\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"'{point}' not reached in 900 s"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    _wait_until_gone(proc.pid)
    return done


def _wait_until_gone(pgid: int) -> None:
    """Wait until no process of the killed group is left (its jobs are reaped by init)."""
    for _ in range(200):
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"processes of group {pgid} survived SIGKILL")


def test_killed_five_times_on_other_cores_and_chunks_resumes_to_the_same_bytes(tiny_run, tmp_path):
    work = copy_workflow(tmp_path / "repo")
    reference, reference_files = fingerprint(tiny_run, run_rows=True), set(output_files(tiny_run))
    # What is compared: every kind of output the issue names.
    assert {key.rsplit(".", 1)[-1] for key in reference} >= {"parquet", "csv", "md", "json", "html", "pdf", "png"}
    assert {"figures/REPORT.md", "figures/REPORT.html"} <= reference.keys()
    seen = []
    for i, (point, reached) in enumerate(kill_points(reference_files)):
        done = _run_until(work, point, reached, resume=i > 0)
        for path in output_files(work).values():  # nothing half-written under a final name
            check_parses(path)
        seen.append(frozenset(done))
        print(f"killed {point}: {len(done)} outputs (the reference has {len(reference_files)})")
    # Five different points, the last one before the end.
    assert len(set(seen)) == 5 and not reference_files <= seen[-1], [len(s) for s in seen]

    assert snakemake(work, *ARGS, "--unlock").returncode == 0
    result = snakemake(work, *ARGS, "--rerun-incomplete")
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(list((tiny_run / "results" / "runs").rglob("chunk-1.parquet"))) == 0  # one chunk per group
    assert len(list((work / "results" / "runs").rglob("chunk-1.parquet"))) > 0  # two chunks per group
    assert differences(reference, fingerprint(work, run_rows=True)) == []
    for path in output_files(work).values():
        check_parses(path)
    # Temporaries of killed jobs were removed when their outputs were written again.
    leftovers = [p for d in ("results", "figures", "data") for p in (work / d).rglob("*.tmp")]
    assert leftovers == []
