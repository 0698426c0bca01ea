"""Shared fixtures: the repository root, the shared raw data, and a scratch copy of the workflow."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock

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


def _ignore(folder: str, names: list[str]) -> set[str]:
    """What a copy leaves out: outputs and caches anywhere, and the committed archive of the root."""
    return set(_SKIP(folder, names)) | ({"archive"} if Path(folder) == ROOT else set())


def copy_workflow(dest: Path) -> Path:
    """A copy of the repository (code, config, workflow; no results) that Snakemake can run."""
    shutil.copytree(ROOT, dest, ignore=_ignore)
    (dest / "config" / "ci.yaml").write_text(f"data:\n  raw_dir: {SHARED_RAW}\n")
    return dest


#: The head of a rule in a rule file: ``rule NAME:``, or ``use rule BASE as NAME`` (with ``with:`` or without).
_RULE_HEAD = re.compile(r"^(\s*)(?:rule (\w+):|use rule (\w+) as (\w+)\b.*)$")


def rule_groups(root: Path) -> dict[str, str | None]:
    """Each named rule of the workflow at ``root`` (workflow/Snakefile, workflow/rules/**/*.smk) with the job group its
    ``group:`` directive names (None if it names none); a ``use rule BASE as NAME`` keeps its base's group unless it
    names one itself."""
    groups: dict[str, str | None] = {}
    bases: dict[str, str] = {}
    files = [root / "workflow" / "Snakefile", *sorted((root / "workflow" / "rules").rglob("*.smk"))]
    for lines in (path.read_text().splitlines() for path in files if path.is_file()):
        for i, line in enumerate(lines):
            if not (head := _RULE_HEAD.match(line)):
                continue
            indent, rule, base, used = head.groups()
            name = rule or used
            if base:
                bases[name] = base
            body = []
            for below in lines[i + 1 :]:
                if below.strip() and len(below) - len(below.lstrip()) <= len(indent):
                    break
                body.append(below)
            key = f"{indent}    group:"  # a directive of this rule, its value on the same line or the next
            at = next((j for j, below in enumerate(body) if below == key or below.startswith(f"{key} ")), None)
            value = None if at is None else body[at].removeprefix(key).strip() or body[at + 1].strip()
            groups[name] = ast.literal_eval(value) if value else None
    for name, base in bases.items():
        groups[name] = groups[name] or groups.get(base)
    return groups


def copy_finished_run(run: Path, dest: Path) -> Path:
    """A copy of a finished run (code, config, every output and Snakemake's records, modification times kept): a
    test of a few more jobs starts from it, and only those jobs run. That every job runs from an empty tree is the
    tiny run's own check."""
    shutil.copytree(run, dest, symlinks=True)
    return dest


def register_example(src: Path, policy: str, line: str) -> None:
    """Apply a worked example of examples/add_an_algorithm/ to the package at ``src`` as its guide says: the policy
    file ``policy`` copied into causal_bandits/bandits/, the registry line of file ``line`` added to nonmanip's."""
    example = ROOT / "examples" / "add_an_algorithm"
    shutil.copy(example / policy, src / "causal_bandits" / "bandits" / policy)
    registry = src / "causal_bandits" / "papers" / "nonmanip" / "algorithms.py"
    entry = (example / line).read_text()
    key = re.search(r'Algorithm\(\s*"(\w+)"', entry)
    if key and f'"{key.group(1)}",' in registry.read_text():  # a checkout whose researcher followed the guide
        return
    head, _, tail = registry.read_text().rpartition("\n)\n")  # the end of ALGORITHMS
    registry.write_text(head + "\n" + entry + ")\n" + tail)


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

    def wait(self, timeout: int = 1800) -> int:
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
                slurm.wait(timeout=2400)
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
                timeout=600,
            )
            record.write_text(json.dumps({"folder": str(site), "returncode": done.returncode, "stderr": done.stderr}))
        info = json.loads(record.read_text())
    return BuiltSite(Path(info["folder"]), info["returncode"], info["stderr"])
