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

import ast
import contextlib
import functools
import html
import http.server
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

#: The windows each page is opened in: a desktop's and a phone's (CSS px).
WIDTHS = ((1280, 900), (390, 844))
#: How many times its desktop height a report may be on a phone.
MAX_PHONE_HEIGHT = 2
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


@dataclass(frozen=True)
class Pages:
    """Pages of ``folder`` (paths relative to it) and how to check them: ``root`` selects the reader's column;
    ``reports`` are replication reports (they must hold the claims index and the filter, and be at most
    :data:`MAX_PHONE_HEIGHT` times as tall on a phone); ``records`` are archived reports, a record drawn by an
    older layout: for them only what no layout excuses (a failed or remote request, a console error, a dead link);
    ``sources``: pages that link the checkout's Markdown sources (``docs/papers/<key>.md#...``, a run folder's
    report), where any other page linking a ``.md`` file sends the reader to raw text; ``tables``: reports whose
    links to ``.md`` files outside ``docs/`` are the run's Markdown tables, offered as files beside the table the
    report draws (their links into ``docs/`` are still Markdown source)."""

    folder: Path
    pages: Sequence[str]
    root: str
    reports: frozenset[str] = frozenset()
    records: frozenset[str] = frozenset()
    sources: frozenset[str] = frozenset()
    tables: frozenset[str] = frozenset()


@dataclass
class _Seen:
    """What the pages showed at each width: problems, and per page its ids, links, text and height."""

    problems: list[str] = field(default_factory=list)
    ids: dict[str, set[str]] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)
    height: dict[tuple[str, int], int] = field(default_factory=dict)


def _watch(tab, base: str, heard: list[str]) -> None:
    """Record in ``heard`` every request off the machine (aborted), failed request, error status and console error."""

    def route(r) -> None:
        if r.request.url.startswith(base) or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            heard.append(f"loads {r.request.url} from the network (the page must work offline)")
            r.abort()

    tab.route("**/*", route)
    tab.on("console", lambda m: heard.append(f"console error: {m.text[:160]}") if m.type == "error" else None)
    tab.on("pageerror", lambda e: heard.append(f"JavaScript error: {str(e)[:160]}"))
    tab.on(
        "requestfailed",
        # a request cut short by the next page's load (the search index, say) is not a failure
        lambda r: (
            heard.append(f"request failed: {r.url.removeprefix(base)} ({r.failure})")
            if r.url.startswith(base) and r.failure != "net::ERR_ABORTED"
            else None
        ),
    )
    tab.on(
        "response",
        lambda r: heard.append(f"missing file: {r.url.removeprefix(base)} ({r.status})") if r.status >= 400 else None,
    )


def _visit(checked: Pages, browser: str, base: str, seen: _Seen) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        for width, height in WIDTHS:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=browser, args=list(ARGS), viewport={"width": width, "height": height}
            )
            try:
                tab = context.new_page()
                heard: list[str] = []
                _watch(tab, base, heard)
                for page in checked.pages:
                    heard.clear()
                    tab.goto(base + page, wait_until="load")
                    args = [checked.root, MIN_FIGURE_SCALE, page in checked.reports, page in checked.records]
                    found = tab.evaluate(CHECK_JS, args)
                    seen.problems += [f"{page} at {width} px: {p}" for p in [*found["problems"], *heard]]
                    seen.ids.setdefault(page, set(found["ids"]))
                    seen.links.setdefault(page, found["links"])
                    seen.text.setdefault(page, found["text"])
                    seen.height[page, width] = found["height"]
            finally:
                context.close()


def _table_file(checked: Pages, page: str, target: str) -> bool:
    """Whether ``target``, a ``.md`` file ``page`` links, is a run's Markdown table (:attr:`Pages.tables`)."""
    return page in checked.tables and not target.startswith("docs/")


