"""Every table, figure panel and checkable statement of each paper is a claim or says why it is not checkable
here (:mod:`causal_bandits.coverage`), and the list cannot go stale against the claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from causal_bandits import coverage
from causal_bandits.papers import PAPERS
from causal_bandits.papers.bounds import claims as bounds
from causal_bandits.papers.fairness import claims as fairness
from causal_bandits.papers.unknown_graph import claims as unknown_graph

ROOT = Path(__file__).resolve().parents[1]
ARCHIVED = ROOT / "archive" / "paper-scale" / "results" / "claims"


def _claim_ids(paper: str) -> list[str]:
    """The paper's claims at paper scale: from its claims module where that needs no results, and the archived
    run's (every claim of the default config) for the papers whose claims follow the config."""
    listed = {"bounds": bounds.claims, "fairness": fairness.claims, "unknown_graph": unknown_graph.claims}
    ids = [c.id for c in listed[paper]()] if paper in listed else []
    if (ARCHIVED / f"{paper}.json").is_file():
        ids += [row["id"] for row in json.loads((ARCHIVED / f"{paper}.json").read_text())["claims"]]
    return ids


@pytest.mark.parametrize("paper", PAPERS)
def test_every_claim_is_covered_and_every_entry_matches_a_claim(paper: str) -> None:
    ids = _claim_ids(paper)
    assert ids, paper
    assert not coverage.uncovered(paper, ids), f"{paper}: claims no COVERAGE entry names"
    assert not coverage.unmatched(paper, ids), f"{paper}: COVERAGE patterns that match no claim"


def test_an_entry_is_a_claim_or_says_why_not() -> None:
    with pytest.raises(ValueError, match="either the claims"):
        coverage.Entry("Table 9", "something")
    with pytest.raises(ValueError, match="either the claims"):
        coverage.Entry("Table 9", "something", claims=("^x$",), why="both")


def test_the_table_lists_every_entry() -> None:
    table = coverage.markdown(PAPERS)
    for paper in PAPERS:
        for entry in coverage.entries(paper):
            assert entry.part in table
    assert table.count("not checkable here") == sum(1 for p in PAPERS for e in coverage.entries(p) if e.why)
