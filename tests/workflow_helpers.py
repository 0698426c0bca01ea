"""The checkout the tests run against, and the helpers of the tests that run or copy its workflow: the repository
root, the shared raw data, a scratch copy of the workflow, Snakemake in it, the tiny config. Imported by the tests
(and conftest.py's fixtures) as a module of its own; conftest.py holds fixtures only."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
#: Raw data shipped beside the repository for tests and CI (never committed to it).
SHARED_RAW = ROOT.parent / "shared" / "data" / "raw"


#: The hang guard's variable and its value, read once (checked by conftest's ``pytest_configure``).
_GUARD = os.environ.get("CB_TEST_HANG_GUARD_S", "14400")

#: How long a test waits on a subprocess (Snakemake, a CLI command, a background check) before it calls it hung.
#: Only a hang decides a test, never a slow machine: the shared tiny run, the longest wait, takes about 13 minutes
#: on an idle 2-core machine and about 30 at load 13-26, and the guard is four hours. CB_TEST_HANG_GUARD_S
#: overrides it.
HANG_GUARD_S = int(_GUARD) if _GUARD.isdigit() else 0
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
    """What a copy leaves out: outputs and caches anywhere, and the committed archive and the data folder of the root
    (the raw data a checkout holds for its own runs, ``data/raw``, and the outputs under ``data/``: the copy's runs
    read the raw data at :data:`SHARED_RAW`, and the byte guard would list the copied files as outputs)."""
    return set(_SKIP(folder, names)) | ({"archive", "data"} if Path(folder) == ROOT else set())


def cli(cwd: Path, *args: str, tmp: Path | None = None) -> subprocess.CompletedProcess:
    """``causal-bandits ARGS`` run in ``cwd`` with that checkout's code (``tmp``: its TMPDIR)."""
    env = {**os.environ, "PYTHONPATH": str(cwd / "src"), **({"TMPDIR": str(tmp)} if tmp else {})}
    command = [sys.executable, "-m", "causal_bandits", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=HANG_GUARD_S)


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
    workdir: Path, *args: str, timeout: int = HANG_GUARD_S, local_profile: bool = False
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


#: The tiny workflow (config/tiny.yaml: every rule, a few hundred rounds, two seeds) on the shared raw data.
TINY = ("--configfile", "config/tiny.yaml", "config/ci.yaml")


def assert_bad_config_fails_cleanly(workdir: Path, override: dict, expected: str) -> None:
    """Run the quick workflow with ``override`` merged in: it must stop at parse time with exactly
    one ``error:`` line containing ``expected``, and write nothing under results/ or figures/."""
    (workdir / "config" / "bad.yaml").write_text(yaml.safe_dump(override))
    result = snakemake(
        workdir, "--cores", "1", "--configfile", "config/quick.yaml", "config/ci.yaml", "config/bad.yaml"
    )
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and expected in errors[0], result.stderr[-2000:]
    assert not (workdir / "results").exists()
    assert not (workdir / "figures").exists()
