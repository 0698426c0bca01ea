"""Shared fixtures: the tiny run (with the real-SLURM check beside it) and the built documentation site. The helpers
they use, and the tests import, are in workflow_helpers.py."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock
from workflow_helpers import _GUARD, HANG_GUARD_S, ROOT, TINY, cli, copy_workflow, snakemake

from causal_bandits.archive import manifest, provenance


def pytest_configure(config):
    """A hang guard that is not a positive whole number stops the session with one line before any test."""
    if HANG_GUARD_S <= 0:
        raise pytest.UsageError(f"CB_TEST_HANG_GUARD_S={_GUARD!r} is not a positive whole number of seconds: unset it")


def pytest_collection_modifyitems(items):
    """The real-SLURM test last: its check runs in the background from the end of the tiny run on
    (``tiny_runs``) and the test only waits for the verdict, so every other test runs beside it."""
    items.sort(key=lambda item: item.path.name == "test_slurm.py")


#: Started in a session of its own, a check writes its exit status to a file when it ends (atomically), so
#: that a test on any pytest-xdist worker can wait for it.
_STATUS_WRAPPER = (
    "import os, subprocess, sys; rc = subprocess.call(sys.argv[2:]); "
    "open(sys.argv[1] + '.part', 'w').write(str(rc)); os.replace(sys.argv[1] + '.part', sys.argv[1])"
)


@dataclass
class Background:
    """A check started beside the tests (its own session: ``os.killpg`` reaches its children). Its output
    goes to ``log`` and its exit status to ``status``: files, readable from every xdist worker."""

    pid: int
    log: Path
    status: Path

    @classmethod
    def start(cls, command: list[str], log: Path, env: dict[str, str]) -> Background:
        status = log.with_suffix(".status")
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-c", _STATUS_WRAPPER, str(status), *command],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return cls(proc.pid, log, status)

    def wait(self, timeout: int = HANG_GUARD_S) -> int:
        """The check's exit status, once it has ended; -1 if it was stopped, TimeoutError after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not self.status.exists():
            if not _alive(self.pid):
                return int(self.status.read_text()) if self.status.exists() else -1
            if time.monotonic() > deadline:
                raise TimeoutError(f"the check ({self.log}) did not end in {timeout} s")
            time.sleep(1)
        return int(self.status.read_text())

    def stop(self) -> None:
        if _alive(self.pid):
            os.killpg(self.pid, signal.SIGTERM)  # the SLURM check stops its daemons on TERM
            for _ in range(60):
                if not _alive(self.pid):
                    return
                time.sleep(1)
            os.killpg(self.pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a finished child of this process is reaped first)."""
    try:
        if os.waitpid(pid, os.WNOHANG) != (0, 0):
            return False
    except ChildProcessError:  # not this process's child: another worker started it
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


#: What the real-SLURM check runs of the tiny config: the Email chain of the fairness paper (its instance in the
#: prep group, its runs, the aggregate and Figure 2(b) in the post group) and both raw-data checks (the raw data read
#: on the node), not all five papers nor the whole of fairness: every rule's group is checked on the rule files, the
#: rule graph and dry runs of the profiles (test_cluster_profiles), and every further job through SLURM costs CI its
#: time on 2 cores.
SLURM_CHECK_TARGETS = (
    "figures/fairness/figure2b.pdf",
    "results/fairness/raw/adult.json",
    "results/fairness/raw/youtube.json",
)


@dataclass
class TinyRuns:
    reference: Path
    slurm_check: Background | None


def _run_tiny(tmp_path_factory) -> dict:
    """Run the tiny workflow; start the SLURM check against it when CB_SLURM_CHECK=1. A JSON-able record."""
    work = copy_workflow(tmp_path_factory.mktemp("tiny") / "repo")
    result = snakemake(work, "--cores", "2", *TINY)
    if result.returncode != 0:
        return {"reference": str(work), "error": result.stderr[-5000:], "slurm": None}
    slurm = None
    if os.environ.get("CB_SLURM_CHECK") == "1":
        env = {**os.environ, "PYTHON": sys.executable, "SLURM_CHECK_REFERENCE": str(work)}
        check = Background.start(
            [str(ROOT / ".ci" / "slurm_check.sh"), "config/tiny.yaml", *SLURM_CHECK_TARGETS],
            work.parent / "slurm_check.log",
            env,
        )
        slurm = {"pid": check.pid, "log": str(check.log), "status": str(check.status)}
    return {"reference": str(work), "error": None, "slurm": slurm}


@pytest.fixture(scope="session")
def tiny_runs(tmp_path_factory, worker_id):
    """The tiny workflow (every rule of the quick one, smaller) in a scratch copy, run to the end on
    2 cores, once per test session: under pytest-xdist (``make test`` runs the workflow tests on two
    workers) the first worker to need it runs it while the other waits on a lock, then reads where it
    is. When CB_SLURM_CHECK=1 (CI), the real-SLURM check (.ci/slurm_check.sh against this run)
    starts as soon as it is done, beside the tests that only read. The worker that started the check
    waits for it at the end of its session (the test that reads its verdict may run on the other
    worker), and stops it if it still runs after its time limit."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the session's folder, above each worker's own
    record = shared / "tiny_runs.json"
    with FileLock(f"{record}.lock"):
        ours = not record.exists()
        if ours:
            record.write_text(json.dumps(_run_tiny(tmp_path_factory)))
        info = json.loads(record.read_text())
    assert info["error"] is None, info["error"]
    check = info["slurm"]
    slurm = Background(check["pid"], Path(check["log"]), Path(check["status"])) if check else None
    try:
        yield TinyRuns(Path(info["reference"]), slurm)
    finally:
        if ours and slurm:
            with contextlib.suppress(TimeoutError):
                slurm.wait()
            slurm.stop()


