"""Same bytes whatever happens to a run: other cores, other chunks, SIGKILL at five points.

One adversarial run of two papers of the tiny workflow (``snakemake bounds unknown_graph``: PAPERS_RUN)
against the uninterrupted run of all five (the ``tiny_run`` fixture: 2 cores, the config's two seeds
per job). It differs in everything that must not matter at once: one core and one seed per job
(TINY_VARIANT), and it is killed at five points and resumed.

- **Killed.** The workflow (Snakemake and every job it started: one process group) gets SIGKILL
  when the outputs show it reached a point — after the first document, mid run jobs, mid
  aggregation, mid figures, during the claims — and each time every output under its final name
  must parse (outputs are written to a hidden temporary and renamed: ``store.atomic_path``).
  Resuming is the README's command: ``--unlock``, then the same command with ``--rerun-incomplete``.
  No temporary may be left behind.
- **Compared:** every output of the two papers under results/, figures/ and data/ — Parquet, CSV,
  Markdown, JSON, PDF and PNG figures — byte for byte, against the same files of the reference. Run store files
  are the one exception: their number is ``n_seeds / seeds_per_job`` per group, so for them the
  rows of all chunks of a group, concatenated in seed order (and their provenance less each
  chunk's seed range), are compared instead; everything downstream of them (aggregates, tables,
  figures, claims, report) is compared byte for byte. Logs and Snakemake's benchmark files record
  times, so they are not outputs and are not compared.

A difference names the files; rerunning with one change at a time tells which change caused it.
One run for all three costs CI one run instead of two (a variant beside the reference, and the
killed run); two papers instead of five keep it to about a quarter of the tiny run's jobs. Every
output goes through the same atomic write (``store.atomic_path``) and every paper's chunking has a
unit test of its own (``test_*_chunking``), so what the other three papers would add here is time:
13 minutes of CI on one core for all five, measured.
"""

from __future__ import annotations

import os
import signal
import time
from fnmatch import fnmatch

import pytest
from workflow_helpers import HANG_GUARD_S, TINY, copy_workflow, snakemake, start_snakemake
from workflow_outputs import check_parses, differences, fingerprint, output_files

pytestmark = pytest.mark.workflow

#: The papers the adversarial run builds: their target rules, before the options.
PAPERS_RUN = ("bounds", "unknown_graph")
#: One core and one seed per job (the reference: two cores, the config's two seeds per job).
TINY_VARIANT = ("--cores", "1", "--config", "seeds_per_job=1")
ARGS = (*PAPERS_RUN, *TINY_VARIANT, *TINY)


def _of_papers_run(outputs: dict[str, str]) -> dict[str, str]:
    """The entries of a fingerprint (or of ``output_files``) that belong to PAPERS_RUN: a path with the paper's
    name as a folder (results/bounds/..., results/runs/bounds/...) or as its stem (results/claims/bounds.json)."""
    return {
        key: value
        for key, value in outputs.items()
        if any(part in PAPERS_RUN for part in key.split("/")[:-1]) or key.rsplit("/", 1)[-1].split(".")[0] in PAPERS_RUN
    }


def _count(files, pattern: str) -> int:
    return sum(fnmatch(f, pattern) for f in files)


def kill_points(reference: set[str]):
    """(name, predicate on the outputs present) for the five points, in the order a run reaches them."""

    def share(pattern: str, fraction: float):
        need = max(1, int(fraction * _count(reference, pattern)))
        return lambda done: _count(done, pattern) >= need

    return [
        ("after the first document", share("results/*/*.json", 0)),  # bounds exact.json, a trace
        ("mid run jobs", share("results/runs/*.summary.parquet", 0.5)),
        ("mid aggregation", share("results/*/agg/*.parquet", 0.5)),
        ("mid figures", share("figures/*/*.pdf", 0.5)),
        ("during the claims", share("results/claims/*.json", 0.5)),  # one paper's claims written, not both
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
    deadline = time.monotonic() + HANG_GUARD_S
    try:
        while True:
            done = set(output_files(work))
            if reached(done) and done - before:
                break
            assert proc.poll() is None, f"the workflow ended before '{point}':\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"'{point}' not reached in {HANG_GUARD_S} s (CB_TEST_HANG_GUARD_S)"
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
    reference = _of_papers_run(fingerprint(tiny_run, run_rows=True))
    reference_files = set(_of_papers_run(output_files(tiny_run)))
    # What is compared: every kind of output the workflow writes but the report's HTML.
    assert {key.rsplit(".", 1)[-1] for key in reference} >= {"parquet", "csv", "md", "json", "pdf", "png"}
    assert {f"results/claims/{paper}.json" for paper in PAPERS_RUN} <= reference.keys()
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
