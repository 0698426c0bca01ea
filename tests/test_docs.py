"""The documentation site builds strictly (``mkdocs build --strict``, as ``make docs`` runs it).

A broken link or anchor between pages, a page missing from the navigation, or an API reference
that names a module or object that does not exist fails the build, and so this test (and CI,
which runs ``make test``). The site is built once per session (the ``built_site`` fixture).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from causal_bandits import cost
from causal_bandits.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.docs


def test_mkdocs_build_strict(built_site) -> None:
    assert built_site.returncode == 0, built_site.stderr[-4000:]
    site = built_site.folder
    assert (site / "index.html").is_file()
    assert (site / "papers" / "nonmanip.html").is_file()
    assert (site / "api.html").is_file()
    manifest = ROOT / "archive" / "paper-scale" / "manifest.json"
    if manifest.is_file():
        archived = cost.measured(json.loads(manifest.read_text()))  # not a paper added since the archive was made
        for paper in [p for p in PAPERS if p in archived]:  # each archived paper's page shows its verdicts as chips
            page = (site / "papers" / f"{paper}.html").read_text()
            assert 'class="chip v-' in page and 'src="../paper-scale/figures/' in page, paper
        assert (site / "paper-scale" / "figures" / "REPORT.html").is_file()


#: Table cells that end in braces, which Markdown's attribute lists would take for attributes and drop: each
#: must reach the built page whole (page, text).
BRACED_CELLS = (
    ("papers/nonmanip.html", "∅, {Z}"),
    ("papers/nonmanip.html", "∅, {X}"),
    ("papers/nonmanip.html", "front-door, N = {Z}"),
    ("papers/nonmanip.html", "Fig. 5d [R], N = {A, C}"),
    ("papers/fairness.html", "Z = {I1, I2}"),
    ("papers/bounds.html", "α ∈ {0.5, 1, 2}"),
)


def test_no_text_is_lost_from_table_cells(built_site) -> None:
    """Braces at the end of a table cell stay text in the built site (they are escaped in the Markdown)."""
    import html
    import re

    site = built_site.folder
    for page, text in BRACED_CELLS:
        cells = [
            html.unescape(re.sub(r"<[^>]+>", "", c))
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", (site / page).read_text(), re.S)
        ]
        assert any(text in c for c in cells), (page, text)
