"""``causal-bandits verify``: check an archived run by rebuilding its jobs, at two levels, and comparing the bytes.

* **Level 1, from scratch**: a seeded random sample (:func:`sample`) of the jobs that are not derived
  (:mod:`.stages`: run chunks, aggregates, and the others such as discovery, lower bounds or arm sets), each with
  every job it needs (a chunk with its instance, an aggregate with all its chunks), while their recorded CPU fits
  the budget; then every job all of whose inputs the sample rebuilt.
* **Level 2, from the archived intermediates**: every derived job (tables, figures, claims documents, the report),
  in a scratch folder that holds the intermediates the archive keeps, Snakemake allowed only the derived jobs'
  rules and those of the few cheap jobs that prepare what the archive leaves out (the prepared raw data:
  :func:`.stages.rebuilt_with_derived`), so that it reads those files and rebuilds nothing else before them.

``--all`` rebuilds every job from scratch instead. Each level runs Snakemake in its own scratch copy of the
checkout (:func:`rebuild`), on the archived config, under the workflow's pinned CPU kernels
(:mod:`causal_bandits.kernels`); every file rebuilt is compared with the manifest (:func:`compare`): the same
bytes, or for a Parquet file whose bytes differ, the same data. The scratch folders are removed unless a file
differs or ``keep``; Snakemake's output is in ``logs/verify/`` of the checkout. A named scratch folder
(``scratch``, ``--scratch``) is kept, and a verification stopped before its end (a closed laptop, a lost session)
goes on there when run again with it, Snakemake rebuilding only what is missing (:func:`scratch_folder`): ``--all``
costs the run's whole CPU time (the papers' archive: about 45 minutes on 2 cores). What a pass establishes, and what
vouches for the archive itself (the git history it was committed in: :func:`history`), is in
docs/guide/reviewers.md#what-a-pass-means.
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

from causal_bandits import preregistration, rng
from causal_bandits.archive import manifest as archived
from causal_bandits.archive import provenance, stages
from causal_bandits.errors import CausalBanditsError

#: Where Snakemake's output of each level goes, in the checkout.
LOGS = "logs/verify"
#: The file in a named scratch folder that says which verification it holds (:func:`scratch_folder`).
STAMP = "verify-stamp.json"


def cost(job: dict[str, Any]) -> float:
    """A job's recorded CPU seconds with the tail its benchmark file did not sample (so that a sample fits its
    budget); its wall seconds when it had no benchmark file."""
    if job["cpu_s"] is None:
        return job["wall_s"] or 1.0
    return job["cpu_s"] + (job.get("cpu_unsampled_s") or 0.0)


def sample(
    jobs: list[dict[str, Any]], cpu_seconds: float, seed: int, derived: bool = False, kept: Sequence[str] = ()
) -> list[int]:
    """The jobs to rebuild from scratch (indices into ``jobs``, sorted) within ``cpu_seconds`` of recorded CPU.

    Parameters
    ----------
    jobs : list of dict
        The manifest's jobs.
    cpu_seconds : float
        The CPU seconds the sample may take, by the jobs' recorded costs.
    seed : int
        Chooses the sample (the same seed, the same sample).
    derived : bool
        Whether the sample may grow into derived jobs (an archive without intermediates has no level 2).
    kept : sequence of str
        The archive's intermediates (they decide which jobs are derived: :func:`.stages.stages`).
    """
    found = stages.stages(jobs, kept)
    pool = sorted(found.runs | found.aggregates | found.others)
    chosen: set[int] = set()
    spent = 0.0
    for i in rng.generator("archive", "verify", seed, "sample").permutation(pool):
        extra = stages.with_needs(int(i), found.needs) - chosen
        if spent + sum(cost(jobs[j]) for j in extra) <= cpu_seconds:
            chosen |= extra
            spent += sum(cost(jobs[j]) for j in extra)
    growing = set(pool) | (found.derived if derived else set())
    grown = True
    while grown:
        grown = False
        for i in sorted(growing - chosen):
            if found.needs[i] and found.needs[i] <= chosen and spent + cost(jobs[i]) <= cpu_seconds:
                chosen.add(i)
                spent += cost(jobs[i])
                grown = True
    if not chosen:
        cheapest = min(sum(cost(jobs[j]) for j in stages.with_needs(i, found.needs)) for i in pool)
        raise CausalBanditsError(
            f"the budget holds {cpu_seconds / 60:.1f} CPU-min of jobs, less than the cheapest job with what it needs "
            f"({cheapest / 60:.1f} CPU-min): raise --budget"
        )
    return sorted(chosen)


def raw_files(config: Mapping[str, Any]) -> list[str]:
    """The raw files the config pins (relative to ``data.raw_dir``): the fairness paper's data sets."""
    raw = config.get("fairness", {}).get("raw", {})
    return [entry["path"] for entry in [raw.get("adult"), *raw.get("youtube", [])] if entry]


