"""Recording a rule: a new rule's fingerprint into ``registry.json``, a changed rule's amendment into
``amendments.yaml`` (what ``causal-bandits rules register`` writes; both files written atomically)."""

from __future__ import annotations

import datetime
import json
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from causal_bandits import preregistration as prereg
from causal_bandits import store
from causal_bandits.errors import ConfigError

#: The archived run whose verdicts an amendment states as the verdict under the old rule.
ARCHIVE = Path("archive/paper-scale/results/claims")


def split(key: str) -> tuple[str, str, Any]:
    """(paper, rule key, rule) of ``"<paper>/<rule key>"``; an unknown paper or rule is a one-line error."""
    from causal_bandits.papers import PAPERS

    paper, _, name = key.partition("/")
    if paper not in PAPERS:
        raise ConfigError(f"no paper {paper!r} in {key!r}: name a rule as <paper>/<rule key>, paper one of {PAPERS}")
    rules = prereg.paper_rules(paper)
    if name not in rules:
        raise ConfigError(f"{paper} has no rule {name!r}: its rules are {', '.join(sorted(rules))}")
    return paper, name, rules[name]


def archived_verdicts(paper: str, rule: str, archive: Path = ARCHIVE) -> str:
    """The verdicts of the archived run's rows judged by ``paper``'s ``rule``, counted (empty when the archive has
    no such row)."""
    path = archive / f"{paper}.json"
    if not path.is_file():
        return ""
    rows = [r for r in json.loads(path.read_text())["claims"] if (r.get("rule") or {}).get("key") == rule]
    return ", ".join(f"{n} {status}" for status, n in Counter(r["status"] for r in rows).most_common())


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else "no git history"


def register(key: str, reason: str, verdict_new: str = "", verdict_old: str = "", after_result: bool = False) -> str:
    """Record ``key``'s current fingerprint: into the registry when the rule is new, else as an amendment (``reason``,
    the verdicts of the archived run under the old rule, by default counted from the archive, and under the new
    one, which the caller states; ``after_result``: the change was made after the result it judges was seen). Returns
    the line to print; a rule already recorded changes nothing."""
    paper, name, rule = split(key)
    expected, fingerprint = prereg.current(paper, name), rule.fingerprint
    if expected == fingerprint:
        return f"{key} is already registered with fingerprint {fingerprint}: nothing to do"
    if expected is None:
        found = {**prereg.registry(), key: fingerprint}
        text = json.dumps(dict(sorted(found.items())), indent=1, ensure_ascii=False) + "\n"
        store.write_atomic(prereg.REGISTRY, lambda tmp: tmp.write_text(text))
        prereg.registry.cache_clear()
        return f"registered {key} with fingerprint {fingerprint} in {prereg.REGISTRY}"
    if not reason.strip():
        raise ConfigError(f"{key} changed: say why with --reason TEXT (the amendment's reason)")
    old = verdict_old or archived_verdicts(paper, name)
    if not old or not verdict_new:
        missing = "--verdict-new TEXT (the archived rows judged under the new rule)" if old else "--verdict-old TEXT"
        raise ConfigError(f"{key} changed: an amendment states the verdict under each rule; give {missing}")
    entry = {
        "paper": paper,
        "rule": name,
        "date": datetime.date.today().isoformat(),
        "commit": _commit(),
        "reason": reason,
        "old": expected,
        "new": fingerprint,
        "verdict_old": old,
        "verdict_new": verdict_new,
    } | ({"after_result": True} if after_result else {})
    text = prereg.AMENDMENTS.read_text()
    text += ("" if text.endswith("\n") else "\n") + yaml.safe_dump(
        [entry], allow_unicode=True, sort_keys=False, width=120
    )
    store.write_atomic(prereg.AMENDMENTS, lambda tmp: tmp.write_text(text))
    prereg.amendments.cache_clear()
    return f"amended {key}: {expected} -> {fingerprint} in {prereg.AMENDMENTS}"
