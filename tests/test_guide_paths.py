"""The guides (docs/guide/*.md) name only repository files that exist: every backticked path of a file or folder of
the repository (a name with a file extension, or a folder path ending in ``/``) is found under the root, ``src/`` or
``src/causal_bandits/`` (a module path as docstrings write it), a bare file name anywhere in the tree. Paths with
placeholders (``<key>``, ``{name}``, ``*``) and outputs a run writes (``results/``, ``figures/``, ...) are not
repository files."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = sorted((ROOT / "docs" / "guide").glob("*.md"))
#: What a run, a build or the reader writes: never in the repository.
WRITTEN = ("results/", "figures/", "logs/", "data/", "site/", ".snakemake", "benchmarks/out", "report.zip", ".venv")
#: Files a guide asks the reader to write, by page.
READERS_OWN = {"reviewers.md": {"raw.yaml"}}
#: A file name: a stem, then an extension.
FILE = re.compile(r"^[\w./-]*\w\.(py|yaml|yml|md|smk|json|txt|toml|rst|lock|cfg|dot|svg|tmpl|js|css|j2)$")
SKIP_PARTS = {".venv", ".git", "__pycache__", "node_modules"}


def named_paths(text: str) -> list[str]:
    """The repository paths a page names in backticks (see the module's docstring)."""
    found = []
    for token in re.findall(r"`([^`\s]+)`", text):
        token = token.rstrip(".,:;")
        if re.search(r"[<>{}*$|=()\[\]]", token) or token.startswith(("http", "-", "#", "/", *WRITTEN)):
            continue
        if FILE.fullmatch(token) or (token.endswith("/") and "/" in token[:-1]):
            found.append(token)
    return found


@cache
def _tree_names() -> set[str]:
    """Every file and folder name of the repository (not of what a run or a build wrote beside it)."""
    names: set[str] = set()
    for folder, dirs, files in os.walk(ROOT, followlinks=True):  # a copy may link the archive
        top = Path(folder) == ROOT
        dirs[:] = [d for d in dirs if d not in SKIP_PARTS and not (top and f"{d}/".startswith(WRITTEN))]
        names.update(dirs, files)
    return names


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: p.name)
def test_every_path_a_guide_names_exists(page):
    names = _tree_names()
    missing = []
    for path in named_paths(page.read_text()):
        if path in READERS_OWN.get(page.name, ()):
            continue
        if "/" not in path:
            found = path in names
        else:
            found = any((base / path).exists() for base in (ROOT, ROOT / "src", ROOT / "src" / "causal_bandits"))
        if not found:
            missing.append(path)
    assert not missing, f"{page.name} names files the repository does not have: {missing}"


def test_the_check_sees_a_missing_file():
    assert named_paths("edit `report.py`, `src/causal_bandits/plots/` or `results/x.json` (`<key>.py`)") == [
        "report.py",
        "src/causal_bandits/plots/",
    ]
    assert "plots.py" not in _tree_names()  # a module that is a package now: a guide naming it fails above
