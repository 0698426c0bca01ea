"""The documentation site and the report as a reader sees them, in a real browser (tests/browser_helpers.py).

Every page of the built site (``make docs``) and the tiny run's figures/REPORT.html are opened in headless
Chromium at 1280 px; a dead link or anchor, an element swallowed by a raw tag, source shown as text, an
image that did not load, horizontal overflow, a table too wide for its column without a visible scrollbar,
or a request to the network fails the test, one line per problem. Skipped when Chromium or Playwright is
missing (``.ci/run`` installs Chromium and sets CB_BROWSER_CHECK=1, so CI fails instead).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import browser_or_skip, check_pages

pytestmark = pytest.mark.browser


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problems:\n" + "\n".join(problems[:80])


def test_every_page_of_the_site_reads_right_in_a_browser(built_site) -> None:
    browser = browser_or_skip()
    assert built_site.returncode == 0, built_site.stderr[-4000:]
    site = built_site.folder
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert "api.html" in pages and "404.html" in pages
    problems = check_pages(site, pages, "article", browser)
    assert not problems, _report(problems)


@pytest.mark.workflow
def test_the_tiny_runs_report_reads_right_in_a_browser(tiny_run: Path) -> None:
    browser = browser_or_skip()
    problems = check_pages(tiny_run, ["figures/REPORT.html"], "main", browser)
    assert not problems, _report(problems)
