"""The documentation site builds strictly (``mkdocs build --strict``, as ``make docs`` runs it).

A broken link or anchor between pages, a page missing from the navigation, or an API reference
that names a module or object that does not exist fails the build, and so this test (and CI,
which runs ``make test``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.docs


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert (site / "index.html").is_file()
    assert (site / "papers" / "nonmanip.html").is_file()
    assert (site / "api.html").is_file()
