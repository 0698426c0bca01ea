"""Pre-registered claim rules: every paper rule registered, every change amended (causal_bandits.preregistration)."""

from __future__ import annotations

import importlib

import pytest

from causal_bandits import papers, preregistration
from causal_bandits.claims import Claim, Rule, Verdict, document


def _rules(paper: str):
    return importlib.import_module(f"causal_bandits.papers.{paper}.claims").RULES


@pytest.mark.parametrize("paper", papers.PAPERS)
def test_every_rule_is_registered_and_every_change_amended(paper):
    assert preregistration.check(paper, _rules(paper)) == []


def test_a_changed_rule_without_an_amendment_fails(monkeypatch):
    rules = dict(_rules("nonmanip"))
    old = rules["table1"]
    rules["table1"] = Rule(old.kind, old.basis, {**old.band, "rel_tol": 0.2})
    problems = preregistration.check("nonmanip", rules)
    assert len(problems) == 1 and "nonmanip/table1 changed" in problems[0] and "amendments.yaml" in problems[0]
    rules["brand-new"] = Rule("exact", "x")
    assert any("brand-new is not registered" in p for p in preregistration.check("nonmanip", rules))


def test_the_fingerprint_is_the_sha256_of_the_canonical_rule():
    rule = Rule("band", "b", {"rel_tol": 0.15})
    assert rule.fingerprint == Rule("band", "b", {"rel_tol": 0.15}).fingerprint
    assert rule.fingerprint != Rule("band", "b", {"rel_tol": 0.150001}).fingerprint
    assert len(rule.fingerprint) == 64


def test_amendments_chain_and_their_old_rules_hash_to_their_old_fingerprints():
    for entry in preregistration.amendments():
        if "old_rule" in entry:
            old = entry["old_rule"]
            assert Rule(old["kind"], old["basis"], old["band"]).fingerprint == entry["old"], entry["date"]
    # the Theorem 4-5 change is the first amendment, with both verdicts
    first = preregistration.amendments_of("unknown_graph", "thm45")[0]
    assert first["commit"].startswith("7825992") and first["verdict_old"].startswith("differs")
    assert first["verdict_new"].startswith("reproduced")


def test_documents_carry_rule_fingerprints_and_amendments():
    rule = _rules("unknown_graph")["thm45"]
    claim = Claim("thm45", "Thm 4", "s", lambda r: Verdict("reproduced", "p", "o"), "thm45", rule)
    doc = document("unknown_graph", {"horizon": 1, "n_seeds": 1}, [claim.check({})])
    row = doc["claims"][0]
    assert row["rule"]["fingerprint"] == rule.fingerprint and row["rule"]["key"] == "thm45"
    assert row["amendments"][0]["commit"].startswith("7825992")
    assert preregistration.fingerprints({"unknown_graph": doc}) == {"unknown_graph/thm45": rule.fingerprint}
