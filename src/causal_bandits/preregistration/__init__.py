"""Pre-registered rules: the fingerprint each paper claim's rule was registered with, and every amendment since.

Each paper's claims module declares its rules as data (``RULES``: key -> :class:`causal_bandits.claims.Rule`) with
the names of the functions that apply them (:func:`causal_bandits.claims.declared`); a rule's fingerprint covers
its text (kind, band, basis) and that code, normalised so that comments, docstrings and layout do not move it
(:attr:`causal_bandits.claims.Rule.fingerprint`). ``registry.json`` records, per ``<paper>/<rule key>``, the
fingerprint the rule was first registered with; ``amendments.yaml`` lists every change since, in order: the date,
the commit, the reason, the fingerprints before and after, and the verdict of the archived run under the old rule
and under the new one. A rule's current fingerprint must be where its chain of amendments from the registered one
ends (:func:`check`, :func:`problems`), so a rule cannot change, in its text or in how it is applied, without an
amendment the report shows under its claims (:func:`amendments_of`). ``causal-bandits rules check`` lists each
rule that fails, the workflow refuses to judge with one, and ``causal-bandits rules register`` records a change
(:mod:`causal_bandits.preregistration.register`).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from causal_bandits.errors import ConfigError, DataError

HERE = Path(__file__).parent
REGISTRY = HERE / "registry.json"
AMENDMENTS = HERE / "amendments.yaml"
SHARED_REASONS = HERE / "shared_reasons.yaml"
#: The fields every amendment holds.
FIELDS = ("paper", "rule", "date", "commit", "reason", "old", "new", "verdict_old", "verdict_new")
#: The fields an amendment may hold: the key of a reason it shares with others (its text in shared_reasons.yaml,
#: said once) and whether the change was made after the result it judges was seen.
OPTIONAL = ("shared", "after_result")
#: What fixes a rule whose fingerprint is neither registered nor amended.
REGISTER = 'causal-bandits rules register {key} --reason "..."'
_RESTORE = "restore it with `git checkout -- src/causal_bandits/preregistration/{name}`"


@cache
def registry() -> dict[str, str]:
    """``{"<paper>/<rule key>": fingerprint as first registered}`` (:func:`parse_registry`)."""
    try:
        text = REGISTRY.read_text()
    except OSError as err:
        raise DataError(f"{REGISTRY} cannot be read ({err}): {_RESTORE.format(name=REGISTRY.name)}") from None
    return parse_registry(text, REGISTRY)


def parse_registry(text: str, path: Path | str) -> dict[str, str]:
    """A registry's ``text`` as a mapping; text that is not a JSON object of strings (a cut-off file, say) is a
    one-line :class:`DataError` naming ``path`` and the fix."""
    try:
        found = json.loads(text)
    except ValueError as err:
        raise DataError(f"{path} cannot be read ({err}): {_RESTORE.format(name=REGISTRY.name)}") from None
    if not isinstance(found, dict) or not all(isinstance(v, str) for v in found.values()):
        raise DataError(f"{path} is not a mapping of rule keys to fingerprints: {_RESTORE.format(name=REGISTRY.name)}")
    return found


@cache
def amendments() -> tuple[dict[str, Any], ...]:
    """Every amendment, in the order made; a file that is not a YAML list, or an entry that lacks a field, is a
    :class:`DataError` naming the file (and the entry) and the fix."""
    try:
        entries = yaml.safe_load(AMENDMENTS.read_text()) or []
    except (OSError, yaml.YAMLError) as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise DataError(f"{AMENDMENTS} cannot be read{where}: {_RESTORE.format(name=AMENDMENTS.name)}") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise DataError(f"{AMENDMENTS} is not a list of amendments: {_RESTORE.format(name=AMENDMENTS.name)}")
    known = shared_reasons()
    for i, entry in enumerate(entries):
        missing = [f for f in FIELDS if not entry.get(f)]
        if missing:
            raise DataError(f"{AMENDMENTS} entry {i + 1} lacks {missing}; every amendment states {FIELDS}")
        if "shared" in entry and entry["shared"] not in known:
            raise DataError(
                f"{AMENDMENTS} entry {i + 1} shares the reason {entry['shared']!r}, which {SHARED_REASONS.name} lacks; "
                f"add its text there or name one of {sorted(known)}"
            )
    return tuple(entries)


@cache
def shared_reasons() -> dict[str, str]:
    """The reasons several amendments share, by key (``shared_reasons.yaml``), each said once in the report."""
    try:
        found = yaml.safe_load(SHARED_REASONS.read_text()) or {}
    except (OSError, yaml.YAMLError):
        raise DataError(f"{SHARED_REASONS} cannot be read: {_RESTORE.format(name=SHARED_REASONS.name)}") from None
    if not isinstance(found, dict) or not all(isinstance(v, str) for v in found.values()):
        restore = _RESTORE.format(name=SHARED_REASONS.name)
        raise DataError(f"{SHARED_REASONS} is not a mapping of keys to reasons: {restore}")
    return found


def amendments_of(paper: str, rule: str) -> list[dict[str, Any]]:
    """The amendments of ``paper``'s rule ``rule``, oldest first (what the report shows under its claims): the
    fields every amendment holds, and ``shared`` and ``after_result`` where it has them."""
    return [
        {k: str(entry[k]) for k in FIELDS if k not in ("paper", "rule")} | {k: entry[k] for k in OPTIONAL if k in entry}
        for entry in amendments()
        if entry["paper"] == paper and entry["rule"] == rule
    ]


def chain(paper: str, rule: str) -> list[str]:
    """Every fingerprint ``paper``'s rule has had: the registered one, then each amendment's ``new`` (empty: not
    registered). Raises :class:`DataError` where an amendment's ``old`` is not the fingerprint before it."""
    fingerprint = registry().get(f"{paper}/{rule}")
    if fingerprint is None:
        return []
    found = [fingerprint]
    for entry in amendments():
        if entry["paper"] == paper and entry["rule"] == rule:
            if entry["old"] != found[-1]:
                raise DataError(
                    f"{AMENDMENTS} amendment of {paper}/{rule} on {entry['date']} starts from {entry['old']}, but the "
                    f"rule had {found[-1]} then; chain amendments in the order they were made"
                )
            found.append(entry["new"])
    return found


