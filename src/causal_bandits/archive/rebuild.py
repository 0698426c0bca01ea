"""Rebuilding an archived run's jobs for ``verify``: a scratch copy of the code, Snakemake run in it, and its progress.

Each level of a verification runs Snakemake in a scratch folder that holds a copy of the code (:func:`scratch_copy`,
from the checkout or from the archived run's commit: :mod:`.at_commit`) and the run's merged config. While Snakemake
runs, :func:`rebuild` prints how many of its jobs are done, the time elapsed and an estimate of the rest, read from
Snakemake's own ``N of M steps`` lines in the level's log.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from causal_bandits.archive.at_commit import Code
from causal_bandits.data import raw as raw_data
from causal_bandits.errors import CausalBanditsError

#: The file in a named scratch folder that says which verification it holds (:func:`scratch_folder`).
STAMP = "verify-stamp.json"
#: Seconds between two looks at a running level's log for its progress.
PROGRESS_SECONDS = 20.0
#: Snakemake's line after each finished job.
STEPS = re.compile(rb"(\d+) of (\d+) steps \(\d+%\) done")


def raw_files(config: Mapping[str, Any]) -> list[str]:
    """The raw files the config pins (relative to ``data.raw_dir``: :func:`causal_bandits.data.raw.pinned`)."""
    return [spec.path for spec in raw_data.pinned(config)]


def missing_raw(config: Mapping[str, Any], raw: Path) -> list[str]:
    """The pinned raw files absent from ``raw`` (a gzip copy counts)."""
    return [p for p in raw_files(config) if not (raw / p).is_file() and not (raw / f"{p}.gz").is_file()]


def scratch_copy(
    code: Path, checkout: Path, archive: Path, config: dict[str, Any], scratch: Path, intermediates: Sequence[str]
) -> Path:
    """A copy of ``code``'s ``src``, ``workflow`` and ``config`` in ``scratch``, and of the ``intermediates`` of the
    ``archive`` at their paths (over an earlier run's copies when resuming: their times are the originals', and
    Snakemake rebuilds nothing for a source file newer than what was made from it); and ``verify.yaml``: the
    archived run's merged config, its raw-data folder made absolute against ``checkout`` (returned). Missing raw
    files are downloaded into it by the workflow, as ``make reproduce`` does."""
    for part in ("src", "workflow", "config"):
        shutil.copytree(
            code / part,
            scratch / part,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
            dirs_exist_ok=True,
        )
    for path in intermediates:
        (scratch / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(archive / path, scratch / path)
    data = dict(config.get("data", {}))
    raw = (checkout / data.get("raw_dir", "data/raw")).resolve()
    (scratch / "verify.yaml").write_text(json.dumps({**config, "data": {**data, "raw_dir": str(raw)}}))
    return raw


def scratch_folder(scratch: Path, stamp: dict[str, Any]) -> bool:
    """Make ``scratch`` the folder of the verification ``stamp`` describes (the archive's digest, each level's jobs):
    True when it already is, an earlier run of it stopped there, to go on with. A folder that holds another
    verification, or other files, is refused (one line)."""
    marker = scratch / STAMP
    if marker.is_file():
        if json.loads(marker.read_text()) != stamp:
            raise CausalBanditsError(
                f"--scratch {scratch} holds another verification (another archive, sample or --all): "
                "name an empty or new folder"
            )
        return True
    if scratch.is_dir() and any(scratch.iterdir()):
        raise CausalBanditsError(
            f"--scratch {scratch} is not empty and holds no verification: name an empty or new folder"
        )
    scratch.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps(stamp))
    return False


def minutes(seconds: float) -> str:
    """``seconds`` as minutes and seconds, e.g. ``3 min 12 s``."""
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def progress(log: Path, offset: int, started: float, now: float) -> tuple[int, int, str] | None:
    """The last ``N of M steps`` line in ``log`` after its first ``offset`` bytes as (done, of, a line saying so with
    the time elapsed since ``started`` and an estimate of the rest at the pace so far), or None before Snakemake has
    finished a job."""
    found = STEPS.findall(log.read_bytes()[offset:]) if log.is_file() else []
    if not found:
        return None
    done, total = int(found[-1][0]), int(found[-1][1])
    elapsed = now - started
    rest = f", about {minutes(elapsed / done * (total - done))} left" if done < total else ""
    return done, total, f"{done} of {total} jobs done, {minutes(elapsed)} elapsed{rest}"


def _watch(process: subprocess.Popen[bytes], log: Path, label: str) -> int:
    """Wait for Snakemake, printing ``label``'s progress whenever more of its jobs are done."""
    started, shown, offset = time.monotonic(), 0, log.stat().st_size
    while True:
        try:
            return process.wait(timeout=PROGRESS_SECONDS)
        except subprocess.TimeoutExpired:
            found = progress(log, offset, started, time.monotonic())
            if found and found[0] > shown:
                shown = found[0]
                print(f"{label}: {found[2]}", flush=True)


def rebuild(
    scratch: Path, targets: Sequence[str], code: Code, log: Path, settings: tuple[int, Sequence[str], bool]
) -> None:
    """Run Snakemake in ``scratch`` on ``verify.yaml`` to make ``targets`` (its output in ``log``, its progress on the
    console) with ``code``'s Python, ``settings`` being (cores, the rules allowed or none for all, resume). With
    rules, only jobs of those rules run (the other files must be there); ``resume`` goes on from an earlier run
    stopped there: its lock lifted, the jobs it left unfinished run again, and the log appended to. A failed run is
    a one-line error naming the log."""
    cores, rules, resume = settings
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(scratch / "src")}
    snakemake = [code.python, "-m", "snakemake", "--cores", str(cores), "--workflow-profile", "none"]
    command = [*snakemake, "--rerun-incomplete", *targets]
    if rules:
        command += ["--allowed-rules", *rules]
    command += ["--configfile", "verify.yaml"]  # last: --configfile takes every word after it
    with open(log, "a" if resume else "w") as out:
        if resume:  # a stopped run leaves its lock
            subprocess.run(
                [*snakemake, "--unlock", "--configfile", "verify.yaml"],
                cwd=scratch,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        out.flush()
        process = subprocess.Popen(command, cwd=scratch, stdout=out, stderr=subprocess.STDOUT, env=env)
        status = _watch(process, log, log.stem)
    if status != 0:
        raise CausalBanditsError(f"Snakemake stopped while rebuilding the jobs: see {log}")