@pytest.fixture(scope="session")
def tiny_run(tiny_runs):
    """The tiny run: the workflow tests read its outputs, and it is the reference of the determinism
    (killed, resumed, other cores and chunks) and SLURM tests. The quick config itself is checked by
    dry runs (test_workflow.py)."""
    return tiny_runs.reference


@pytest.fixture(scope="session")
def tiny_archive(tiny_run, tmp_path_factory):
    """The tiny run archived (``causal-bandits archive``: its manifest, artefacts and rendered readings), once per
    worker. Tests on another worker edit a module of the tiny run's copy for a moment (test_workflow.py's rerun
    checks): an archive that caught such an edit is made again."""
    out = tmp_path_factory.mktemp("archive") / "tiny"
    for _ in range(5):
        done = cli(tiny_run, "archive", "--configfile", "config/tiny.yaml", "config/ci.yaml", "--out", str(out))
        assert done.returncode == 0, done.stderr
        made = manifest.read(out)["provenance"]
        if made["code"] == provenance.code_files(ROOT, (p for p in made["code"] if p.startswith("src/"))):
            break
        time.sleep(5)
    assert done.stdout.startswith("archived ")
    return out


@dataclass
class BuiltSite:
    """The documentation site built by ``mkdocs build --strict`` (as ``make docs``): its folder, and the build's
    exit status and error output."""

    folder: Path
    returncode: int
    stderr: str


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> BuiltSite:
    """The site, built once per test session (the first worker to need it builds it, the others wait on a lock):
    tests/test_docs.py checks the build, tests/test_browser.py reads its pages in a browser."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent
    record = shared / "built_site.json"
    with FileLock(f"{record}.lock"):
        if not record.exists():
            site = shared / "site"
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "mkdocs",
                    "build",
                    "--strict",
                    "--config-file",
                    str(ROOT / "mkdocs.yml"),
                    "-d",
                    site,
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=HANG_GUARD_S,
            )
            record.write_text(json.dumps({"folder": str(site), "returncode": done.returncode, "stderr": done.stderr}))
        info = json.loads(record.read_text())
    return BuiltSite(Path(info["folder"]), info["returncode"], info["stderr"])
