"""The report's claim notes, each said once per paper.

A paper's claims often share part of their note: the scale of the run, why a claim cannot be judged
at this scale, the exact computation behind several rows. :func:`shared_notes` splits every note
into clauses (at ``"; "`` outside brackets; a trailing ``[...]`` mark is a clause of its own) and
lifts each long clause that two or more rows share into the paper's numbered notes; the rows keep
their own clauses and cite the shared ones as "(note 1)", "(notes 1, 2)".

:func:`split_rows` separates the claims a run judged from those it did not (*not evaluated*), which
the report lists apart, with our number shown but not judged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from causal_bandits.claims import NOT_EVALUATED

#: A clause shorter than this stays in its row even when repeated (a "[n]" would not save much).
MIN_SHARED_CHARS = 24
_TRAILING_MARK = re.compile(r"^(.*\S)\s*(\[[^\[\]]+\])$")


def clauses(note: str) -> list[str]:
    """``note`` cut at ``"; "`` outside brackets and parentheses; a trailing ``[...]`` is a clause."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(note):
        depth += c in "([{"
        depth -= c in ")]}" and depth > 0
        if depth == 0 and note.startswith("; ", i):
            parts.append(note[start:i])
            start = i + 2
    parts.append(note[start:])
    out: list[str] = []
    for part in (p.strip() for p in parts):
        m = _TRAILING_MARK.match(part)
        out += [m.group(1), m.group(2)] if m and m.group(1).strip() else [part]
    return [p for p in out if p]


def _join(parts: Sequence[str]) -> str:
    """Inverse of :func:`clauses`: ``"; "`` between clauses, a space before a ``[...]`` mark."""
    out = ""
    for p in parts:
        out += (" " if p.startswith("[") and p.endswith("]") else "; ") + p if out else p
    return out


@dataclass(frozen=True)
class Notes:
    """A paper's shared notes (numbered from 1) and each row's note in short, by claim id."""

    shared: tuple[str, ...]
    row: Mapping[str, str]


def shared_notes(rows: Sequence[Mapping[str, str]]) -> Notes:
    """Lift the clauses two or more of ``rows`` share (at least :data:`MIN_SHARED_CHARS` long) into
    numbered notes, in order of first appearance, clauses shared by the same rows as one note; each
    row's note becomes its own clauses followed by the notes it had (``"(notes 1, 3)"``)."""
    split = {r["id"]: clauses(str(r["note"] or "")) for r in rows}
    holders: dict[str, list[str]] = {}
    for rid, parts in split.items():
        for c in dict.fromkeys(parts):
            holders.setdefault(c, []).append(rid)
    groups: dict[tuple[str, ...], list[str]] = {}
    for r in rows:
        for c in split[r["id"]]:
            if len(holders[c]) > 1 and len(c) >= MIN_SHARED_CHARS and c not in groups.get(tuple(holders[c]), []):
                groups.setdefault(tuple(holders[c]), []).append(c)
    number = {c: i + 1 for i, members in enumerate(groups.values()) for c in members}
    row = {}
    for rid, parts in split.items():
        own = _join([c for c in parts if c not in number])
        refs = list(dict.fromkeys(number[c] for c in parts if c in number))
        cite = f"(note{'s' if len(refs) > 1 else ''} {', '.join(map(str, refs))})" if refs else ""
        row[rid] = " ".join(p for p in (own, cite) if p)
    return Notes(tuple(_join(members) for members in groups.values()), row)


def split_rows(rows: Sequence[Mapping[str, str]]) -> tuple[list[Mapping[str, str]], list[Mapping[str, str]]]:
    """(claims this run judged, claims it did not judge: *not evaluated*), each in report order."""
    return ([r for r in rows if r["status"] != NOT_EVALUATED], [r for r in rows if r["status"] == NOT_EVALUATED])
