"""The jobs of a run as Snakemake plans them: rule, wildcards, inputs, outputs, log and benchmark.

Read from the plan Snakemake prints for a dry run of every job (``snakemake --dry-run --forceall``):
the one place where the rule, the wildcards and the benchmark file of each job are all known, and
the same in a folder that holds the run's results as in one that holds none.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from causal_bandits.errors import CausalBanditsError

# A job's block starts with its rule line, its fields indented below it; the jobs of a group (each rule's `group:`,
# workflow/rules/) are printed inside their group job's block, every line indented once more.
_RULE = re.compile(r"^\s*(?:local)?rule (\S+):$")
_FIELD = re.compile(r"^\s+(input|output|log|benchmark|wildcards): (.*)$")


@dataclass
class PlannedJob:
    """One job of the plan: its rule, wildcards and files (paths relative to the working folder)."""

    rule: str
    wildcards: dict[str, str] = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    log: str | None = None
    benchmark: str | None = None


def parse_plan(text: str) -> list[PlannedJob]:
    """The jobs of a dry run's printed plan, in the order printed (the target rule ``all`` among them:
    it writes nothing, and its inputs are the run's final artefacts).

    Parameters
    ----------
    text : str
        What ``snakemake --dry-run`` printed (with the rules shown, i.e. without ``--quiet rules``).
    """
    jobs: list[PlannedJob] = []
    for line in text.splitlines():
        if rule := _RULE.match(line):
            jobs.append(PlannedJob(rule.group(1)))
        elif jobs and (found := _FIELD.match(line)):
            key, value = found.groups()
            job = jobs[-1]
            if key == "wildcards":
                job.wildcards = dict(item.split("=", 1) for item in value.split(", "))
            elif key in ("input", "output"):
                setattr(job, f"{key}s", value.split(", "))
            else:
                setattr(job, key, value)
    return jobs


def plan(workdir: Path, configfiles: Sequence[str]) -> list[PlannedJob]:
    """Every job of the workflow in ``workdir`` with ``configfiles`` (as ``--configfile``), planned by
    Snakemake (with the folder's own library) whatever the folder already holds.

    Parameters
    ----------
    workdir : Path
        The run's working folder (a checkout of the repository).
    configfiles : sequence of str
        The config files the run was started with, merged over ``config/config.yaml``.
    """
    command = [sys.executable, "-m", "snakemake", "--dry-run", "--forceall", "--workflow-profile", "none"]
    if configfiles:
        command += ["--configfile", *configfiles]
    env = {**os.environ, "PYTHONPATH": str(workdir / "src")}  # the folder's own library plans its jobs
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise CausalBanditsError(f"Snakemake could not plan the run in {workdir}: {last}")
    return parse_plan(done.stdout)
