"""The browser check (tests/browser_helpers.py) fails on each defect it is there to catch: every defect planted one
at a time into a copy of the built site, the page it is planted in checked alone, and the problem named.

The defects are the ones readers met on earlier builds: a raw ``<style>`` swallowing the page, a script from a CDN,
a reading link to Markdown source, a verdict chip under 4.5:1, a verdict beyond its scroll box's visible area,
braces of a table page taken as an attribute list, a report without its claims index or without its filter; a
report without its small-screen rules, a formula's characters taken as an attribute list (``em[a_c_t]``), names
broken mid-word, a heading skip; and a JavaScript error and a missing local file. The unplanted site passes
(tests/test_browser.py), so each failure here is the planted defect's.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import NamedTuple

import pytest
from browser_helpers import Pages, browser_or_skip, check_pages

pytestmark = pytest.mark.browser

REPORT = "paper-scale/figures/REPORT.html"
PAPER = "papers/bounds.html"
CSS = "stylesheets/verdicts.css"


class Planted(NamedTuple):
    """A defect: in ``file`` of the site, ``old`` (its first occurrence) becomes ``new``; checking ``page`` must
    name a problem containing ``named``."""

    file: str
    old: str
    new: str
    page: str
    named: str


PLANTED = {
    "style-swallows-content": Planted(PAPER, "</h1>", "</h1><style>", PAPER, "a raw <style> element"),
    "cdn-script": Planted(
        PAPER,
        "</head>",
        '<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-svg.js"></script></head>',
        PAPER,
        "from the network",
    ),
    "markdown-reading-link": Planted(
        REPORT, 'href="../../papers/bounds.html#', 'href="../../papers/bounds.md#', REPORT, "papers/bounds.md"
    ),
    "chip-contrast": Planted(
        CSS, ".v-ok{color:var(--ok);", ".v-ok{color:#a8e6b8;", PAPER, "a verdict chip with contrast"
    ),
    "verdict-beyond-scroll-box": Planted(
        REPORT,
        "</style>",
        "section.paper{overflow-x:auto}table.claims{min-width:3200px}"
        "table.claims td.verdict{padding-left:2900px}</style>",
        REPORT,
        "a verdict outside its scroll box",
    ),
    "table-braces-as-attributes": Planted(
        "paper-scale/figures/nonmanip/table1.html",
        "<th>Front-door, N = {Z}</th>",
        '<th z="">Front-door, N = </th>',
        "paper-scale/figures/nonmanip/table1.html",
        'an attribute list made <th> an attribute "z"',
    ),
    "claims-index-removed": Planted(
        REPORT, "<nav class=index", "<nav class=removed", REPORT, "a report without its index of the claims"
    ),
    "verdict-filter-removed": Planted(
        REPORT, "class=filter role=radiogroup", "class=removed role=radiogroup", REPORT, "a report without its verdict"
    ),
    "no-small-screen-rules": Planted(
        REPORT,
        "@media (max-width:40em){\ntable.claims,",
        "@media (max-width:1em){\ntable.claims,",
        REPORT,
        "a table cell",
    ),
    "formula-as-attribute-list": Planted(
        "api.html", "<em>", '<em a_c_t="">', "api.html", 'an attribute list made <em> an attribute "a_c_t"'
    ),
    "words-broken": Planted(CSS, ".v-ok{", "td{word-break:break-all}.v-ok{", PAPER, "broken across lines"),
    "heading-skip": Planted(PAPER, "</h1>", "</h1><h4>Planted</h4>", PAPER, "a heading skip from h1 to h4"),
    "javascript-error": Planted(
        PAPER, "</body>", '<script>throw new Error("planted")</script></body>', PAPER, "JavaScript error"
    ),
    "missing-local-file": Planted(PAPER, "</h1>", '</h1><img src="planted-missing.png" alt="">', PAPER, "missing"),
}


@pytest.fixture(scope="module")
def site_copy(built_site, tmp_path_factory) -> Path:
    assert built_site.returncode == 0, built_site.stderr[-4000:]
    copy = tmp_path_factory.mktemp("planted") / "site"
    shutil.copytree(built_site.folder, copy)
    return copy


@pytest.mark.parametrize("name", PLANTED)
def test_the_browser_check_names_each_planted_defect(site_copy: Path, name: str) -> None:
    browser = browser_or_skip()
    defect = PLANTED[name]
    path = site_copy / defect.file
    original = path.read_text(encoding="utf-8")
    assert defect.old in original, f"{name}: the built {defect.file} no longer holds {defect.old!r}: plant anew"
    path.write_text(original.replace(defect.old, defect.new, 1), encoding="utf-8")
    try:
        reports = frozenset([REPORT]) & {defect.page}
        problems, _ = check_pages(Pages(site_copy, [defect.page], "article", reports), browser)
    finally:
        path.write_text(original, encoding="utf-8")
    assert any(defect.named in p for p in problems), f"{name}: not named; the check said: {problems[:10]}"
