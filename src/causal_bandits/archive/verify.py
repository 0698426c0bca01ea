"""``causal-bandits verify``: check an archived run by rebuilding its jobs, at two levels, and comparing the bytes.

* **Level 1, from scratch**: a seeded random sample (:func:`sample`) of the jobs that are not derived
  (:mod:`.stages`: run chunks, aggregates, and the others such as discovery, lower bounds or arm sets), each with
  every job it needs (a chunk with its instance, an aggregate with all its chunks), while their recorded CPU fits
  the budget; then every job all of whose inputs the sample rebuilt.
* **Level 2, from the archived intermediates**: every derived job (tables, figures, claims documents, the report),
  in a scratch folder that holds the intermediates the archive keeps, Snakemake allowed only the derived jobs'
  rules and those of the few cheap jobs that prepare what the archive leaves out (the prepared raw data:
  :func:`.stages.rebuilt_with_derived`), so that it reads those files and rebuilds nothing else before them.

``--all`` rebuilds every job from scratch instead. Each level runs Snakemake in its own scratch copy of the code
the run ran (:mod:`.rebuild`): the checkout's when its code, config and lock file are the archive's record, else
the run's commit checked out in a temporary git worktree (:mod:`.at_commit`), so that a later commit that edits job
code leaves every archive verifiable. It runs on the archived config, under the workflow's pinned CPU kernels
(:mod:`causal_bandits.kernels`), printing its progress; every file rebuilt is compared with the manifest
(:func:`compare`): the same bytes, or for a Parquet file whose bytes differ, the same data. The scratch folders are
removed unless a file differs or ``keep``; Snakemake's output is in ``logs/verify/`` of the checkout. A named scratch
folder (``--scratch``) is kept, and a verification stopped before its end (a closed laptop, a lost session) goes on
there when run again with it, Snakemake rebuilding only what is missing (:func:`.rebuild.scratch_folder`); ``--all``
costs the run's whole CPU time. What a pass establishes, and what vouches for the archive itself (the git history it
was committed in: :func:`git_history`), is in docs/guide/reviewers.md#what-a-pass-means.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from causal_bandits import preregistration, rng
from causal_bandits.archive import at_commit, provenance, rebuild, stages
from causal_bandits.archive import manifest as archived
from causal_bandits.archive.at_commit import Code
from causal_bandits.data import raw as raw_data
from causal_bandits.errors import CausalBanditsError

#: Where Snakemake's output of each level goes, in the checkout.
LOGS = "logs/verify"


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


def _status(entry: dict[str, Any], scratch: Path) -> str | None:
    """``None`` when a rebuilt output has the archived bytes, ``"data"`` when only its data are the
    same (a Parquet file), else what differs."""
    path = scratch / entry["path"]
    if not path.exists():
        return f"{entry['path']}: not rebuilt"
    rebuilt = provenance.output_sha256(path)
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


@dataclass(frozen=True)
class Settings:
    """How to verify: the level-1 sample's budget (recorded CPU seconds; wall time is about this over ``cores`` on
    idle cores), the cores Snakemake may use, the seed that chooses the sample, config files merged over the
    archived ones (e.g. one naming ``data.raw_dir``), ``force`` (rebuild with this checkout's code even where it
    differs from the run's, with a warning), ``keep`` (keep the scratch folders; kept anyway when a file differs),
    ``everything`` (every job from scratch instead of a sample and the derived jobs) and ``scratch`` (a folder to
    rebuild in and keep, going on from an earlier run of the same verification stopped there:
    :func:`.rebuild.scratch_folder`; default a new temporary folder)."""

    budget_cpu_s: float = 15 * 60.0
    cores: int = 2
    seed: int = 0
    configfiles: tuple[str, ...] = ()
    force: bool = False
    keep: bool = False
    everything: bool = False
    scratch: Path | None = None


def plan(record: dict[str, Any], settings: Settings) -> list[Level]:
    """The levels of a verification of the archived run ``record``: every job from scratch (``everything``), or a
    sample from scratch and, when the archive keeps intermediates, every derived job from them."""
    jobs, intermediates = record["jobs"], record.get("intermediates", ())
    if settings.everything:
        return [Level("every job from scratch", list(range(len(jobs))))]
    two_levels = "intermediates" in record
    chosen = sample(jobs, settings.budget_cpu_s, settings.seed, derived=not two_levels, kept=intermediates)
    levels = [Level(f"level 1, from scratch (seed {settings.seed})", chosen)]
    if two_levels:
        again = stages.rebuilt_with_derived(jobs, stages.stages(jobs, intermediates), intermediates)
        levels.append(Level("level 2, from the archived intermediates", sorted(again), True))
    return levels


@dataclass(frozen=True)
class Place:
    """Where a verification works: the checkout (its raw data, ``logs/verify/``), the archive folder, and the code
    the jobs are rebuilt with (the checkout's or the run's commit's)."""

    checkout: Path
    folder: Path
    code: Code


def _run_level(place: Place, record: dict[str, Any], level: Level, scratch: Path, settings: Settings) -> None:
    """Rebuild ``level``'s jobs with ``place``'s code in ``scratch`` and compare them: from scratch, or (level 2)
    from the archived intermediates copied there, Snakemake allowed only those jobs' rules."""
    jobs, checkout, code = record["jobs"], place.checkout, place.code
    config = provenance.merged_config(code.root, [*record["provenance"]["config"]["files"], *settings.configfiles])
    copied = record["intermediates"] if level.from_intermediates else ()
    raw = rebuild.scratch_copy(code.root, checkout, place.folder, config, scratch, copied)
    rules = sorted({jobs[i]["rule"] for i in level.jobs}) if level.from_intermediates else []
    if missing := rebuild.missing_raw(config, raw):
        print(f"the raw data are not in {raw} ({missing[0]} ...): the workflow downloads them if a job needs them")
    log = checkout / LOGS / f"{level.name.split(',')[0].replace(' ', '-')}.log"
    targets = [o["path"] for i in level.jobs for o in jobs[i]["outputs"]]
    try:
        rebuild.rebuild(scratch, targets, code, log, (settings.cores, rules, (scratch / ".snakemake").is_dir()))
    except CausalBanditsError:
        if missing := rebuild.missing_raw(config, raw):
            raise CausalBanditsError(
                f"the raw data are not in {raw} and could not be downloaded ({missing[0]} is missing; see {log}): "
                "put them there (docs/guide/reviewers.md#data), or name a folder that holds them: "
                'make verify VERIFY_ARGS="--configfile FILE" with FILE holding data: {raw_dir: /path/to/raw}'
            ) from None
        raise
    level.found = compare(jobs, level.jobs, scratch)


def _scratch_root(record: dict[str, Any], levels: Sequence[Level], settings: Settings) -> tuple[Path, bool]:
    """The folder the levels rebuild in (a subfolder each) and whether to keep it: a new temporary one, or the named
    ``scratch`` (kept), going on with the verification stopped there when it holds this one."""
    if settings.scratch is None:
        return Path(tempfile.mkdtemp(prefix="causal-bandits-verify-")), settings.keep
    root = settings.scratch.resolve()
    stamp = {"archive": record.get("digest"), "levels": {level.name: level.jobs for level in levels}}
    if rebuild.scratch_folder(root, stamp):
        print(f"going on with the verification stopped in {root}")
    return root, True


def _rebuild_levels(place: Place, record: dict[str, Any], levels: Sequence[Level], settings: Settings) -> Path | None:
    """Rebuild and compare every level at ``place``; the folder the rebuilt files are kept in, if kept."""
    root, kept = _scratch_root(record, levels, settings)
    try:
        for n, level in enumerate(levels, 1):
            _run_level(place, record, level, root / f"level{n}", settings)
            for line in level.found.differ if level.found else ():
                print(f"differs: {line}")
        kept = kept or any(level.found and level.found.differ for level in levels)
    finally:
        if not kept:
            shutil.rmtree(root, ignore_errors=True)
    return root if kept else None


def verify(checkout: Path, folder: Path, settings: Settings) -> tuple[str, bool]:
    """Check the archive in ``folder`` by rebuilding its jobs at two levels (module docstring) with the code its run
    ran: the checkout's, or the run's commit in a temporary worktree (:mod:`.at_commit`). Returns a one-line verdict
    a reviewer can quote, and whether every rebuilt file matched."""
    started = time.monotonic()
    record = archived.read(folder)
    preregistration.refuse_forged(record.get("rules", {}))  # its rules' fingerprints, as this registry knows them
    made = record["provenance"]
    print(git_history(checkout, folder, made.get("commit")), flush=True)
    # Checks that need no rebuild come here, one call each, before anything is rebuilt (the raw data, the rules'
    # fingerprints against the checkout's registry).
    settings = replace(settings, configfiles=tuple(str((checkout / f).resolve()) for f in settings.configfiles))
    config = provenance.merged_config(checkout, [*made["config"]["files"], *settings.configfiles])
    raw_data.check_before_run(config, checkout / config.get("data", {}).get("raw_dir", "data/raw"))
    levels = plan(record, settings)
    found = stages.stages(record["jobs"], record.get("intermediates", ()))
    with at_commit.code_for(checkout, made, settings.configfiles, settings.force) as code:
        for level in levels:
            cpu_min = sum(cost(record["jobs"][i]) for i in level.jobs) / 60
            print(
                f"{level.name}: {len(level.jobs)} {_kinds(level.jobs, found)}, {cpu_min:.1f} CPU-min as recorded; "
                f"on {settings.cores} cores",
                flush=True,
            )
        kept = _rebuild_levels(Place(checkout, folder, code), record, levels, settings)
    parts = [level.line(_kinds(level.jobs, found)) for level in levels]
    if "intermediates" not in record and not settings.everything:
        parts.append(
            "the derived jobs not checked: this archive (format 1) predates the archived intermediates "
            "(remake it: causal-bandits archive)"
        )
    commit = f"the code of commit {str(code.commit)[:12]}" if code.commit else "this checkout's code"
    parts.append(f"rebuilt with {commit} in {rebuild.minutes(time.monotonic() - started)}")
    verdict = "; ".join(parts) + (f"; rebuilt files kept in {kept}" if kept else "")
    return verdict, not any(level.found and level.found.differ for level in levels)
