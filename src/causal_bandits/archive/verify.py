"""``causal-bandits verify``: rebuild a seeded random sample of an archived run's jobs and compare.

The sample (:func:`sample`) takes run chunks in a random order keyed by the seed, each with the jobs
it needs (its instance, its prepared data), while their recorded CPU seconds fit the budget, then
every other job all of whose inputs it rebuilt (an experiment's aggregate when all its chunks were
drawn). The jobs are rebuilt by Snakemake in a scratch copy of the checkout (:func:`rebuild`), on
the archived config; every file they wrote is compared with the manifest (:func:`compare`): the
same bytes, or for a Parquet file whose bytes differ, the same data.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from causal_bandits import rng
from causal_bandits.archive import manifest as archived
from causal_bandits.archive import provenance
from causal_bandits.errors import CausalBanditsError

#: Where run chunks are written (the run store): the jobs drawn first.
RUN_STORE = "results/runs/"
#: Wall seconds of a verification not spent in jobs (copying, Snakemake's planning, comparing).
OVERHEAD_S = 60.0
#: The share of the cores' time the rebuilt jobs are expected to keep busy.
EFFICIENCY = 0.8


def cost(job: dict[str, Any]) -> float:
    """A job's recorded CPU seconds with the tail its benchmark file did not sample (so that a sample fits its
    budget); its wall seconds when it had no benchmark file."""
    if job["cpu_s"] is None:
        return job["wall_s"] or 1.0
    return job["cpu_s"] + (job.get("cpu_unsampled_s") or 0.0)


def _needs(jobs: list[dict[str, Any]]) -> list[set[int]]:
    """For each job, the jobs that wrote its inputs."""
    writer = {o["path"]: i for i, job in enumerate(jobs) for o in job["outputs"]}
    return [{writer[path] for path in job["inputs"] if path in writer} for job in jobs]


def _with_needs(start: int, needs: list[set[int]]) -> set[int]:
    found, todo = set(), [start]
    while todo:
        i = todo.pop()
        if i not in found:
            found.add(i)
            todo.extend(needs[i])
    return found


def sample(jobs: list[dict[str, Any]], cpu_seconds: float, seed: int) -> list[int]:
    """The jobs to rebuild (indices into ``jobs``, sorted) within ``cpu_seconds`` of recorded CPU.

    Parameters
    ----------
    jobs : list of dict
        The manifest's jobs.
    cpu_seconds : float
        The CPU seconds the sample may take, by the jobs' recorded costs.
    seed : int
        Chooses the sample (the same seed, the same sample).
    """
    needs = _needs(jobs)
    runs = [i for i, job in enumerate(jobs) if job["outputs"][0]["path"].startswith(RUN_STORE)]
    chosen: set[int] = set()
    spent = 0.0
    for i in rng.generator("archive", "verify", seed, "sample").permutation(runs):
        extra = _with_needs(int(i), needs) - chosen
        if spent + sum(cost(jobs[j]) for j in extra) <= cpu_seconds:
            chosen |= extra
            spent += sum(cost(jobs[j]) for j in extra)
    grown = True
    while grown:
        grown = False
        for i, job in enumerate(jobs):
            if i not in chosen and needs[i] and needs[i] <= chosen and spent + cost(job) <= cpu_seconds:
                chosen.add(i)
                spent += cost(job)
                grown = True
    if not chosen:
        cheapest = min(sum(cost(jobs[j]) for j in _with_needs(i, needs)) for i in runs)
        raise CausalBanditsError(
            f"the budget holds {cpu_seconds:.0f} CPU-s of jobs, less than the cheapest run chunk "
            f"({cheapest:.0f} CPU-s with what it needs): raise --budget or --jobs"
        )
    return sorted(chosen)


def scratch_copy(checkout: Path, config: dict[str, Any], scratch: Path) -> None:
    """A copy of the checkout's code, workflow and config in ``scratch``, with ``verify.yaml``: the
    archived run's merged config, its raw-data folder made absolute."""
    for folder in ("src", "workflow", "config"):
        shutil.copytree(checkout / folder, scratch / folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    data = dict(config.get("data", {}))
    raw = (checkout / data.get("raw_dir", "data/raw")).resolve()
    if not raw.is_dir():
        raise CausalBanditsError(
            f"the raw data folder {raw} is missing: put the raw files there (docs/guide/reviewers.md#data) "
            "or name another with --configfile FILE holding data: {raw_dir: ...}"
        )
    (scratch / "verify.yaml").write_text(json.dumps({**config, "data": {**data, "raw_dir": str(raw)}}))


def rebuild(scratch: Path, targets: Sequence[str], cores: int) -> None:
    """Run Snakemake in ``scratch`` on ``verify.yaml`` to make ``targets`` (its output in
    ``snakemake.log`` there); a failed run is a one-line error naming the log."""
    log = scratch / "snakemake.log"
    command = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--workflow-profile", "none"]
    command += [*targets, "--configfile", "verify.yaml"]  # targets first: --configfile takes every word after it
    with open(log, "w") as out:
        done = subprocess.run(
            command,
            cwd=scratch,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(scratch / "src")},
        )
    if done.returncode != 0:
        raise CausalBanditsError(f"Snakemake stopped while rebuilding the sample: see {log}")


def _status(entry: dict[str, Any], scratch: Path) -> str | None:
    """``None`` when a rebuilt output has the archived bytes, ``"data"`` when only its data are the
    same (a Parquet file), else what differs."""
    path = scratch / entry["path"]
    if not path.is_file():
        return f"{entry['path']}: not rebuilt"
    rebuilt = provenance.file_sha256(path)
    if rebuilt == entry["sha256"]:
        return None
    if "data_sha256" in entry and archived.data_sha256(path) == entry["data_sha256"]:
        return "data"
    return f"{entry['path']}: archived sha256 {entry['sha256']}, rebuilt {rebuilt}"


