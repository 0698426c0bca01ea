"""Pages checked as a reader sees them: loaded in headless Chromium (Playwright), at 1280 px.

:func:`check_pages` serves a folder on a localhost port, opens each page, and returns what a reader
would meet there, one line per problem:

* a link or an in-page anchor the DOM cannot resolve (a file missing from the folder, an id no element
  has; a Markdown page's anchor among the headings of that page, ``test_citations.anchors``);
* an element swallowed by a raw tag (a ``<style>``, ``<script>``, ``<textarea>``... inside the content, as
  a docstring's ``"<hue> <style>"`` opens) or a placeholder parsed as an unknown element (``U_<ab>``);
* source that reached the reader as text: backticks, attribute lists and template braces (``{:``, ``{#``,
  ``{{``), TeX (``\\frac``, ``_{``), Markdown emphasis or links (``**``, ``](``), a Mermaid diagram left
  as its source;
* an image that did not load, or a figure shown so small that its 8 pt labels are under 9 px
  (:data:`MIN_FIGURE_SCALE`);
* horizontal overflow of the page, more than one ``h1``;
* a table wider than its column without a visible way to scroll (no scroll box, or one taller than the
  window, whose scrollbar is off screen), a verdict chip clipped or under WCAG AA contrast (4.5:1);
* any request to the network (the pages must work offline), a root-absolute link (dead from disk).

The browser is the distribution's Chromium (``apt-get install chromium``; ``.ci/run`` installs it), driven
by the ``playwright`` package of the ``test`` extra; :func:`browser_or_skip` skips when either is missing.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

WIDTH, HEIGHT = 1280, 900
#: Chromium's switches: no sandbox (CI runs as root), nothing fetched in the background.
ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
#: Figures are saved at 200 dpi (causal_bandits.plots.PNG_DPI) with labels of 8 pt and more: 8 pt is
#: 22 PNG pixels, so a figure shown at less than 0.41 of its pixel width has labels under 9 CSS px.
MIN_FIGURE_SCALE = 9 / (8 * 200 / 72)

#: Run in each page (tests/browser_check.js): the problems of its content (``root``: the selector of the reader's
#: column), its ids and its links.
CHECK_JS = (Path(__file__).parent / "browser_check.js").read_text()


def chromium() -> str | None:
    """The distribution's Chromium, or None."""
    return next((p for p in CHROMIUM if os.access(p, os.X_OK)), None) or shutil.which("chromium")


def browser_or_skip() -> str:
    """The Chromium binary; skips the test (with how to get one) when it or Playwright is missing, unless
    CB_BROWSER_CHECK=1 (CI), where a missing browser fails."""
    found = chromium()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        found = None
    if found is None:
        why = "no browser: install Chromium (apt-get install chromium) and the test extra (pip install -e '.[test]')"
        if os.environ.get("CB_BROWSER_CHECK") == "1":
            pytest.fail(why)
        pytest.skip(why)
    return found


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """``folder`` over HTTP on a free localhost port; yields the base URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _markdown_anchors(path: Path) -> set[str]:
    from test_citations import anchors

    return anchors(path)


def check_pages(folder: Path, pages: Sequence[str], root: str, browser: str) -> list[str]:
    """The problems of ``pages`` (paths relative to ``folder``, served over HTTP), each ``page: problem``;
    ``root`` selects the reader's column of a page."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    ids: dict[str, set[str]] = {}
    links: dict[str, list[str]] = {}
    with serve(folder) as base, tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=browser, args=list(ARGS), viewport={"width": WIDTH, "height": HEIGHT}
        )
        try:
            tab = context.new_page()
            remote: list[str] = []

            def route(r) -> None:
                if r.request.url.startswith(base) or r.request.url.startswith(("data:", "blob:")):
                    r.continue_()
                else:
                    remote.append(r.request.url)
                    r.abort()

            tab.route("**/*", route)
            for page in pages:
                remote.clear()
                tab.goto(base + page, wait_until="load")
                found = tab.evaluate(CHECK_JS, [root, MIN_FIGURE_SCALE])
                problems += [f"{page}: {p}" for p in found["problems"]]
                problems += [f"{page}: loads {url} from the network (the page must work offline)" for url in remote]
                ids[page] = set(found["ids"])
                links[page] = found["links"]
        finally:
            context.close()
    for page, hrefs in links.items():
        for href in dict.fromkeys(hrefs):
            if not href.startswith(base):
                continue  # another site: not checked (offline)
            url, anchor = urldefrag(href)
            target = unquote(urlsplit(url).path).removeprefix("/") or "index.html"
            anchor = unquote(anchor)
            if target.endswith("/"):
                target += "index.html"
            if not (folder / target).is_file():
                problems.append(f"{page}: dead link to {target}")
            elif anchor and target in ids:
                if anchor not in ids[target]:
                    problems.append(f"{page}: link to {target}#{anchor}, an anchor no element of that page has")
            elif anchor and target.endswith(".md") and anchor not in _markdown_anchors(folder / target):
                problems.append(f"{page}: link to {target}#{anchor}, an anchor no heading of that page has")
    return problems
