"""The report's links: from a claim to the documentation holding the reading behind its number, and
the ids the page gives claims, papers and artefacts.

Every claim row links to the sections of ``docs/`` its ``source`` or ``note`` cites
(``docs/papers/<key>.md#<anchor>``), or, when it cites none, to its paper's section comparing the
paper's numbers with ours (:func:`numbers`). Both reports link to the Markdown pages
(``../docs/papers/<key>.md#<anchor>``), which every checkout holds and a repository browser renders
at the anchor; the built site (``make docs``) has the same pages and anchors.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from causal_bandits import papers

#: A docs reference in claim text: the page (without ``.md``) and an optional anchor.
DOCREF = re.compile(r"(?<![\w/.])docs/((?:[\w-]+/)*[\w-]+)\.md(?:#([\w-]+))?")


def section(doc: Mapping[str, Any]) -> str:
    """The report section of a claims document: its study (``doc["study"]``) or its paper."""
    return doc.get("study") or doc["paper"]


def fallback(doc: Mapping[str, Any]) -> tuple[str, str]:
    """(page, anchor) a claim of ``doc`` that cites no docs section links to: a study's docs section
    (``doc["docs"]``, ``papers/<key>.md#<anchor>``), else its paper's numbers section."""
    page, _, anchor = doc.get("docs", "").partition("#")
    if page:
        return page.removesuffix(".md"), anchor
    return f"papers/{doc['paper']}", numbers(doc["paper"])


def numbers(paper: str) -> str:
    """The anchor of ``paper``'s section of ``docs/papers/<paper>.md`` comparing the paper's numbers with ours, as
    its package declares it (:attr:`causal_bandits.papers.Paper.numbers`); ``<paper>-numbers`` for a paper not
    registered."""
    return papers.paper(paper).numbers if paper in papers.PAPERS else f"{paper}-numbers"


def claim_id(paper: str, claim: str) -> str:
    """The HTML id of a claim's row, as the paper pages document it: ``claim-<paper>-<claim id>``."""
    return f"claim-{paper}-{claim}"


def artefact_id(paper: str, key: str) -> str:
    """The HTML id of a paper's table or figure: ``<paper>-<artefact key>``."""
    return f"{paper}-{key}"


def readings(doc: Mapping[str, Any], row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(page, anchor) pairs a claim row of claims document ``doc`` links to: those its source, its note and
    the shared notes it cites (``doc["notes"]``, by key) cite, in order and once each, else :func:`fallback`
    (anchor "" for a whole page)."""
    texts = doc.get("notes", {})
    cited = " ".join(texts[key] for key in row.get("notes", ()))
    found = []
    for m in DOCREF.finditer(f"{row.get('source', '')} {row.get('note', '')} {cited}"):
        ref = (m.group(1), m.group(2) or "")
        if ref not in found:
            found.append(ref)
    return found or [fallback(doc)]


def href(page: str, anchor: str, page_dir: str) -> str:
    """The link from a report in ``page_dir`` (relative to the repository root) to the Markdown source
    of ``page`` (a path under ``docs/`` without ``.md``), at ``anchor``."""
    path = PurePosixPath(os.path.relpath(f"docs/{page}.md", page_dir)).as_posix()
    return f"{path}#{anchor}" if anchor else path


def label(page: str, anchor: str) -> str:
    """A link's text: the anchor, or the page's name for a whole page."""
    return anchor or PurePosixPath(page).name
