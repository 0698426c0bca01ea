"""Coverage: every table, figure panel and empirically checkable statement of a paper, and how the report
covers it.

Each paper declares ``COVERAGE`` in ``papers/<key>/coverage.py``: a tuple of :class:`Entry`, one per part of
the paper (a table, a figure panel, a theorem or lemma whose statement a run can test, a stated rate). An
entry either names the claims that check it (regular expressions on claim ids, as in ``artefacts.py``) or says
why it is *not checkable here*. Beside it, ``STATEMENTS`` lists every numbered table, figure, theorem, lemma,
proposition, corollary and claim of the paper's text, each of which some entry's part must name
(:func:`unlisted`). ``tests/test_coverage.py`` fails on an entry whose patterns match no claim, on a claim no
entry covers and on a statement no entry names (and checks ``STATEMENTS`` against the paper's text where the
checkout has it), so the list cannot go stale; docs/guide/reading-the-report.md shows it (:func:`markdown`,
filled in by the docs hook).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """A part of a paper (``part``: "Table 1", "Figure 5 (c)", "Theorem 2"), what it states, and either the
    claims that check it (``claims``: regular expressions on claim ids) or why it is not checkable here."""

    part: str
    statement: str
    claims: tuple[str, ...] = ()
    why: str = ""

    def __post_init__(self) -> None:
        if bool(self.claims) == bool(self.why):
            raise ValueError(f"coverage entry {self.part!r}: give either the claims that check it or why none can")

    def covers(self, claim_id: str) -> bool:
        return any(re.search(pattern, claim_id) for pattern in self.claims)


#: The numbered parts of a paper a statement list names, and how a text names them: "Theorems 5-6, 10",
#: "Figure 5 (a)", "Lemma 1 / Theorem 4".
KINDS = ("Table", "Figure", "Theorem", "Lemma", "Proposition", "Corollary", "Claim")
_NAMED = re.compile(rf"\b({'|'.join(KINDS)})s?\s+(\d+(?:\s*(?:[-–]|,)\s*\d+)*)")


def named(text: str) -> set[tuple[str, int]]:
    """The numbered parts ``text`` names: "Theorems 5-6, 10, Table 1" -> {(Theorem, 5), (Theorem, 6),
    (Theorem, 10), (Table, 1)}."""
    found = set()
    for kind, numbers in _NAMED.findall(text):
        for span in re.split(r"\s*,\s*", numbers):
            first, _, last = re.sub(r"\s*[-–]\s*", "-", span).partition("-")
            found |= {(kind, n) for n in range(int(first), int(last or first) + 1)}
    return found


def _module(paper: str):
    return importlib.import_module(f"causal_bandits.papers.{paper}.coverage")


def entries(paper: str) -> tuple[Entry, ...]:
    """The paper's ``COVERAGE``."""
    return _module(paper).COVERAGE


def statements(paper: str) -> tuple[str, ...]:
    """The paper's ``STATEMENTS``: every numbered table, figure, theorem, lemma, proposition, corollary and claim
    of its text."""
    return _module(paper).STATEMENTS


def unlisted(paper: str) -> list[str]:
    """The paper's statements that no entry's part names."""
    covered = set().union(*(named(e.part) for e in entries(paper)))
    return [s for s in statements(paper) if not named(s) <= covered]


def uncovered(paper: str, claim_ids: Iterable[str]) -> list[str]:
    """The claim ids that no entry of the paper covers."""
    return [i for i in claim_ids if not any(e.covers(i) for e in entries(paper))]


def unmatched(paper: str, claim_ids: Sequence[str]) -> list[str]:
    """The patterns of the paper's entries that match none of ``claim_ids``."""
    return [p for e in entries(paper) for p in e.claims if not any(re.search(p, i) for i in claim_ids)]


def markdown(papers: Sequence[str]) -> str:
    """One table per paper: part, statement, and the claims that check it or why it is not checkable here."""
    out = []
    for paper in papers:
        rows = [f"**{paper}**", "", "| part of the paper | statement | checked by |", "|---|---|---|"]
        for e in entries(paper):
            how = ", ".join(f"`{p}`" for p in e.claims) if e.claims else f"*not checkable here:* {e.why}"
            cells = [text.replace("|", "\\|").replace("{", "&#123;") for text in (e.part, e.statement, how)]
            rows.append("| " + " | ".join(cells) + " |")
        out.append("\n".join(rows))
    return "\n\n".join(out)
