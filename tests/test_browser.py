"""The documentation site and the reports as a reader sees them, in a real browser (tests/browser_helpers.py).

Every page of the built site (``make docs``), the archived reports (archive/*/figures/REPORT.html) and the tiny
run's figures/REPORT.html are opened in headless Chromium at 1280 and 390 px (a desktop's window and a phone's)
with the network blocked; each problem a reader would meet fails the test, one line per problem: a dead link
or anchor, a failed or remote request, a console error, an element swallowed by a raw tag, source shown as
text, a formula left as TeX or whose characters Markdown took (an attribute on an element, ``em[a_c_t]``; a
docstring's formula words missing from the API reference), a heading skip, an image that did not load, a page
wider than the window, a table cell a few characters wide, a table too wide for its column without a visible
scrollbar, a verdict outside its scroll box's visible area, a verdict chip under 4.5:1 contrast, a report
without its claims index or filter, or over twice as tall on a phone. An archive made by ``causal-bandits archive``
(the tiny run's, and any committed one that carries its rendered readings, ``archive/*/readings/``) is checked
whole with the readings its report links: a reading link to Markdown source, or to a rendered page without its
anchor, fails. A committed archive without readings is a record drawn by an older layout: checked only for what no
layout excuses (requests, console errors, dead links).
Skipped when Chromium or Playwright is missing (``.ci/run`` installs Chromium and sets CB_BROWSER_CHECK=1, so CI
fails instead).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import ARGS, WIDTHS, Pages, browser_or_skip, check_pages, lost_formulas, serve

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]
#: The archived runs under archive/, and an archive's report.
ARCHIVED = ("paper-scale", "studies")
REPORT = "figures/REPORT.html"
#: The reader's column: a site page's article, a report's main.
COLUMN = "article, body > main"


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problems:\n" + "\n".join(problems[:80])


def test_every_page_of_the_site_reads_right_in_a_browser(built_site) -> None:
    browser = browser_or_skip()
    assert built_site.returncode == 0, built_site.stderr[-4000:]
    site = built_site.folder
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert "api.html" in pages and "404.html" in pages
    reports = frozenset(p for p in pages if p.endswith("/REPORT.html"))
    assert reports, "the site serves no report"
    problems, text = check_pages(Pages(site, pages, "article", reports), browser)
    problems += lost_formulas(ROOT / "docs" / "api.md", text["api.html"], ROOT / "src")
    assert not problems, _report(problems)


def _archive(folder: Path) -> Pages:
    """An archive's report and the rendered readings it carries (``readings/``), all checked; an archive without
    readings (made before them): its report as a record, which links the checkout's Markdown."""
    readings = sorted(p.relative_to(folder).as_posix() for p in (folder / "readings").rglob("*.html"))
    report = frozenset([REPORT])
    if not readings:
        return Pages(folder, [REPORT], "main", report, records=report, sources=report)
    return Pages(folder, [REPORT, *readings], COLUMN, report, tables=report)


@pytest.mark.parametrize("name", ARCHIVED)
def test_the_archived_reports_open_offline_with_every_link_alive(name: str) -> None:
    browser = browser_or_skip()
    problems, _ = check_pages(_archive(ROOT / "archive" / name), browser)
    assert not problems, _report(problems)


@pytest.mark.workflow
def test_an_archived_reports_readings_open_rendered_at_their_section(tiny_archive: Path) -> None:
    """The tiny run archived: its report's reading links open the rendered pages the archive carries, at the
    anchors they name (no link to Markdown source), and those pages read right at both widths."""
    browser = browser_or_skip()
    checked = _archive(tiny_archive)
    linked = re.findall(r'href="\.\./readings/papers/[\w-]+\.html#[^"]+"', (tiny_archive / REPORT).read_text())
    assert len(checked.pages) > 1 and len(linked) > 20, "the archived report links no rendered reading"
    problems, _ = check_pages(checked, browser)
    assert not problems, _report(problems)


@pytest.mark.workflow
def test_the_tiny_runs_report_reads_right_in_a_browser(tiny_run: Path) -> None:
    browser = browser_or_skip()
    report = frozenset(["figures/REPORT.html"])  # a run folder's report: its readings link docs/*.md
    problems, _ = check_pages(Pages(tiny_run, sorted(report), "main", report, sources=report), browser)
    assert not problems, _report(problems)


def _search(page_url: str, browser: str, width: int, height: int) -> dict:
    """What a reader of ``page_url`` meets searching: the header's note about search (shown or not), and the results
    of typing a word in the search box (None where the page shows no search box)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=browser, args=list(ARGS))
        try:
            tab = chromium.new_page(viewport={"width": width, "height": height})
            tab.goto(page_url, wait_until="load")
            note = tab.locator(".search-from-disk")
            shown = note.count() == 1 and note.is_visible() and note.bounding_box()["x"] + 10 < width
            found = None
            if tab.locator(".md-search__input").is_visible():
                tab.fill(".md-search__input", "POMIS")
                tab.wait_for_selector(".md-search-result__item", timeout=15000)
                found = tab.locator(".md-search-result__item").count()
            return {"note": note.inner_text() if shown else None, "found": found}
        finally:
            chromium.close()


def test_search_runs_on_the_served_site_and_the_site_from_disk_names_make_serve(built_site) -> None:
    """Opened from disk, Material hides its search (it reads its index only from a served site): the header says
    ``make serve`` where the search box was, at both widths. Served, as ``make serve`` does, the search finds pages
    and the note is not there."""
    browser = browser_or_skip()
    page = built_site.folder / "papers" / "nonmanip.html"
    for width, height in WIDTHS:
        seen = _search(page.as_uri(), browser, width, height)
        assert seen == {"note": "Search: make serve", "found": None}, f"opened from disk at {width} px: {seen}"
    with serve(built_site.folder) as base:
        served = _search(base + "papers/nonmanip.html", browser, *WIDTHS[0])
    assert served["note"] is None and served["found"] > 0, f"served: {served}"