def current(paper: str, rule: str) -> str | None:
    """The fingerprint ``paper``'s rule should have now: the end of its :func:`chain` (None: not registered)."""
    found = chain(paper, rule)
    return found[-1] if found else None


def check(paper: str, rules: Mapping[str, Any]) -> list[str]:
    """One line per rule of ``paper`` (``RULES``, key -> Rule) whose fingerprint is not the registered one amended,
    with the command that fixes it, and per registered rule no claim uses."""
    problems = []
    for key, rule in rules.items():
        expected, name = current(paper, key), f"{paper}/{key}"
        if expected is None:
            problems.append(f"{name} is not registered (fingerprint {rule.fingerprint}): {REGISTER.format(key=name)}")
        elif expected != rule.fingerprint:
            problems.append(
                f"{name} changed without an amendment (fingerprint {rule.fingerprint}, registered or last amended "
                f"{expected}): {REGISTER.format(key=name)}"
            )
    stale = sorted(k for k in registry() if k.startswith(f"{paper}/") and k.split("/", 1)[1] not in rules)
    problems += [f"{k} is registered but no claim uses it: remove it from {REGISTRY}" for k in stale]
    return problems


def paper_rules(paper: str) -> Mapping[str, Any]:
    """``paper``'s declared ``RULES`` (its claims module's)."""
    return importlib.import_module(f"causal_bandits.papers.{paper}.claims").RULES


def problems(papers: tuple[str, ...] | None = None) -> list[str]:
    """:func:`check` of every registered paper (or of ``papers``): what ``causal-bandits rules check`` prints and
    what stops the workflow before it judges."""
    from causal_bandits.papers import PAPERS

    return [line for paper in (papers or PAPERS) for line in check(paper, paper_rules(paper))]


def refuse_unrecorded(papers: tuple[str, ...] | list[str]) -> None:
    """Raise a one-line :class:`ConfigError` naming each rule of ``papers`` that is neither registered nor amended
    and the command that registers it: the workflow judges no claim by such a rule (checked before any job)."""
    found = problems(tuple(papers)) if papers else []
    if found:
        raise ConfigError(f"refusing to judge claims by a rule not pre-registered: {'; '.join(found)}")


def forged(recorded: Mapping[str, str]) -> list[str]:
    """One line per rule fingerprint an archive's manifest records (``rules``: ``"<paper>/<key>"`` -> fingerprint)
    that the checked-out registry never had for that rule (neither registered nor amended to): what ``verify``
    refuses."""
    out = []
    for name, fingerprint in sorted(recorded.items()):
        paper, _, key = name.partition("/")
        if fingerprint not in chain(paper, key):
            out.append(
                f"the manifest's rule {name} has fingerprint {fingerprint}, which {REGISTRY.name} and "
                f"{AMENDMENTS.name} never gave it: the archive's record of its rules was edited, or was made with "
                "rules this checkout does not know (verify from the archive's own commit)"
            )
    return out


def refuse_forged(recorded: Mapping[str, str]) -> None:
    """Raise a one-line :class:`DataError` when an archive's manifest records a rule fingerprint the checked-out
    registry never had (:func:`forged`): what ``verify`` checks before it rebuilds anything."""
    found = forged(recorded)
    if found:
        raise DataError(f"{found[0]}" + (f" (and {len(found) - 1} more rule(s))" if len(found) > 1 else ""))


def fingerprints(documents: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """``{"<paper>/<rule key>": fingerprint}`` of the rules the rows of the claims ``documents`` (by paper) were
    judged by: what an archive's manifest records."""
    return {
        f"{paper}/{row['rule']['key']}": row["rule"]["fingerprint"]
        for paper, doc in sorted(documents.items())
        for row in doc.get("claims", ())
        if row.get("rule")
    }
