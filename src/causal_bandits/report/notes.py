"""The report's claim notes, each said once per paper.

A claim row holds its own ``note`` and the keys of the paper's shared notes it cites (``notes``); the
paper's claims document holds their texts by key (:func:`causal_bandits.claims.note_texts`).
:func:`shared_notes` numbers the notes two or more rows cite, in order of first citation, and writes
each row's note: its own text, the text of any note only it cites, then its citations, "(note 1)",
"(notes 1, 3)".

:func:`split_rows` separates the claims a run judged from those it did not (*not evaluated*), which
the report lists apart, with our number shown but not judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from causal_bandits.claims import NOT_EVALUATED


@dataclass(frozen=True)
class Notes:
    """A paper's shared notes (numbered from 1) and each row's note in short, by claim id."""

    shared: tuple[str, ...]
    row: Mapping[str, str]


def _row_note(row: Mapping[str, Any], texts: Mapping[str, str], number: Mapping[str, int]) -> str:
    own = [row.get("note") or "", *(texts[k] for k in row.get("notes", ()) if k not in number)]
    refs = [number[k] for k in row.get("notes", ()) if k in number]
    cite = f"(note{'s' if len(refs) > 1 else ''} {', '.join(map(str, refs))})" if refs else ""
    return " ".join(p for p in ("; ".join(p for p in own if p), cite) if p)


def shared_notes(doc: Mapping[str, Any]) -> Notes:
    """The shared notes of a paper's claims document that two or more of its rows cite, numbered in order of
    first citation, and each row's note (its own text, then the text of notes no other row cites, then its
    citations)."""
    rows, texts = doc["claims"], doc.get("notes", {})
    cited = Counter(key for row in rows for key in dict.fromkeys(row.get("notes", ())))
    shared = [key for key in dict.fromkeys(k for row in rows for k in row.get("notes", ())) if cited[key] > 1]
    number = {key: i for i, key in enumerate(shared, 1)}
    return Notes(tuple(texts[k] for k in shared), {r["id"]: _row_note(r, texts, number) for r in rows})


def row_lines(row: Mapping[str, Any]) -> list[str]:
    """What a row says beyond its note: why a *fitted* or *vacuous* agreement is not independent, and each amendment
    of its rule (date, commit, reason, the verdict under the old rule and the new)."""
    lines = [f"{row['status'].capitalize()}: {row['reason']}."] if row.get("reason") else []
    for a in row.get("amendments", ()):
        lines.append(
            f"Rule amended {a['date']} ({a['commit'][:12]}): {a['reason']} Archived verdict under the old rule: "
            f"{a['verdict_old']}; under the new: {a['verdict_new']}."
        )
    return lines


def split_rows(rows: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(claims this run judged, claims it did not judge: *not evaluated*), each in report order."""
    return ([r for r in rows if r["status"] != NOT_EVALUATED], [r for r in rows if r["status"] == NOT_EVALUATED])