def _dead_links(checked: Pages, base: str, seen: _Seen) -> list[str]:
    """Links to a file the folder lacks or an anchor its page lacks, and (but from :attr:`Pages.sources`) links to
    Markdown source, where a reader lands on raw text instead of the rendered page."""
    folder, problems = checked.folder, []
    for page, hrefs in seen.links.items():
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
            elif target.endswith(".md") and page not in checked.sources and not _table_file(checked, page, target):
                problems.append(f"{page}: link to the Markdown source {target} (a reader gets raw text, not the page)")
            elif anchor and target in seen.ids:
                if anchor not in seen.ids[target]:
                    problems.append(f"{page}: link to {target}#{anchor}, an anchor no element of that page has")
            elif anchor and target.endswith(".md") and anchor not in _markdown_anchors(folder / target):
                problems.append(f"{page}: link to {target}#{anchor}, an anchor no heading of that page has")
    return problems


def _too_tall(checked: Pages, seen: _Seen) -> list[str]:
    (wide, _), (narrow, _) = WIDTHS
    return [
        f"{page}: {seen.height[page, narrow]} px tall at {narrow} px, over {MAX_PHONE_HEIGHT} times its "
        f"{seen.height[page, wide]} px at {wide} px"
        for page in sorted(checked.reports - checked.records)
        if seen.height[page, narrow] > MAX_PHONE_HEIGHT * seen.height[page, wide]
    ]


def check_pages(checked: Pages, browser: str) -> tuple[list[str], dict[str, str]]:
    """The problems of the pages (served over HTTP, opened at each of :data:`WIDTHS`), each ``page: problem``,
    and each page's text (formulas as their TeX source, between dollars)."""
    seen = _Seen()
    with serve(checked.folder) as base:
        _visit(checked, browser, base, seen)
        problems = [*seen.problems, *_dead_links(checked, base, seen), *_too_tall(checked, seen)]
    return problems, seen.text


#: A word of a docstring that is formula text: a sub- or superscript or a brace.
FORMULA = re.compile(r"[_^{]")
#: Words the page shows otherwise than as written (code, links, roles): not compared.
NOT_PROSE = re.compile(r"`|\]\(|://|^:")
#: A formula between dollars (MathJax shows it; the page's text holds its TeX, between dollars).
MATH = re.compile(r"\$[^$]+\$")


def _docstrings(path: Path) -> Iterator[str]:
    """The docstrings the API reference shows of a module's file: the module's, its public classes' and functions'
    and their public methods' (mkdocs.yml's filter ``!^_``)."""
    tree = ast.parse(path.read_text())
    nodes: list[ast.AST] = [tree]
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            nodes.append(node)
            if isinstance(node, ast.ClassDef):
                nodes += [n for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    for node in nodes:
        if (doc := ast.get_docstring(node)) is not None:  # type: ignore[arg-type]
            yield doc


def _shown(doc: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(word, the texts a reader may see of it) for each formula word of a docstring: a formula between dollars as its
    TeX; a word of prose as written (in code) or as the site renders its plain-text sub- and superscripts
    (docs/hooks/sphinx_roles.py: ``B^{v:Y}`` reads "Bv:Y", raised), emphasis markers aside. A word whose braces do
    not pair (a formula with spaces, ``⋃_{v ∈ S}``) is not compared."""
    from causal_bandits.report.inline import scripts

    for math in MATH.findall(doc):
        yield from ((w, (w,)) for w in math.split())
    for word in MATH.sub(" ", doc).split():
        word = word.strip(".,;:*")
        if FORMULA.search(word) and not NOT_PROSE.search(word) and word.count("{") == word.count("}"):
            raised = html.unescape(re.sub(r"<[^>]+>", "", scripts(html.escape(word, quote=False))))
            yield word, (word, raised)


def lost_formulas(api_page: Path, shown: str, src: Path) -> list[str]:
    """The formula words of the docstrings the API reference ``api_page`` (docs/api.md: ``::: module`` lines) shows
    that its rendered text ``shown`` (formulas as their TeX source, between dollars) does not hold: characters
    Markdown emphasis or an attribute list took."""
    text = " ".join(shown.split())
    lost = []
    for module in re.findall(r"^::: ([\w.]+)", api_page.read_text(), re.M):
        base = src.joinpath(*module.split("."))
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        for doc in _docstrings(path):
            missing = [word for word, seen in _shown(doc) if not any(s in text for s in seen)]
            lost += [f"api.html: {module}'s docstring shows {w!r} otherwise (formula text lost)" for w in missing[:2]]
    return lost
