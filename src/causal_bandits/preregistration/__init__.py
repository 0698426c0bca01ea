"""Pre-registered rules: the fingerprint each paper claim's rule was registered with, and every amendment since.

Each paper's claims module declares its rules as data (``RULES``: key -> :class:`causal_bandits.claims.Rule`);
a rule's fingerprint is the sha256 of its canonical JSON. ``registry.json`` records, per ``<paper>/<rule key>``,
the fingerprint the rule was first registered with; ``amendments.yaml`` lists every change since, in order:
the date, the commit that made it, the reason, the fingerprints before and after, and the verdict of the
archived run under the old rule and under the new one. A rule's current fingerprint must be where its chain
of amendments from the registered one ends (:func:`check`; tests/test_preregistration.py), so a rule cannot
change without an amendment the report shows under its claims (:func:`amendments_of`).

The fingerprint covers the rule's declared data (kind, band, basis), not the code that applies it: a change to
the code of a claim that changes what its rule means must change its ``basis`` too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
REGISTRY = HERE / "registry.json"
AMENDMENTS = HERE / "amendments.yaml"
#: The fields every amendment holds.
FIELDS = ("paper", "rule", "date", "commit", "reason", "old", "new", "verdict_old", "verdict_new")


@cache
def registry() -> dict[str, str]:
    """``{"<paper>/<rule key>": fingerprint as first registered}``."""
    return json.loads(REGISTRY.read_text())


@cache
def amendments() -> tuple[dict[str, Any], ...]:
    """Every amendment, in the order made; raises ``ValueError`` naming an entry that lacks a field."""
    entries = yaml.safe_load(AMENDMENTS.read_text()) or []
    for i, entry in enumerate(entries):
        missing = [f for f in FIELDS if not entry.get(f)]
        if missing:
            raise ValueError(f"{AMENDMENTS.name} entry {i + 1} lacks {missing}; every amendment states {FIELDS}")
    return tuple(entries)


def amendments_of(paper: str, rule: str) -> list[dict[str, Any]]:
    """The amendments of ``paper``'s rule ``rule``, oldest first (what the report shows under its claims)."""
    return [
        {k: str(entry[k]) for k in FIELDS if k not in ("paper", "rule")}
        for entry in amendments()
        if entry["paper"] == paper and entry["rule"] == rule
    ]


def current(paper: str, rule: str) -> str | None:
    """The fingerprint ``paper``'s rule should have now: the registered one, then each amendment's ``new``
    (None: not registered). Raises ``ValueError`` where an amendment's ``old`` is not the fingerprint before it."""
    fingerprint = registry().get(f"{paper}/{rule}")
    if fingerprint is None:
        return None
    for entry in amendments():
        if entry["paper"] == paper and entry["rule"] == rule:
            if entry["old"] != fingerprint:
                raise ValueError(
                    f"amendment of {paper}/{rule} on {entry['date']} starts from {entry['old'][:12]}, but the rule "
                    f"had {fingerprint[:12]} then; chain amendments in the order they were made"
                )
            fingerprint = entry["new"]
    return fingerprint


def check(paper: str, rules: Mapping[str, Any]) -> list[str]:
    """One line per rule of ``paper`` (``RULES``, key -> Rule) whose fingerprint is not the registered one
    amended: what changed and the fix."""
    problems = []
    for key, rule in rules.items():
        expected = current(paper, key)
        if expected is None:
            problems.append(
                f"{paper}/{key} is not registered: add its fingerprint {rule.fingerprint} to {REGISTRY.name}"
            )
        elif expected != rule.fingerprint:
            problems.append(
                f"{paper}/{key} changed (fingerprint {rule.fingerprint[:12]}, registered/amended "
                f"{expected[:12]}): add an amendment to {AMENDMENTS.name} (date, commit, reason, old {expected}, "
                f"new {rule.fingerprint}, the archived verdict under each)"
            )
    stale = sorted(k for k in registry() if k.startswith(f"{paper}/") and k.split("/", 1)[1] not in rules)
    problems += [f"{k} is registered but no claim uses it: remove it from {REGISTRY.name}" for k in stale]
    return problems


def fingerprints(documents: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """``{"<paper>/<rule key>": fingerprint}`` of the rules the rows of the claims ``documents`` (by paper) were
    judged by: what an archive's manifest records."""
    return {
        f"{paper}/{row['rule']['key']}": row["rule"]["fingerprint"]
        for paper, doc in sorted(documents.items())
        for row in doc.get("claims", ())
        if row.get("rule")
    }
