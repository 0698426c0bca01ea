"""MkDocs hook: a long name in a page's inline code wraps at its separators, never inside a word.

Inline code (``src/causal_bandits/papers/<key>/__init__.py``, ``unknown_graph``) gets a line-break opportunity
after each ``/``, ``_``, ``#`` and ``.`` (:func:`causal_bandits.report.inline.breakable`); docs/stylesheets/site.css
keeps the browser from breaking it anywhere else. Code blocks are left as written.
"""

from __future__ import annotations

import html
import re

from causal_bandits.report.inline import breakable

#: Inline code: a ``<code>`` of plain text not opening a code block (``<pre><code>``).
INLINE_CODE = re.compile(r"(?<!<pre>)<code>([^<]*)</code>")


def _code(m: re.Match[str]) -> str:
    return f"<code>{breakable(html.unescape(m.group(1)))}</code>"


def on_page_content(content: str, **kwargs) -> str:
    return INLINE_CODE.sub(_code, content)
