"""Links from the report's claims to the documentation holding the reading behind each number.

Every claim row links to the sections of ``docs/`` its ``source`` or ``note`` cites
(``docs/papers/<key>.md#<anchor>``), or, when it cites none, to its paper's section comparing the
paper's numbers with ours (:data:`NUMBERS`). REPORT.md links to the Markdown pages
(``../docs/papers/<key>.md#<anchor>``), which a repository browser renders; REPORT.html links to the
built site (``../site/papers/<key>.html#<anchor>``, made by ``make docs``), because a browser opens a
page of the site at its anchor but shows a ``.md`` file as plain text, anchors ignored.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import PurePosixPath

#: A docs reference in claim text: the page (without ``.md``) and an optional anchor.
DOCREF = re.compile(r"(?<![\w/.])docs/((?:[\w-]+/)*[\w-]+)\.md(?:#([\w-]+))?")

#: Each paper's section of docs/papers/<key>.md with the paper's numbers against ours.
NUMBERS = {
    "nonmanip": "nonmanip-numbers",
    "bounds": "bounds-numbers",
    "fairness": "fairness-results",
    "cpe": "cpe-results",
    "unknown_graph": "unknown_graph-results",
}


def readings(paper: str, row: Mapping[str, str]) -> list[tuple[str, str]]:
    """(page, anchor) pairs a claim row links to: those its source and note cite, in order and once
    each, else its paper's numbers section (anchor "" for a whole page)."""
    found = []
    for m in DOCREF.finditer(f"{row.get('source', '')} {row.get('note', '')}"):
        ref = (m.group(1), m.group(2) or "")
        if ref not in found:
            found.append(ref)
    return found or [(f"papers/{paper}", NUMBERS.get(paper, ""))]


def href(page: str, anchor: str, page_dir: str, built: bool) -> str:
    """The link from a report in ``page_dir`` (relative to the repository root) to ``page#anchor``:
    the built site's page when ``built`` (REPORT.html), the Markdown source otherwise (REPORT.md)."""
    target = f"site/{page}.html" if built else f"docs/{page}.md"
    path = PurePosixPath(os.path.relpath(target, page_dir)).as_posix()
    return f"{path}#{anchor}" if anchor else path


def label(page: str, anchor: str) -> str:
    """A link's text: the anchor, or the page's name for a whole page."""
    return anchor or PurePosixPath(page).name
