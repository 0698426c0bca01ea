"""The report's claim notes, each said once per paper.

A claim row holds its own ``note`` and the keys of the paper's shared notes it cites (``notes``); the
paper's claims document holds their texts by key (:func:`causal_bandits.claims.note_texts`). Each amendment of a
row's rule is a note too (:func:`amendment_text`): the claims of one rule share its amendments, which say what
moved under the whole rule. :func:`shared_notes` numbers the notes two or more rows cite, in order of first
citation, and writes each row's note: its own text, the text of any note only it cites, then its citations,
"(note 1)", "(notes 1, 3)".

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


#: How the report names a rule set after the result it judges was seen.
AFTER_RESULT = "rule set after its result was seen"


def amendment_text(amendment: Mapping[str, Any]) -> str:
    """An amendment of a rule as the report says it: date, commit, whether it was made after the result was seen,
    its own reason, the shared reason it cites (by key: its text is said once, :func:`shared_reason_lines`), the
    archived verdicts under the old rule and the new."""
    a = amendment
    when = ", after its result was seen" if a.get("after_result") else ""
    shared = f" (and the shared reason '{a['shared']}')" if a.get("shared") else ""
    return (
        f"Rule amended {a['date']} ({a['commit'][:12]}){when}: {a['reason']}{shared} Archived verdict under the old "
        f"rule: {a['verdict_old']}; under the new: {a['verdict_new']}."
    )


def shared_reason_lines(docs: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(key, text) of every reason the amendments of ``docs`` share, each once, by key."""
    found: dict[str, str] = {}
    for doc in docs:
        found |= doc.get("shared_reasons", {})
    return sorted(found.items())


def _cited(row: Mapping[str, Any]) -> list[str]:
    """The keys of the notes a row cites: its shared notes, then its rule's amendments (by commit and new rule)."""
    return [*row.get("notes", ()), *(f"amendment {a['commit']} {a['new']}" for a in row.get("amendments", ()))]


def _row_note(row: Mapping[str, Any], texts: Mapping[str, str], number: Mapping[str, int]) -> str:
    own = [row.get("note") or "", *(texts[k] for k in _cited(row) if k not in number)]
    refs = [number[k] for k in _cited(row) if k in number]
    cite = f"(note{'s' if len(refs) > 1 else ''} {', '.join(map(str, refs))})" if refs else ""
    return " ".join(p for p in ("; ".join(p for p in own if p), cite) if p)


def shared_notes(doc: Mapping[str, Any]) -> Notes:
    """The shared notes of a paper's claims document that two or more of its rows cite (amendments of their rule
    included), numbered in order of first citation, and each row's note (its own text, then the text of notes no
    other row cites, then its citations)."""
    rows = doc["claims"]
    texts = dict(doc.get("notes", {}))
    for row in rows:
        texts.update(zip(_cited(row)[len(row.get("notes", ())) :], map(amendment_text, row.get("amendments", ()))))
    cited = Counter(key for row in rows for key in dict.fromkeys(_cited(row)))
    shared = [key for key in dict.fromkeys(k for row in rows for k in _cited(row)) if cited[key] > 1]
    number = {key: i for i, key in enumerate(shared, 1)}
    return Notes(tuple(texts[k] for k in shared), {r["id"]: _row_note(r, texts, number) for r in rows})


def row_lines(row: Mapping[str, Any]) -> list[str]:
    """What a row says beyond its note: that its rule was set after its result was seen (an amendment says so),
    and why a *fitted* or *vacuous* agreement is not independent."""
    late = any(a.get("after_result") for a in row.get("amendments", ()))
    lines = [f"{AFTER_RESULT.capitalize()} (its amendments)."] if late else []
    return lines + ([f"{row['status'].capitalize()}: {row['reason']}."] if row.get("reason") else [])


def split_rows(rows: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(claims this run judged, claims it did not judge: *not evaluated*), each in report order."""
    return ([r for r in rows if r["status"] != NOT_EVALUATED], [r for r in rows if r["status"] == NOT_EVALUATED])
