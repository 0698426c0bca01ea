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


#: The papers' texts, where the checkout sits beside them (/work/shared/papers/<key>.txt on the project's machines).
TEXTS = ROOT.parent / "shared" / "papers"
#: How a paper's text declares a numbered statement: "Theorem 3 (Causal Bound ...).", "Lemma 2.", "Table 1:".
DECLARED = re.compile(
    rf"(?:^|(?<=[\s.]))({'|'.join(coverage.KINDS)})\s(\d+)(?:\s\((?:[^()]|\([^()]*\))*\))?\s*[.:](?=\s)", re.M
)


@pytest.mark.parametrize(
    ("paper", "statement"), [(p, s) for p in PAPERS for s in coverage.statements(p)], ids=lambda x: str(x)
)
def test_every_statement_of_the_paper_has_an_entry(paper: str, statement: str) -> None:
    """Each numbered table, figure, theorem, lemma, proposition, corollary and claim of the paper (its
    ``STATEMENTS``, listed here one test each) is named by an entry: a claim, or why it is not checkable here."""
    assert statement not in coverage.unlisted(paper), f"{paper}: {statement} has no COVERAGE entry"


def test_a_statement_without_an_entry_is_named(monkeypatch) -> None:
    module = importlib.import_module("causal_bandits.papers.unknown_graph.coverage")
    monkeypatch.setattr(module, "COVERAGE", tuple(e for e in module.COVERAGE if not e.part.startswith("Theorem 3")))
    assert coverage.unlisted("unknown_graph") == ["Theorem 3"]
    assert coverage.named("Theorems 5-6, 10 (bounds), Lemma 1 / Table 2") == {
        ("Theorem", 5),
        ("Theorem", 6),
        ("Theorem", 10),
        ("Lemma", 1),
        ("Table", 2),
    }


@pytest.mark.parametrize("paper", PAPERS)
def test_the_statement_list_holds_every_statement_the_papers_text_declares(paper: str) -> None:
    text = TEXTS / f"{paper}.txt"
    if not text.is_file():
        pytest.skip(f"no text of the paper beside this checkout ({text})")
    declared = {(kind, int(n)) for kind, n in DECLARED.findall(text.read_text(encoding="utf-8"))}
    listed = coverage.named(" ".join(coverage.statements(paper)))
    assert not declared - listed, f"{paper}: statements its text declares that STATEMENTS leaves out"


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
    covered = set().union(*(coverage.named(entry.part) for entry in coverage.entries(paper)))
    missing = [a.label for a in own if not coverage.named(a.label) <= covered]
    assert not missing, f"{paper}: the paper's tables and figures without a COVERAGE entry"
