"""Test helper: read REPORT.html back (stdlib HTML parser) and check what a reviewer relies on."""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from PIL import Image

from causal_bandits.claims import STATUSES
from causal_bandits.report_page import VERDICT_CLASS


@dataclass
class Claim:
    id: str
    classes: str
    links: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)  # links into the documentation site


#: Where REPORT.html (in figures/) links the readings: the built documentation site.
DOCS_SITE = "../site/"


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
                reading = a["href"].startswith(DOCS_SITE)
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
    images: list[bytes]  # the embedded PNG files, in page order
    claims: list[Claim]
    hrefs: list[str]


def check_page(text: str, page_dir: Path) -> Page:
    """Assert what the page promises and return what it holds: no external resource; every embedded
    resource a PNG data URI that decodes and opens; every claim row marked by its verdict's colour
    class and linked to a target that exists in the page (an anchor) or on disk (relative to
    ``page_dir``); a colour for each verdict in the style sheet. Each claim row also links to its
    reading in the documentation site (``../site/``), which test_report checks against docs/."""
    reader = _Reader()
    reader.feed(text)
    ids = set(reader.ids)
    assert len(ids) == len(reader.ids), "an id appears twice"
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", text), "the page references a remote resource"
    assert "@import" not in reader.style and "url(" not in reader.style
    images = []
    for src in reader.images:
        assert src.startswith("data:image/png;base64,"), f"resource not embedded: {src[:80]}"
        data = base64.b64decode(src.split(",", 1)[1], validate=True)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            assert image.width > 50 and image.height > 50
        images.append(data)
    for status in STATUSES:
        assert re.search(rf"\.{VERDICT_CLASS[status]}\{{[^}}]*color", reader.style), status
    for claim in reader.claims:
        verdict_classes = {VERDICT_CLASS[s].replace("v-", "r-") for s in STATUSES}
        assert set(claim.classes.split()) & verdict_classes, claim
        assert claim.links, f"claim {claim.id} links to nothing"
        assert claim.readings, f"claim {claim.id} links to no reading"
        for href in claim.links:
            if href.startswith("#"):
                assert href[1:] in ids, f"claim {claim.id} links to a missing anchor {href}"
            else:
                assert (page_dir / unquote(href)).is_file(), f"claim {claim.id} links to a missing file {href}"
    for href in reader.hrefs:
        if href.startswith("#"):
            assert href[1:] in ids, f"dangling link {href}"
        elif not href.startswith(DOCS_SITE):
            assert (page_dir / unquote(href)).is_file(), f"link to a missing file {href}"
    return Page(ids, images, reader.claims, reader.hrefs)
