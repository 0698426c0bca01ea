"""MkDocs hook: the archived run's table pages (``paper-scale/``, docs/hooks/paper_scale.py) without heading skips.

A table the workflow writes may open at any level (``### V5: ...``) under the page title the site gives it
(``# ...``); a heading more than one level below the one before it is lifted to the next level, so the outline a
screen reader walks has no gap. Pages written by hand are left as written (the browser test checks them).
"""

from __future__ import annotations

import re

HEADING = re.compile(r"^(#{1,6})(?=\s)", re.M)
SITE = "paper-scale/"


def lift(markdown: str) -> str:
    """``markdown`` with each ATX heading at most one level below the heading before it."""
    level = 0

    def one(m: re.Match[str]) -> str:
        nonlocal level
        level = min(len(m.group(1)), level + 1)
        return "#" * level

    return HEADING.sub(one, markdown)


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    return lift(markdown) if page.file.src_uri.startswith(SITE) else markdown