@dataclass
class Comparison:
    """How the sampled jobs' rebuilt outputs compare with the manifest."""

    jobs: int = 0
    files: int = 0
    same_data: int = 0
    differing: int = 0
    differ: list[str] = field(default_factory=list)

    @property
    def same_bytes(self) -> int:
        """Jobs all of whose outputs have the archived bytes."""
        return self.jobs - self.same_data - self.differing


def compare(jobs: list[dict[str, Any]], chosen: Sequence[int], scratch: Path) -> Comparison:
    """Compare every output of the ``chosen`` jobs rebuilt in ``scratch`` with the manifest."""
    found = Comparison(jobs=len(chosen))
    for i in chosen:
        statuses = [_status(entry, scratch) for entry in jobs[i]["outputs"]]
        found.files += len(statuses)
        wrong = [s for s in statuses if s not in (None, "data")]
        found.differ += wrong
        found.differing += bool(wrong)
        found.same_data += not wrong and "data" in statuses
    return found


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def current_provenance(checkout: Path, record: dict[str, Any], configfiles: Sequence[str]) -> dict[str, Any]:
    """The checkout's provenance, comparable with the archived ``record`` (its code files, the
    archive's config files with ``configfiles`` merged over them, its lock file)."""
    files = [*record["config"]["files"], *configfiles]
    return {
        "code": provenance.code_files(checkout, (p for p in record["code"] if not p.startswith(provenance.WORKFLOW))),
        "config": {"sha256": provenance.config_sha256(provenance.merged_config(checkout, files))},
        "lock": {"sha256": provenance.file_sha256(checkout / provenance.LOCK)},
    }


def verify(
    checkout: Path,
    folder: Path,
    budget_s: float,
    cores: int,
    seed: int,
    configfiles: Sequence[str] = (),
    force: bool = False,
    keep: bool = False,
) -> tuple[str, bool]:
    """Check the archive in ``folder`` against ``checkout`` by rebuilding a sample of its jobs.

    Parameters
    ----------
    checkout : Path
        The repository checkout whose code rebuilds the jobs.
    folder : Path
        The archive folder (``manifest.json`` and the final artefacts).
    budget_s : float
        Wall seconds the verification may take on ``cores`` cores; sizes the sample.
    cores : int
        Cores Snakemake may use.
    seed : int
        Chooses the sample.
    configfiles : sequence of str
        Config files merged over the archived ones (e.g. one naming ``data.raw_dir``).
    force : bool
        Go on, with a warning, when the code, config or lock file differ from the archive's.
    keep : bool
        Keep the scratch folder (it is kept anyway when something differs).

    Returns
    -------
    verdict : str
        One line a reviewer can quote.
    identical : bool
        Whether every rebuilt file matched.
    """
    started = time.monotonic()
    record = archived.read(folder)
    made = record["provenance"]
    check_provenance(made, current_provenance(checkout, made, configfiles), force)
    jobs = record["jobs"]
    chosen = sample(jobs, max(budget_s - OVERHEAD_S, 0.0) * cores * EFFICIENCY, seed)
    print(_sample_line(jobs, chosen, seed, cores), flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="causal-bandits-verify-"))
    config = provenance.merged_config(checkout, [*made["config"]["files"], *configfiles])
    scratch_copy(checkout, config, scratch)
    rebuild(scratch, [o["path"] for i in chosen for o in jobs[i]["outputs"]], cores)
    found = compare(jobs, chosen, scratch)
    for line in found.differ:
        print(f"differs: {line}")
    kept = keep or bool(found.differ)
    if not kept:
        shutil.rmtree(scratch)
    verdict = _verdict(found, seed, time.monotonic() - started) + (f"; rebuilt files kept in {scratch}" if kept else "")
    return verdict, not found.differ


def check_provenance(made: Mapping[str, Any], current: Mapping[str, Any], force: bool) -> None:
    """Refuse (one line) a checkout whose code, config or lock file differ from the archived run's, or with
    ``force`` print a warning per difference and go on."""
    differ = provenance.differences(made, current)
    if differ and not force:
        raise CausalBanditsError(
            f"this checkout differs from the archived run ({made['commit'] or 'commit unknown'}) in "
            f"{'; '.join(differ)}: check out that commit, or pass --force to verify anyway"
        )
    for line in differ:
        print(f"warning: this checkout differs from the archived run in {line}; verifying anyway (--force)")


def _sample_line(jobs: list[dict[str, Any]], chosen: Sequence[int], seed: int, cores: int) -> str:
    runs = sum(jobs[i]["outputs"][0]["path"].startswith(RUN_STORE) for i in chosen)
    cpu_min = sum(cost(jobs[i]) for i in chosen) / 60
    return (
        f"sample (seed {seed}): {len(chosen)} of {len(jobs)} jobs, {runs} of them run chunks, "
        f"{cpu_min:.1f} CPU-min as recorded; rebuilding on {cores} cores"
    )


def _verdict(found: Comparison, seed: int, seconds: float) -> str:
    data = f", {found.same_data} with the same data in other bytes (Parquet)" if found.same_data else ""
    wrong = f", {found.differing} differ" if found.differing else ""
    return (
        f"{found.same_bytes} of {found.jobs} sampled jobs byte-identical{data}{wrong} "
        f"({found.files} files); seed {seed}; {_minutes(seconds)}"
    )
