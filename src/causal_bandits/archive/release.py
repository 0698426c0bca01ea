"""A release: a version recorded in the repository, with the papers' and the studies' archives made at its commit.

``causal-bandits release X.Y.Z`` (``make release VERSION=X.Y.Z``), from a clean checkout:

1. refuses a dirty tree, a version not above the current one, a claim rule the registry does not hold
   (``causal-bandits rules check``, exit 1; a checkout without that command is refused too), or raw data the runs
   would miss (:func:`check_raw`);
2. writes the version into pyproject.toml, CITATION.cff and the package, and rewrites the byte guard's list
   (the version is stamped in every Parquet file: :mod:`.byte_guard`), and commits them: the release's commit;
3. runs the papers, then the studies (``config/studies.yaml``), in one run folder, a worktree of that commit
   (``.release/X.Y.Z``), archiving each (``archive/paper-scale``, ``archive/studies``) and verifying both;
4. writes the release's CHANGELOG.md entry (:mod:`.changelog`), rewrites the docs' quotes from the new archives
   (:mod:`.markers`), commits them, tags ``vX.Y.Z``, and runs the tests that read the docs against the archives
   (:func:`check_docs`: prose the new verdicts contradict is for a commit after the release's).

Before step 2 it prints the release's estimated cost (:mod:`.release_cost`). A release stopped after step 2 (a
job failed for want of memory or disk, a session lost) goes on when the same command is run again at that commit
(:func:`resume`): the run folder keeps what Snakemake finished. A release stopped by the code is redone at a new
commit: ``git reset --hard HEAD~1`` drops the version commit, then the fix is committed and the command run again.

``configfiles`` overlay both runs (``config/tiny.yaml``: a trial of the command in a scratch clone).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from causal_bandits.archive import changelog, manifest, markers, provenance, quotes, release_cost
from causal_bandits.archive import verify as verifying
from causal_bandits.data import raw as raw_data
from causal_bandits.errors import CausalBanditsError

#: The version files and each one's version line.
VERSION_LINES = {
    "pyproject.toml": re.compile(r'^version = "([^"]+)"$', re.M),
    "CITATION.cff": re.compile(r"^version: (\S+)$", re.M),
    "src/causal_bandits/__init__.py": re.compile(r'^__version__ = "([^"]+)"$', re.M),
}
SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
#: The run folder of a release, under the checkout.
RUNS = ".release"
#: Where the tests, the byte guard's tiny run among them, read the raw data, beside the checkout (CI's layout:
#: tests/workflow_helpers.py, ``SHARED_RAW``).
TESTS_RAW = "shared/data/raw"
#: The byte guard's list, rewritten in the release's first commit.
GUARD = "tests/tiny_digests.txt"
#: The studies' config, run after the papers in the same folder.
STUDIES = "config/studies.yaml"


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise CausalBanditsError(
            f"git {' '.join(args)} failed: {(done.stderr.strip() or done.stdout).splitlines()[-1]}"
        )
    return done.stdout.strip()


def current_version(root: Path) -> str:
    """The version pyproject.toml states."""
    found = VERSION_LINES["pyproject.toml"].search((root / "pyproject.toml").read_text())
    if not found:
        raise CausalBanditsError('pyproject.toml states no version = "X.Y.Z" line: add one')
    return found[1]


def check_version(version: str, current: str) -> None:
    """Refuse a version that is not X.Y.Z or not above ``current``."""
    new, old = SEMVER.match(version), SEMVER.match(current)
    if not new:
        raise CausalBanditsError(f"VERSION={version!r} is not X.Y.Z: give e.g. make release VERSION=1.0.0")
    if old and tuple(map(int, new.groups())) <= tuple(map(int, old.groups())):
        raise CausalBanditsError(f"version {version} is not above the current {current}: give a higher one")


def check_clean(root: Path) -> None:
    """Refuse a checkout with uncommitted changes or untracked files (the release's commit must be its code)."""
    if status := _git(root, "status", "--porcelain"):
        raise CausalBanditsError(
            f"the tree is not clean ({len(status.splitlines())} changed or untracked files, git status): "
            "commit or stash them first"
        )


def bump_message(version: str) -> str:
    """The subject of a release's first commit (the version bumped): the commit its archives are made at."""
    return f"Release {version}: the version, and the byte guard's list for it"


def resume(root: Path, version: str) -> bool:
    """Whether ``root`` is at release ``version``'s first commit (a release stopped after it): if so, the files the
    release writes after it are restored to that commit (the archives, CHANGELOG.md, the docs' quotes) and the
    release goes on from its run; a change to any other file is refused as in :func:`check_clean`."""
    if current_version(root) != version or _git(root, "log", "-1", "--format=%s") != bump_message(version):
        return False
    folders = [str(quotes.FOLDERS["archive"]), str(quotes.FOLDERS["studies"])]
    written = {changelog.CHANGELOG, *(str(path.relative_to(root)) for path in markers.files(root))}
    changed = _git(root, "diff", "--name-only", "HEAD").splitlines()
    if restored := [p for p in changed if p in written or any(p.startswith(f"{f}/") for f in folders)]:
        _git(root, "checkout", "HEAD", "--", *restored)
    _git(root, "clean", "-fdq", "--", *folders)
    check_clean(root)
    print(f"going on with release {version} from its commit {_git(root, 'rev-parse', '--short=12', 'HEAD')}")
    return True


def check_rules(root: Path) -> None:
    """Refuse a claim rule the registry does not hold (``causal-bandits rules check``: 0 all registered, 1 not)."""
    done = subprocess.run(
        [sys.executable, "-m", "causal_bandits", "rules", "check"], cwd=root, capture_output=True, text=True
    )
    if done.returncode == 0:
        return
    if "invalid choice: 'rules'" in done.stderr:
        raise CausalBanditsError(
            "this checkout has no `causal-bandits rules check`, so it cannot show that every rule is registered: "
            "release from a checkout that has it"
        )
    shown = (done.stdout + done.stderr).strip().splitlines()
    raise CausalBanditsError(f"causal-bandits rules check refused: {shown[-1] if shown else 'no output'}")


def check_raw(root: Path, overlay: Sequence[str]) -> None:
    """Refuse raw data the runs would find missing and could not download, or with other bytes than pinned, before
    anything is changed (:func:`causal_bandits.data.raw.check_before_run`, as ``make reproduce`` does): under the
    config's ``data.raw_dir``, and where the tests read them (:data:`TESTS_RAW`: the byte guard's tiny run, whose
    list the release rewrites, would otherwise run on stand-ins and list other bytes than CI's run writes)."""
    for files in ([*overlay], [STUDIES, *overlay]):
        config = provenance.merged_config(root, files)
        raw_data.check_before_run(config, root / config.get("data", {}).get("raw_dir", "data/raw"))
    tests = root.parent / TESTS_RAW
    found = raw_data.present(tests, raw_data.pinned(provenance.merged_config(root, [])), None)
    if missing := [path for path, where in found.items() if where is None]:
        raise CausalBanditsError(
            f"the tests' raw data are not at {tests} ({missing[0]} is missing): the byte guard's tiny run, whose list "
            f"the release rewrites, would run on stand-ins; link them there, e.g. ln -s {root / 'data/raw'} {tests}"
        )


def bump(root: Path, version: str) -> None:
    """Write ``version`` into every version file (and today's date into CITATION.cff's ``date-released``)."""
    for name, line in VERSION_LINES.items():
        path = root / name
        text = path.read_text()
        if not line.search(text):
            raise CausalBanditsError(f"{name} has no version line to bump ({line.pattern}): add one")
        text = line.sub(lambda m: m[0].replace(m[1], version), text, count=1)
        if name == "CITATION.cff":
            today = datetime.now(UTC).date().isoformat()
            text = re.sub(r"^date-released: .*$", f"date-released: {today}", text, flags=re.M)
            if "date-released:" not in text:
                text = text.replace(f"version: {version}\n", f"version: {version}\ndate-released: {today}\n")
        path.write_text(text)


def _run(folder: Path, cores: str, configfiles: Sequence[str]) -> None:
    """Snakemake to the end in ``folder`` with ``configfiles`` (its output on the console)."""
    command = [sys.executable, "-m", "snakemake", "--cores", cores]
    if configfiles:
        command += ["--configfile", *configfiles]
    if subprocess.run(command, cwd=folder).returncode != 0:
        raise CausalBanditsError(f"the release's run stopped in {folder}: see its output above, fix, and release again")


def _archive(folder: Path, configfiles: Sequence[str], out: Path) -> None:
    command = [sys.executable, "-m", "causal_bandits", "archive", "--out", str(out)]
    if configfiles:
        command += ["--configfile", *configfiles]
    if subprocess.run(command, cwd=folder).returncode != 0:
        raise CausalBanditsError(f"causal-bandits archive --out {out} failed in {folder}")


def run_and_archive(root: Path, version: str, cores: str, overlay: Sequence[str]) -> Path:
    """The papers, then the studies, run in one worktree of HEAD and archived into ``root``'s archive folders."""
    folder = root / RUNS / version
    if folder.is_dir() and _git(folder, "rev-parse", "HEAD") != _git(root, "rev-parse", "HEAD"):
        _git(root, "worktree", "remove", "--force", str(folder))  # a stopped release's, at another commit
    if not folder.is_dir():
        _git(root, "worktree", "prune")
        _git(root, "worktree", "add", "--detach", str(folder), "HEAD")
    raw = root / "data" / "raw"
    if raw.is_dir() and not (folder / "data" / "raw").exists():
        (folder / "data").mkdir(exist_ok=True)
        (folder / "data" / "raw").symlink_to(raw.resolve())
    papers, studies = [*overlay], [STUDIES, *overlay]
    _run(folder, cores, papers)
    _archive(folder, papers, root / quotes.FOLDERS["archive"])
    _run(folder, cores, studies)
    _archive(folder, studies, root / quotes.FOLDERS["studies"])
    return folder


def verify_both(root: Path, cores: int) -> list[str]:
    """Each archive verified from ``root`` (a sample and every derived job); the verdict lines."""
    lines = []
    for kind, folder in quotes.FOLDERS.items():
        verdict, identical = verifying.verify(root, folder, verifying.Settings(cores=cores))
        if not identical:
            raise CausalBanditsError(f"the {kind} archive does not verify ({verdict}): nothing is committed")
        lines.append(f"`{manifest.verify_command(folder)}`: {verdict}")
    return lines


def cores_number(cores: str) -> int:
    """Snakemake's ``--cores`` value as a number (``all``: the machine's)."""
    if cores == "all":
        return os.cpu_count() or 2
    if not cores.isdigit() or int(cores) < 1:
        raise CausalBanditsError(f"--cores {cores!r} is not a number of cores: give e.g. CORES=2, or all")
    return int(cores)


def release(root: Path, version: str, cores: str, overlay: Sequence[str]) -> str:
    """Make release ``version`` in the checkout ``root`` (module docstring); the release's commit."""
    going_on = resume(root, version)
    if not going_on:
        check_version(version, current_version(root))
        check_clean(root)
    check_rules(root)
    check_raw(root, overlay)
    for line in release_cost.estimate(root, cores_number(cores)):
        print(line, flush=True)
    if overlay:
        print(f"(the estimate is of the release's own configs; this run overlays {' '.join(overlay)})", flush=True)
    previous = changelog.Snapshot.of(root)
    if not going_on:
        bump(root, version)
        _regenerate_guard(root, version)
        _git(root, "commit", "-qm", bump_message(version), "--", *VERSION_LINES, GUARD)
    commit = _git(root, "rev-parse", "HEAD")
    run_and_archive(root, version, cores, overlay)
    lines = verify_both(root, cores_number(cores))
    entry = changelog.entry(version, commit, previous, changelog.Snapshot.of(root), lines)
    changelog.write(root / changelog.CHANGELOG, version, entry)
    markers.rewrite(root)
    if not overlay:  # a trial at another scale (--configfile) has no paper-scale archive to fit them to
        refit_from_archive(root)
    _git(root, "add", "-A", str(quotes.FOLDERS["archive"]), str(quotes.FOLDERS["studies"]), changelog.CHANGELOG)
    _git(root, "commit", "-qam", f"Release {version}: the archives made at {commit[:12]}, the changelog, the quotes")
    _git(root, "tag", "-a", f"v{version}", "-m", f"Release {version}")  # annotated: git push --follow-tags sends it
    check_docs(root)
    return commit


#: What the papers' archive fits, refitted from the release's: the run jobs' memory peaks, the SLURM profile's
#: requests, and the seed plan for the claims it leaves inconclusive (the next run's, recorded before it).
REFITS = (
    ("benchmarks/resources.py", "--write-peaks", "--write-profile", "workflow/profiles/slurm/config.yaml"),
    ("-m", "causal_bandits.seed_plans", "--write", "--claims", "archive/paper-scale/results/claims"),
)


def refit_from_archive(root: Path) -> None:
    """Run :data:`REFITS` on the new papers' archive (their files land in the release's archive commit)."""
    for args in REFITS:
        done = subprocess.run([sys.executable, *args], cwd=root, capture_output=True, text=True)
        if done.returncode != 0:
            shown = (done.stderr.strip() or done.stdout.strip()).splitlines()
            raise CausalBanditsError(f"python {' '.join(args)} failed: {shown[-1] if shown else 'no output'}")


#: The tests that read the docs and the refitted files against the archives: run on the release's new archives
#: once they are committed.
DOCS_TESTS = (
    "tests/test_docs_record.py",
    "tests/test_docs_verdict_words.py",
    "tests/test_docs_archive.py",
    "tests/test_seed_plans.py",
    "tests/test_run_jobs.py",
)


def check_docs(root: Path) -> None:
    """Run :data:`DOCS_TESTS` on the committed release: the quotes and the refits are the new archives', but prose
    that names a verdict or a claim the new archives changed is not rewritten by the release; a failure names the
    next commit."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *DOCS_TESTS]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        shown = "\n".join(done.stdout.strip().splitlines()[-15:])
        raise CausalBanditsError(
            f"the release is committed and tagged, but the docs disagree with its archives (CI fails until fixed):\n"
            f"{shown}\nfix the prose the tests name in a commit after the release's, then run {' '.join(command[2:])}"
        )


def _regenerate_guard(root: Path, version: str) -> None:
    """Rewrite the byte guard's list: the version is stamped in every Parquet file of the tiny run."""
    reason = f"version {version}, stamped in every Parquet file's metadata"
    done = subprocess.run(["make", "tiny-digests", f"REASON={reason}"], cwd=root)
    if done.returncode != 0:
        raise CausalBanditsError("make tiny-digests failed: see its output above")
