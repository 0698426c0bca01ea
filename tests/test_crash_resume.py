"""Crash safety: SIGKILL the tiny workflow at five points, resume it as the README says, get the same bytes.

The workflow (Snakemake and every job it started: one process group) is killed when the outputs show
it reached a point — after the first instance, mid run jobs, mid aggregation, mid figures, during
the report — and each time every output under its final name must parse (outputs are written to a
hidden temporary and renamed: ``store.atomic_path``). Resuming is the README's command: ``--unlock``,
then the same command with ``--rerun-incomplete``. The finished run must be byte-identical to an
uninterrupted one (the ``tiny_run`` fixture), and no temporary may be left behind.
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

ARGS = ("--cores", "2", *TINY)


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


def test_killed_five_times_resumes_to_the_same_bytes(tiny_run, tmp_path):
    work = copy_workflow(tmp_path / "repo")
    reference = fingerprint(tiny_run)
    seen = []
    for i, (point, reached) in enumerate(kill_points(set(reference))):
        done = _run_until(work, point, reached, resume=i > 0)
        for path in output_files(work).values():  # nothing half-written under a final name
            check_parses(path)
        seen.append(frozenset(done))
        print(f"killed {point}: {len(done)} of {len(reference)} outputs")
    # Five different points, the last one before the end.
    assert len(set(seen)) == 5 and not set(reference) <= seen[-1], [len(s) for s in seen]

    assert snakemake(work, *ARGS, "--unlock").returncode == 0
    result = snakemake(work, *ARGS, "--rerun-incomplete")
    assert result.returncode == 0, result.stderr[-3000:]
    assert differences(reference, fingerprint(work)) == []
    for path in output_files(work).values():
        check_parses(path)
    # Temporaries of killed jobs were removed when their outputs were written again.
    leftovers = [p for d in ("results", "figures", "data") for p in (work / d).rglob("*.tmp")]
    assert leftovers == []
