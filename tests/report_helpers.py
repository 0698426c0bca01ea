"""Test helper: read REPORT.html back (stdlib HTML parser) and check what a reviewer relies on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from PIL import Image

from causal_bandits.claims import STATUSES
from causal_bandits.report.page import VERDICT_CLASS


@dataclass
class Claim:
    id: str
    classes: str
    links: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)  # links into the documentation's Markdown pages


#: Where REPORT.html (in figures/) links the readings: the documentation's Markdown pages.
DOCS = "../docs/"


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.images: list[str] = []
        self.hrefs: list[str] = []
        self.claims: list[Claim] = []
        self.style = ""
        self._row: Claim | None = None
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "tr" and a.get("id", "").startswith("claim-"):
            self._row = Claim(a["id"], a.get("class", ""))
            self.claims.append(self._row)
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
            if self._row is not None:
                reading = a["href"].startswith(DOCS)
                (self._row.readings if reading else self._row.links).append(a["href"])
        if tag in ("img", "script", "link", "iframe", "source", "video", "audio"):
            self.images.append(a.get("src") or a.get("href") or "")
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        if tag == "tr":
            self._row = None
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.style += data


@dataclass
class Page:
    ids: set[str]
    images: list[str]  # the PNG files shown, relative to the page, in page order
    claims: list[Claim]
    hrefs: list[str]


def _resolves(href: str, page_dir: Path, ids: set[str]) -> bool:
    """An anchor of the page, or a file relative to ``page_dir`` (a Markdown page's anchor among its ids)."""
    from test_citations import anchors

    path, _, anchor = href.partition("#")
    if not path:
        return anchor in ids
    target = page_dir / unquote(path)
    return target.is_file() and (not anchor or target.suffix != ".md" or anchor in anchors(target))


def check_page(text: str, page_dir: Path, docs: bool = True) -> Page:
    """Assert what the page promises and return what it holds: no remote resource; every image a PNG
    file beside the page that opens; every claim row marked by its verdict's colour class and linked
    to a target that exists in the page (an anchor) or on disk (relative to ``page_dir``); a colour for
    each verdict in the style sheet; every link resolving (a file, and a Markdown page's anchor among its
    ids). Each claim row also links to its reading in the docs' Markdown pages (``../docs/``); with
    ``docs`` False (a page written outside a checkout), those are not looked for on disk."""
    reader = _Reader()
    reader.feed(text)
    ids = set(reader.ids)
    assert len(ids) == len(reader.ids), "an id appears twice"
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", text), "the page references a remote resource"
    assert "@import" not in reader.style and "url(" not in reader.style
    for src in reader.images:
        assert not src.startswith("data:") and src.endswith(".png"), f"not a PNG beside the page: {src[:80]}"
        data = (page_dir / unquote(src)).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        with Image.open(page_dir / unquote(src)) as image:
            image.load()
            assert image.width > 50 and image.height > 50
    for status in STATUSES:
        assert re.search(rf"\.{VERDICT_CLASS[status]}\{{[^}}]*color", reader.style), status
    for claim in reader.claims:
        verdict_classes = {VERDICT_CLASS[s].replace("v-", "r-") for s in STATUSES}
        assert set(claim.classes.split()) & verdict_classes, claim
        assert claim.links, f"claim {claim.id} links to nothing"
        assert claim.readings, f"claim {claim.id} links to no reading"
    for href in reader.hrefs:
        if docs or not href.startswith(DOCS):
            assert _resolves(href, page_dir, ids), f"link to nothing: {href}"
    return Page(ids, reader.images, reader.claims, reader.hrefs)