def scratch_copy(
    checkout: Path, folder: Path, config: dict[str, Any], scratch: Path, intermediates: Sequence[str] = ()
) -> Path:
    """A copy of the checkout's code, workflow and config in ``scratch``, and of the ``intermediates`` of the archive
    in ``folder`` at their paths (over an earlier run's copies when resuming: their times are the originals', and
    Snakemake rebuilds nothing for a source file newer than what was made from it); and ``verify.yaml``: the
    archived run's merged config, its raw-data folder made absolute (returned). Missing raw files are downloaded
    into it by the workflow, as ``make reproduce`` does."""
    for code in ("src", "workflow", "config"):
        shutil.copytree(
            checkout / code,
            scratch / code,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
            dirs_exist_ok=True,
        )
    for path in intermediates:
        (scratch / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(folder / path, scratch / path)
    data = dict(config.get("data", {}))
    raw = (checkout / data.get("raw_dir", "data/raw")).resolve()
    (scratch / "verify.yaml").write_text(json.dumps({**config, "data": {**data, "raw_dir": str(raw)}}))
    return raw


def missing_raw(config: Mapping[str, Any], raw: Path) -> list[str]:
    """The pinned raw files absent from ``raw`` (a gzip copy counts)."""
    return [p for p in raw_files(config) if not (raw / p).is_file() and not (raw / f"{p}.gz").is_file()]


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


def rebuild(
    scratch: Path, targets: Sequence[str], cores: int, log: Path, rules: Sequence[str] = (), resume: bool = False
) -> None:
    """Run Snakemake in ``scratch`` on ``verify.yaml`` to make ``targets`` (its output in ``log``), only jobs of
    ``rules`` when given (the other files must be there); a failed run is a one-line error naming the log.
    ``resume`` goes on from an earlier run stopped there: its lock lifted, the jobs it left unfinished run again,
    and the log appended to."""
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(scratch / "src")}
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--workflow-profile", "none"]
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
        done = subprocess.run(command, cwd=scratch, stdout=out, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0:
        raise CausalBanditsError(f"Snakemake stopped while rebuilding the jobs: see {log}")


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


def git_history(checkout: Path, folder: Path, commit: str | None) -> str:
    """One line on what vouches for the archive: whether the checkout's history holds the commit the run was made
    at, and the commit that last changed the archive's manifest (``git log -- <folder>``), or that it is not
    committed or edited since. The manifest's digest is unkeyed: an archive and its digest edited together pass
    every other check, so these commits are the archive's authenticity."""

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=checkout, capture_output=True, text=True)

    made = f"run made at commit {commit[:12]}" if commit else "run made at an unknown commit"
    if git("rev-parse", "--git-dir").returncode != 0:
        return f"archive: {made}; {checkout} is not a git checkout, so no history vouches for the archive"
    known = bool(commit) and git("merge-base", "--is-ancestor", str(commit), "HEAD").returncode == 0
    where = (folder if folder.is_absolute() else checkout / folder).resolve()
    logged = git("log", "-1", "--format=%h %cs", "--", str(where / archived.MANIFEST)).stdout.strip()
    edited = git("status", "--porcelain", "--", str(where)).stdout.strip()
    committed = (
        f"archive committed in {logged.replace(' ', ' on ')} (git log -- {folder})"
        if logged
        else "archive not committed here"
    )
    return f"archive: {made} ({'in' if known else 'NOT in'} this checkout's history); {committed}" + (
        "; it has uncommitted changes (git status)" if logged and edited else ""
    )


@dataclass
class Level:
    """One level of a verification: which jobs, rebuilt how, and how they compared."""

    name: str
    jobs: list[int]
    from_intermediates: bool = False
    found: Comparison | None = None

    def line(self, kinds: str) -> str:
        """The level's part of the verdict, ``kinds`` saying which jobs it holds."""
        found = self.found or Comparison()
        data = f", {found.same_data} with the same data in other bytes (Parquet)" if found.same_data else ""
        wrong = f", {found.differing} differ" if found.differing else ""
        return (
            f"{self.name}: {found.same_bytes} of {found.jobs} {kinds} byte-identical{data}{wrong} ({found.files} files)"
        )


def _kinds(jobs: Sequence[int], found: stages.Stages) -> str:
    """What a set of jobs holds by stage, e.g. ``jobs (12 run chunks, 2 aggregates, 23 others)``."""
    counts = [
        (len(found.runs.intersection(jobs)), "run chunks"),
        (len(found.aggregates.intersection(jobs)), "aggregates"),
        (len(found.derived.intersection(jobs)), "derived"),
        (len(found.others.intersection(jobs)), "others"),
    ]
    return "jobs (" + ", ".join(f"{n} {name}" for n, name in counts if n) + ")"


