"""The code an archived run ran, checked out where ``verify`` can rebuild with it.

An archive records its run's code file by file (:mod:`.provenance`) and the commit the run was made at. When the
checkout that verifies it holds other code (any later commit that edits a module a job executes), :func:`code_for`
checks the run's commit out into a temporary ``git worktree`` (detached, removed afterwards) and ``verify`` rebuilds
there; the archive itself is read from the checkout, since it is committed after its run.

The worktree reuses the interpreter ``verify`` runs in, its own ``src`` first on the jobs' ``PYTHONPATH``
(:func:`.rebuild.rebuild`), when the archived run's lock file has the checkout's bytes: the same pinned packages, so
the same environment, at the cost of a checkout (seconds). Only when the lock files differ does it get a virtualenv
of its own, installed from its lock file (a minute or more, and a package index). Before rebuilding, the worktree's
code is fingerprinted as the archive's was: a commit that does not hold the run's code (a run made from a dirty tree)
is refused.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causal_bandits.archive import provenance
from causal_bandits.errors import CausalBanditsError


@dataclass(frozen=True)
class Code:
    """Where a rebuild takes its code (``src``, ``workflow``, ``config``) from, and the Python that runs it."""

    root: Path
    python: str = sys.executable
    commit: str | None = None


def _git(checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=checkout, capture_output=True, text=True)


def head(checkout: Path) -> str | None:
    """The checkout's commit (``git rev-parse HEAD``), or None outside git."""
    found = _git(checkout, "rev-parse", "HEAD")
    return found.stdout.strip() if found.returncode == 0 else None


def current(checkout: Path, record: Mapping[str, Any], configfiles: Sequence[str]) -> dict[str, Any]:
    """The provenance of ``checkout``, comparable with the archived ``record`` (its code files, the archive's config
    files with ``configfiles`` merged over them, its lock file)."""
    files = [*record["config"]["files"], *configfiles]
    return {
        "code": provenance.code_files(checkout, (p for p in record["code"] if not p.startswith(provenance.WORKFLOW))),
        "config": {"sha256": provenance.config_sha256(provenance.merged_config(checkout, files))},
        "lock": {"sha256": provenance.file_sha256(checkout / provenance.LOCK)},
    }


def missing(checkout: Path, commit: str | None) -> str | None:
    """Why ``commit`` cannot be checked out here, with what to run (None when it can)."""
    if not commit:
        return "the archive records no commit to rebuild at"
    if _git(checkout, "rev-parse", "--git-dir").returncode != 0:
        return f"{checkout} is not a git checkout: clone the repository and verify from the clone"
    if _git(checkout, "cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        return (
            f"this clone lacks commit {commit}: fetch it (git fetch origin {commit}; in a shallow clone, "
            "git fetch --unshallow)"
        )
    return None


def _environment(root: Path, record: Mapping[str, Any], checkout: Path) -> str:
    """The Python to rebuild with in the worktree ``root``: the running one when the run's lock file has the bytes of
    the checkout's (the running environment's), else a virtualenv made in ``root`` from its lock file."""
    if record["lock"]["sha256"] == provenance.file_sha256(checkout / provenance.LOCK):
        return sys.executable
    print(f"the run's {provenance.LOCK} differs from this checkout's: installing it into a virtualenv of its own")
    venv = root / ".venv"
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", str(root / provenance.LOCK)],
    ]
    for step in steps:
        if subprocess.run(step, capture_output=True, text=True).returncode != 0:
            raise CausalBanditsError(
                f"could not install the run's {provenance.LOCK} into {venv} ({' '.join(step[:4])} failed): "
                "check the network or the package index, then run verify again"
            )
    return str(venv / "bin" / "python")


@contextmanager
def code_for(checkout: Path, record: Mapping[str, Any], configfiles: Sequence[str], force: bool) -> Iterator[Code]:
    """The code to rebuild the archived run ``record`` (its provenance) with: the checkout itself when its code,
    config and lock file are the run's (or with ``force``, a warning per difference), else the run's commit in a
    temporary worktree, removed on leaving. Prints both commits when they differ."""
    differ = provenance.differences(record, current(checkout, record, configfiles))
    if not differ or force:
        for line in differ:
            print(f"warning: this checkout differs from the archived run in {line}; verifying anyway (--force)")
        yield Code(checkout, commit=head(checkout))
        return
    commit = record.get("commit")
    if why := missing(checkout, commit):
        raise CausalBanditsError(
            f"this checkout differs from the archived run in {'; '.join(differ)}, and {why} (or pass --force to "
            "verify with this checkout's code)"
        )
    print(
        f"this checkout (commit {(head(checkout) or 'unknown')[:12]}) differs from the archived run in "
        f"{'; '.join(differ)}: rebuilding at the run's commit {str(commit)[:12]} in a temporary git worktree",
        flush=True,
    )
    root = Path(tempfile.mkdtemp(prefix="causal-bandits-at-commit-")) / "checkout"
    added = _git(checkout, "worktree", "add", "--detach", "--quiet", str(root), str(commit))
    if added.returncode != 0:
        raise CausalBanditsError(f"git worktree add {root} {commit} failed: {added.stderr.strip().splitlines()[-1]}")
    try:
        if left := provenance.differences(record, current(root, record, configfiles)):
            raise CausalBanditsError(
                f"commit {commit} does not hold the archived run's code ({'; '.join(left)}): the run was made from "
                "a tree with uncommitted changes; only --force verifies it, with this checkout's code"
            )
        yield Code(root, _environment(root, record, checkout), str(commit))
    finally:
        _git(checkout, "worktree", "remove", "--force", str(root))
        shutil.rmtree(root.parent, ignore_errors=True)
        _git(checkout, "worktree", "prune")
