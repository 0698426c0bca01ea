"""Shared fixtures: the repository root, the shared raw data, and a scratch copy of the workflow."""

from __future__ import annotations

import os
import signal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Raw data shipped beside the repository for tests and CI (never committed to it).
SHARED_RAW = ROOT.parent / "shared" / "data" / "raw"
_SKIP = shutil.ignore_patterns(".git", ".venv", "results", "figures", "logs", ".snakemake", "__pycache__",
                               ".pytest_cache", ".hypothesis", "*.egg-info", "out")


def copy_workflow(dest: Path) -> Path:
    """A copy of the repository (code, config, workflow; no results) that Snakemake can run."""
    shutil.copytree(ROOT, dest, ignore=_SKIP)
    (dest / "config" / "ci.yaml").write_text(f"data:\n  raw_dir: {SHARED_RAW}\n")
    return dest


def _snakemake_command(workdir: Path, args: tuple[str, ...]) -> dict:
    """Arguments of :mod:`subprocess` that run Snakemake in ``workdir`` with that copy's library first
    on the import path (the jobs inherit it)."""
    return {"args": [sys.executable, "-m", "snakemake", "--directory", str(workdir), *args], "cwd": workdir,
            "env": {**os.environ, "PYTHONPATH": str(workdir / "src")}}


def snakemake(workdir: Path, *args: str, timeout: int = 1800) -> subprocess.CompletedProcess:
    """Run Snakemake in ``workdir`` to the end."""
    return subprocess.run(**_snakemake_command(workdir, args), capture_output=True, text=True, timeout=timeout)


def start_snakemake(workdir: Path, *args: str, log: Path) -> subprocess.Popen:
    """Start Snakemake in ``workdir`` in a new session, so that ``os.killpg(proc.pid, ...)`` reaches it
    and every job it started; its output goes to ``log``."""
    with open(log, "ab") as out:
        return subprocess.Popen(**_snakemake_command(workdir, args), stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


#: The tiny workflow (config/tiny.yaml: every rule, a few hundred rounds, two seeds) on the shared raw data.
TINY = ("--configfile", "config/tiny.yaml", "config/ci.yaml")


#: The determinism test's variant of the tiny run: one core and one seed per job (the reference: two
#: cores, the config's two seeds per job).
TINY_VARIANT = ("--cores", "1", "--config", "seeds_per_job=1")


@pytest.fixture(scope="session")
def tiny_runs(tmp_path_factory):
    """The tiny workflow (every rule of the quick one, smaller) in two scratch copies: the reference,
    run to the end on 2 cores, and the determinism test's variant (TINY_VARIANT), started beside it
    as (work directory, process, log): three processes on two cores finish both sooner than one
    after the other. The variant is stopped at the end of the session if still running."""
    base = tmp_path_factory.mktemp("tiny")
    variant = copy_workflow(base / "variant" / "repo")
    log = base / "variant" / "snakemake.log"
    proc = start_snakemake(variant, *TINY_VARIANT, *TINY, log=log)
    try:
        work = copy_workflow(base / "repo")
        result = snakemake(work, "--cores", "2", *TINY)
        assert result.returncode == 0, result.stderr[-5000:]
        yield work, (variant, proc, log)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture(scope="session")
def tiny_run(tiny_runs):
    """The tiny run: the workflow tests read its outputs, and it is the reference of the determinism,
    crash and SLURM tests. The quick config itself is checked by dry runs (test_workflow.py)."""
    return tiny_runs[0]


def assert_bad_config_fails_cleanly(workdir: Path, override: dict, expected: str) -> None:
    """Run the quick workflow with ``override`` merged in: it must stop at parse time with exactly
    one ``error:`` line containing ``expected``, and write nothing under results/ or figures/."""
    import yaml

    (workdir / "config" / "bad.yaml").write_text(yaml.safe_dump(override))
    result = snakemake(workdir, "--cores", "1", "--configfile", "config/quick.yaml", "config/ci.yaml", "config/bad.yaml")
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and expected in errors[0], result.stderr[-2000:]
    assert not (workdir / "results").exists()
    assert not (workdir / "figures").exists()
