"""Shared fixtures: the repository root, the shared raw data, and a scratch copy of the workflow."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Raw data shipped beside the repository for tests and CI (never committed to it).
SHARED_RAW = ROOT.parent / "shared" / "data" / "raw"
_SKIP = shutil.ignore_patterns(
    ".git",
    ".venv",
    "results",
    "figures",
    "logs",
    ".snakemake",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "*.egg-info",
    "out",
)


def copy_workflow(dest: Path) -> Path:
    """A copy of the repository (code, config, workflow; no results) that Snakemake can run."""
    shutil.copytree(ROOT, dest, ignore=_SKIP)
    (dest / "config" / "ci.yaml").write_text(f"data:\n  raw_dir: {SHARED_RAW}\n")
    return dest


def _snakemake_command(workdir: Path, args: tuple[str, ...], local_profile: bool = False) -> dict:
    """Arguments of :mod:`subprocess` that run Snakemake in ``workdir`` with that copy's library first
    on the import path (the jobs inherit it). Without the local profile (workflow/profiles/default,
    which plain ``snakemake`` loads) unless ``local_profile`` or ``args`` name a profile: the profile
    changes no output, but its 10-s re-plan timer would make every Snakemake call of the suite end
    up to 10 s late."""
    off = () if local_profile or "--workflow-profile" in args else ("--workflow-profile", "none")
    return {
        "args": [sys.executable, "-m", "snakemake", "--directory", str(workdir), *off, *args],
        "cwd": workdir,
        "env": {**os.environ, "PYTHONPATH": str(workdir / "src")},
    }


def snakemake(
    workdir: Path, *args: str, timeout: int = 1800, local_profile: bool = False
) -> subprocess.CompletedProcess:
    """Run Snakemake in ``workdir`` to the end (with the local profile if ``local_profile``)."""
    return subprocess.run(
        **_snakemake_command(workdir, args, local_profile), capture_output=True, text=True, timeout=timeout
    )


def start_snakemake(workdir: Path, *args: str, log: Path) -> subprocess.Popen:
    """Start Snakemake in ``workdir`` in a new session, so that ``os.killpg(proc.pid, ...)`` reaches it
    and every job it started; its output goes to ``log``."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            **_snakemake_command(workdir, args), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def pytest_collection_modifyitems(items):
    """The real-SLURM test last: its check runs in the background from the end of the tiny run on
    (``tiny_runs``) and the test only waits for the verdict, so every other test runs beside it."""
    items.sort(key=lambda item: item.path.name == "test_slurm.py")


#: The tiny workflow (config/tiny.yaml: every rule, a few hundred rounds, two seeds) on the shared raw data.
TINY = ("--configfile", "config/tiny.yaml", "config/ci.yaml")


@dataclass
class Background:
    """A process started beside the tests (its own session: ``os.killpg`` reaches its children)."""

    proc: subprocess.Popen
    log: Path

    def wait(self, timeout: int = 1800) -> int:
        return self.proc.wait(timeout=timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the SLURM check stops its daemons on TERM
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


#: What the real-SLURM check runs of the tiny config: one paper's target (its prep, runs and post
#: groups, raw data read on the node), not all five: the profile's groups for every rule are
#: checked by dry runs (test_cluster_profiles), and five papers through SLURM cost CI 20 minutes.
SLURM_CHECK_TARGETS = ("fairness",)


@dataclass
class TinyRuns:
    reference: Path
    slurm_check: Background | None


@pytest.fixture(scope="session")
def tiny_runs(tmp_path_factory):
    """The tiny workflow (every rule of the quick one, smaller) in a scratch copy, run to the end on
    2 cores. When CB_SLURM_CHECK=1 (CI), the real-SLURM check (.ci/slurm_check.sh against this run)
    starts as soon as it is done: the two cores stay busy while the tests that only read run. The
    check is stopped at the end of the session if it still runs."""
    work = copy_workflow(tmp_path_factory.mktemp("tiny") / "repo")
    result = snakemake(work, "--cores", "2", *TINY)
    assert result.returncode == 0, result.stderr[-5000:]
    slurm = None
    if os.environ.get("CB_SLURM_CHECK") == "1":
        log = work.parent / "slurm_check.log"
        with open(log, "wb") as out:
            env = {**os.environ, "PYTHON": sys.executable, "SLURM_CHECK_REFERENCE": str(work)}
            proc = subprocess.Popen(
                [str(ROOT / ".ci" / "slurm_check.sh"), "config/tiny.yaml", *SLURM_CHECK_TARGETS],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        slurm = Background(proc, log)
    try:
        yield TinyRuns(work, slurm)
    finally:
        if slurm:
            slurm.stop()


@pytest.fixture(scope="session")
def tiny_run(tiny_runs):
    """The tiny run: the workflow tests read its outputs, and it is the reference of the determinism
    (killed, resumed, other cores and chunks) and SLURM tests. The quick config itself is checked by
    dry runs (test_workflow.py)."""
    return tiny_runs.reference


def assert_bad_config_fails_cleanly(workdir: Path, override: dict, expected: str) -> None:
    """Run the quick workflow with ``override`` merged in: it must stop at parse time with exactly
    one ``error:`` line containing ``expected``, and write nothing under results/ or figures/."""
    import yaml

    (workdir / "config" / "bad.yaml").write_text(yaml.safe_dump(override))
    result = snakemake(
        workdir, "--cores", "1", "--configfile", "config/quick.yaml", "config/ci.yaml", "config/bad.yaml"
    )
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and expected in errors[0], result.stderr[-2000:]
    assert not (workdir / "results").exists()
    assert not (workdir / "figures").exists()
