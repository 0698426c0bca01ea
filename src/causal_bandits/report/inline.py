"""Plain text of the claims and docstrings as HTML a reader sees rendered, not as source.

The claims' notes and the docstrings write code in backticks (```x``` or ````x````), cite documentation
sections as ``docs/papers/<key>.md#<anchor>`` and write math in plain text with TeX-like sub- and
superscripts (``T_{a,z}``, ``B^{v:Y}``, ``G_{\\bar X}``). :func:`inline_html` renders a note: escaped, code
spans as ``<code>``, documentation references as links (:data:`causal_bandits.report.links.DOCREF`),
Markdown emphasis as ``<strong>``/``<em>``, and :func:`scripts` turns the sub- and superscripts into
``<sub>``/``<sup>``; the documentation site applies :func:`scripts` to every page (docs/hooks).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from markupsafe import Markup

from causal_bandits.report.links import DOCREF

#: ``_{...}`` or ``^{...}``, holding at most sets (``Σ_{D \\ {Y, C}}``); applied innermost first, so
#: ``H_{m_{ε}}`` nests.
SCRIPT = re.compile(r"(?<=[^\s{}])([_^])\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")
#: TeX accents the plain-text math uses, as combining characters.
ACCENTS = {r"\bar ": "\u0304", r"\hat ": "\u0302", r"\tilde ": "\u0303"}
#: HTML that is not text: code, preformatted blocks, scripts and styles, a formula (``$...$`` in a page or a
#: docstring, marked by pymdownx.arithmatex for MathJax), and any tag.
NOT_TEXT = re.compile(
    r"(<(code|pre|script|style|kbd|samp)\b.*?</\2>|<span class=\"arithmatex\">.*?</span>|<[^>]*>)", re.S
)
CODE = re.compile(r"``(.+?)``|`([^`]+)`")
#: Where a long name may wrap: after a path's ``/``, an anchor's ``#``, a snake_case ``_`` or a file's ``.`` (before a
#: letter: a number's point is not a place to wrap), each followed by more of the name.
BREAK = re.compile(r"(?<=[/_#])(?=\w)|(?<=\.)(?=[A-Za-z])")
#: The same in escaped prose, after ``/`` only (``E1n8/LUCB/practical``; a ``#`` or ``.`` there may be an entity's
#: or a sentence's, a ``_`` a subscript's).
BREAK_PROSE = re.compile(r"(?<=/)(?=\w)")
#: A dotted name in prose (``causal_bandits.claims.ratio_estimate``): it wraps after its dots and underscores too.
DOTTED = re.compile(r"\b[A-Za-z]\w*(?:\.[A-Za-z_]\w*){2,}")
STRONG = re.compile(r"\*\*(.+?)\*\*")


def _accent(text: str) -> str:
    text = re.sub(r"\\bar\{([^{}]*)\}", r'<span style="text-decoration:overline">\1</span>', text)
    for tex, mark in ACCENTS.items():
        text = re.sub(re.escape(tex) + r"(\w)", r"\1" + mark, text)
    return text


def _tag(m: re.Match[str]) -> str:
    tag = "sub" if m.group(1) == "_" else "sup"
    return f"<{tag}>{m.group(2)}</{tag}>"


def _scripts_text(text: str) -> str:
    text = _accent(text.replace("&#123;", "{"))  # a brace Markdown was kept from reading as attributes
    while True:
        done = SCRIPT.sub(_tag, text)
        if done == text:
            return text
        text = done


def scripts(page: str) -> str:
    """HTML ``page`` with the plain-text sub- and superscripts of its text (not of its code) as HTML."""
    parts = NOT_TEXT.split(page)
    out = []
    i = 0
    while i < len(parts):
        out.append(_scripts_text(parts[i]))
        if i + 1 < len(parts):
            out.append(parts[i + 1])  # the tag or code, untouched
        i += 3
    return "".join(out)


def breakable(text: str) -> Markup:
    """``text`` escaped, with a line-break opportunity (``<wbr>``) at each of its names' separators (:data:`BREAK`):
    a long name (``docs/papers/unknown_graph.md#unknown_graph-results``) wraps there, never inside a word."""
    return Markup(BREAK.sub("<wbr>", html.escape(text, quote=False)))


def inline_html(text: str, docs_href: Callable[[str, str], str]) -> Markup:
    """A note as HTML: escaped, code spans as ``<code>``, ``**bold**`` as ``<strong>``, documentation references
    as links (``docs_href(page, anchor)``: the link to ``docs/<page>.md#<anchor>``), sub- and superscripts."""
    out = []
    pos = 0
    for m in CODE.finditer(text):
        out.append(_prose(text[pos : m.start()], docs_href))
        out.append(f"<code>{breakable(m.group(1) or m.group(2))}</code>")
        pos = m.end()
    out.append(_prose(text[pos:], docs_href))
    return Markup("".join(out))


def _words(text: str) -> str:
    """Prose as HTML: escaped, ``**bold**``, names wrapping at their separators, sub- and superscripts."""
    escaped = DOTTED.sub(lambda m: BREAK.sub("<wbr>", m.group()), html.escape(text))
    return _scripts_text(BREAK_PROSE.sub("<wbr>", STRONG.sub(r"<strong>\1</strong>", escaped)))


def _prose(text: str, docs_href: Callable[[str, str], str]) -> str:
    out = []
    pos = 0
    for m in DOCREF.finditer(text):
        out.append(_words(text[pos : m.start()]))
        out.append(f'<a href="{html.escape(docs_href(m.group(1), m.group(2) or ""))}">{breakable(m.group(0))}</a>')
        pos = m.end()
    out.append(_words(text[pos:]))
    return "".join(out)


def link_docs(page: str, docs_href: Callable[[str, str], str]) -> str:
    """HTML ``page`` with the documentation references of its text (not of its code) as links."""

    def link(m: re.Match[str]) -> str:
        return f'<a href="{html.escape(docs_href(m.group(1), m.group(2) or ""))}">{m.group(0)}</a>'

    parts = NOT_TEXT.split(page)
    return "".join(DOCREF.sub(link, p) if i % 3 == 0 else p for i, p in enumerate(parts) if i % 3 != 2)