def _run_level(
    checkout: Path,
    folder: Path,
    record: dict[str, Any],
    config: dict[str, Any],
    level: Level,
    scratch: Path,
    cores: int,
    resume: bool = False,
) -> None:
    """Rebuild ``level``'s jobs in ``scratch`` and compare them: from scratch, or (level 2) from the archived
    intermediates copied there, Snakemake allowed only those jobs' rules; ``resume`` goes on from an earlier run
    stopped in ``scratch``."""
    jobs = record["jobs"]
    copied = record["intermediates"] if level.from_intermediates else ()
    raw = scratch_copy(checkout, folder, config, scratch, copied)
    rules = sorted({jobs[i]["rule"] for i in level.jobs}) if level.from_intermediates else []
    if missing := missing_raw(config, raw):
        print(f"the raw data are not in {raw} ({missing[0]} ...): the workflow downloads them if a job needs them")
    log = checkout / LOGS / f"{level.name.split(',')[0].replace(' ', '-')}.log"
    try:
        rebuild(scratch, [o["path"] for i in level.jobs for o in jobs[i]["outputs"]], cores, log, rules, resume)
    except CausalBanditsError:
        if missing := missing_raw(config, raw):
            raise CausalBanditsError(
                f"the raw data are not in {raw} and could not be downloaded ({missing[0]} is missing; see {log}): "
                "put them there (docs/guide/reviewers.md#data), or name a folder that holds them: "
                'make verify VERIFY_ARGS="--configfile FILE" with FILE holding data: {raw_dir: /path/to/raw}'
            ) from None
        raise
    level.found = compare(jobs, level.jobs, scratch)


def verify(
    checkout: Path,
    folder: Path,
    budget_cpu_s: float,
    cores: int,
    seed: int,
    configfiles: Sequence[str] = (),
    force: bool = False,
    keep: bool = False,
    everything: bool = False,
    scratch: Path | None = None,
) -> tuple[str, bool]:
    """Check the archive in ``folder`` against ``checkout`` by rebuilding its jobs at two levels (module docstring).

    Parameters
    ----------
    checkout : Path
        The repository checkout whose code rebuilds the jobs.
    folder : Path
        The archive folder (``manifest.json``, the final artefacts and the intermediates).
    budget_cpu_s : float
        The recorded CPU seconds the level-1 sample may hold (wall time is about this over ``cores`` on idle
        cores, more on a loaded machine).
    cores : int
        Cores Snakemake may use.
    seed : int
        Chooses the sample.
    configfiles : sequence of str
        Config files merged over the archived ones (e.g. one naming ``data.raw_dir``).
    force : bool
        Go on, with a warning, when the code, config or lock file differ from the archive's.
    keep : bool
        Keep the scratch folders (they are kept anyway when something differs).
    everything : bool
        Rebuild every job from scratch instead of a sample and the derived jobs.
    scratch : Path, optional
        Rebuild in this folder and keep it, going on from an earlier run of the same verification stopped there
        (:func:`scratch_folder`); default: a new temporary folder.

    Returns
    -------
    verdict : str
        One line a reviewer can quote.
    identical : bool
        Whether every rebuilt file matched.
    """
    started = time.monotonic()
    record = archived.read(folder)
    preregistration.refuse_forged(record.get("rules", {}))  # its rules' fingerprints, as this registry knows them
    made = record["provenance"]
    print(git_history(checkout, folder, made.get("commit")), flush=True)
    check_provenance(made, current_provenance(checkout, made, configfiles), force)
    jobs, intermediates = record["jobs"], record.get("intermediates", ())
    found = stages.stages(jobs, intermediates)
    two_levels = "intermediates" in record and not everything
    if everything:
        levels = [Level("every job from scratch", list(range(len(jobs))))]
    else:
        chosen = sample(jobs, budget_cpu_s, seed, derived=not two_levels, kept=intermediates)
        levels = [Level(f"level 1, from scratch (seed {seed})", chosen)]
        if two_levels:
            again = stages.rebuilt_with_derived(jobs, found, intermediates)
            levels.append(Level("level 2, from the archived intermediates", sorted(again), True))
    for level in levels:
        cpu_min = sum(cost(jobs[i]) for i in level.jobs) / 60
        print(f"{level.name}: {_kinds(level.jobs, found)}, {cpu_min:.1f} CPU-min as recorded; on {cores} cores")
    config = provenance.merged_config(checkout, [*made["config"]["files"], *configfiles])
    resume = False
    if scratch is None:
        root, kept = Path(tempfile.mkdtemp(prefix="causal-bandits-verify-")), keep
    else:
        stamp = {"archive": record.get("digest"), "levels": {level.name: level.jobs for level in levels}}
        root, kept = scratch.resolve(), True
        resume = scratch_folder(root, stamp)
        if resume:
            print(f"going on with the verification stopped in {root}")
    try:
        for n, level in enumerate(levels, 1):
            _run_level(checkout, folder, record, config, level, root / f"level{n}", cores, resume)
            for line in level.found.differ if level.found else ():
                print(f"differs: {line}")
        kept = kept or any(level.found and level.found.differ for level in levels)
    finally:
        if not kept:
            shutil.rmtree(root, ignore_errors=True)
    parts = [level.line(_kinds(level.jobs, found)) for level in levels]
    if not everything and not two_levels:
        parts.append(
            "the derived jobs not checked: this archive (format 1) predates the archived intermediates "
            "(remake it: causal-bandits archive)"
        )
    parts.append(_minutes(time.monotonic() - started))
    verdict = "; ".join(parts) + (f"; rebuilt files kept in {root}" if kept else "")
    return verdict, not any(level.found and level.found.differ for level in levels)


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
