"""Quotes of the release's archives written into the docs' source, so that a page read on a code host shows values.

A figure about our runs in README.md or docs/ stands inside a marker naming what it quotes (a quote of
:mod:`.quotes`, ``archive`` for the papers' archive, ``studies`` for the studies')::

    <!-- archive run cpu_hours -->0.85<!-- end -->

The comment is invisible where the Markdown is rendered; the value between it and ``<!-- end -->`` is the
archive's, written by :func:`refresh` (``causal-bandits quotes --write``, which the release command runs after
archiving) and checked by :func:`stale` (``causal-bandits quotes``, and tests/test_docs_record.py). The same
command turns a template quote ``{{ archive run cpu_hours }}`` into a marker. The docs site shows each marker's
value as the archive has it (docs/hooks/paper_scale.py: :func:`expand`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from causal_bandits import store
from causal_bandits.archive import quotes
from causal_bandits.archive.quotes import Archive

#: A marker: its kind, its quote, and the value written after it (a multi-line value for an ``include``).
MARKER = re.compile(r"<!-- (archive|studies) ([^>]*?) -->(.*?)<!-- end -->", re.S)
#: The files whose figures about our runs are quoted (relative to the repository).
QUOTED = ("README.md", "CONTRIBUTING.md", "docs")


def files(root: Path) -> list[Path]:
    """README.md, CONTRIBUTING.md and every Markdown page under docs/."""
    found = [root / name for name in QUOTED[:-1] if (root / name).is_file()]
    return found + sorted((root / QUOTED[-1]).rglob("*.md"))


def _value(match: re.Match[str], found: Mapping[str, Archive | None], text: str, where: str) -> str:
    """The value the archive gives the quote ``match`` stands for (escaped in a table row of ``text``)."""
    kind, what = match.group(1), match.group(2)
    archive = found.get(kind)
    if archive is None:
        raise quotes.QuoteError(f"{where}: {kind} quote {what!r}: no archive for it ({quotes.FOLDERS[kind]})")
    try:
        value = quotes.quote(archive, what, kind)
    except quotes.QuoteError as err:
        raise quotes.QuoteError(f"{where}: {err}") from None
    line = text[text.rfind("\n", 0, match.start()) + 1 : match.start()]
    if what.split()[:1] == ["include"]:
        return f"\n{value}\n"
    return quotes.cell(value) if line.lstrip().startswith("|") else value


def refresh(text: str, found: Mapping[str, Archive | None], where: str = "") -> str:
    """``text`` with every marker's value rewritten from the archives, and every template quote
    ``{{ archive ... }}`` turned into a marker with its value."""

    def marker(kind: str, what: str) -> str:
        return f"<!-- {kind} {what} -->"

    def fill(match: re.Match[str]) -> str:
        return f"{marker(match.group(1), match.group(2))}{_value(match, found, text, where)}<!-- end -->"

    text = quotes.QUOTE.sub(lambda m: f"{marker(m.group(1), m.group(2))}<!-- end -->", text)
    return MARKER.sub(fill, text)


def stale(text: str, found: Mapping[str, Archive | None], where: str = "") -> Iterator[str]:
    """One line per marker of ``text`` whose value is not the archive's, and per template quote left."""
    for match in MARKER.finditer(text):
        value = _value(match, found, text, where)
        if match.group(3) != value:
            line = text.count("\n", 0, match.start()) + 1
            shown = value if "\n" not in value else "(its file)"
            what = f"<!-- {match.group(1)} {match.group(2)} -->"
            yield f"{where}:{line}: {what} reads {match.group(3)!r}, the archive {shown!r} (quotes --write)"
    for match in quotes.QUOTE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        yield f"{where}:{line}: {match.group(0)} is a template quote, not a marker (causal-bandits quotes --write)"


def expand(text: str, found: Mapping[str, Archive | None], where: str = "") -> str:
    """``text`` as the docs site shows it: each marker replaced by its value from the archive (an archive that is
    not there: "–")."""

    def fill(match: re.Match[str]) -> str:
        if found.get(match.group(1)) is None:
            return "–"
        return _value(match, found, text, where)

    return MARKER.sub(fill, text)


def _write(path: Path, text: str) -> None:
    with store.atomic_path(path) as tmp:
        tmp.write_text(text)


def rewrite(root: Path) -> list[Path]:
    """Rewrite every quoted value under ``root`` from its archives (atomically, file by file); the files changed."""
    found = quotes.archives(root)
    changed = []
    for path in files(root):
        text = path.read_text()
        new = refresh(text, found, path.relative_to(root).as_posix())
        if new != text:
            _write(path, new)
            changed.append(path)
    return changed


def check(root: Path) -> list[str]:
    """Every stale marker and template quote under ``root`` (:func:`stale`), one line each."""
    found = quotes.archives(root)
    return [line for path in files(root) for line in stale(path.read_text(), found, path.relative_to(root).as_posix())]
