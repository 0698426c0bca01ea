"""Coverage: every table, figure panel and empirically checkable statement of a paper, and how the report
covers it.

Each paper declares ``COVERAGE`` in ``papers/<key>/coverage.py``: a tuple of :class:`Entry`, one per part of
the paper (a table, a figure panel, a theorem or lemma whose statement a run can test, a stated rate). An
entry either names the claims that check it (regular expressions on claim ids, as in ``artefacts.py``) or says
why it is *not checkable here*. ``tests/test_coverage.py`` fails on an entry whose patterns match no claim and
on a claim no entry covers, so the list cannot go stale; docs/guide/reading-the-report.md shows it
(:func:`markdown`, filled in by the docs hook).
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


def entries(paper: str) -> tuple[Entry, ...]:
    """The paper's ``COVERAGE``."""
    return importlib.import_module(f"causal_bandits.papers.{paper}.coverage").COVERAGE


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
