"""Every table, figure panel and checkable statement of each paper is a claim or says why it is not checkable
here (:mod:`causal_bandits.coverage`), and the list cannot go stale against the claims."""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path

import pytest

from causal_bandits import config as cb_config
from causal_bandits import coverage
from causal_bandits.papers import PAPERS
from causal_bandits.papers import paper as paper_registry

ROOT = Path(__file__).resolve().parents[1]
ARCHIVED = ROOT / "archive" / "paper-scale" / "results" / "claims"


def _claim_ids(paper: str) -> list[str]:
    """The paper's claims at paper scale: from its claims module where that needs no results, and the archived
    run's (every claim of the default config) for the papers whose claims follow the config."""
    listed = importlib.import_module(paper_registry(paper).claims).claims
    ids = [c.id for c in listed()] if not inspect.signature(listed).parameters else []
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


def _named(text: str) -> set[tuple[str, int]]:
    """The tables and figures a text names: "Figures 1-4, Table 1" -> {(Figure, 1), ..., (Figure, 4), (Table, 1)}."""
    found = set()
    for kind, first, last in re.findall(r"\b(Table|Figure)s? (\d+)(?:\s*[-–]\s*(\d+))?", text):
        found |= {(kind, n) for n in range(int(first), int(last or first) + 1)}
    return found


@pytest.mark.parametrize("paper", PAPERS)
def test_every_table_and_figure_of_the_paper_has_an_entry(paper: str) -> None:
    """An artefact that reproduces a table or figure of the paper (not one designed for this replication or an
    addition) is named by some coverage entry."""
    config = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))
    own = [
        a
        for a in paper_registry(paper).artefacts(config[paper])
        if "designed for this replication" not in a.title and "addition" not in a.title
    ]
    covered = set().union(*(_named(entry.part) for entry in coverage.entries(paper)))
    missing = [a.label for a in own if not _named(a.label) <= covered]
    assert not missing, f"{paper}: the paper's tables and figures without a COVERAGE entry"
