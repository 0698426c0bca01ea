"""Run jobs by workflow rule: which rule a benchmarked job belongs to, each rule's CPU in the archived run, and the
speed-up of a set of jobs weighted by those CPUs (``run_jobs_speed.py`` prints them).

A job is named ``paper:experiment/strategy/algorithm`` (``run_jobs_speed.JOBS``); its rule is the workflow's:
``cpe_run_budgets`` for the parallel bandit's budget runs (algorithm ``pb``), ``nonmanip_run_pomisplus`` for POMIS+,
``unknown_graph_discovery`` for the V6 jobs, else ``<paper>_run``. The weights are the CPU seconds each rule's jobs
took in the archived paper-scale run (``archive/paper-scale/manifest.json``, its ``jobs``), and with ``RELEASE`` in
that run and the archived studies' run (``archive/studies/manifest.json``) together, as a release runs both: a study's
run rule runs a paper rule's solvers on other instances or settings (``STUDY_RULES``), so its jobs weigh that rule.
The weighted speed-up is the archive's CPU over the rules measured divided by what it would have cost with each rule
sped up as its measured jobs were (sum of w over sum of w / s). Rules with no measured job are left out of both sums,
and the coverage line says how much of the archive's run CPU the measured rules hold.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

MANIFEST = Path(__file__).resolve().parent.parent / "archive" / "paper-scale" / "manifest.json"
#: The manifests of a release's runs: the papers' and the studies'.
RELEASE = (MANIFEST, MANIFEST.parent.parent / "studies" / "manifest.json")
#: A study's run rule and the paper rule whose jobs its jobs are, by the job's strategy (None: any strategy).
STUDY_RULES = {
    "robustness_run": {"POMISplus": "nonmanip_run_pomisplus", None: "nonmanip_run"},
    "refresh_run": {"POMISplus": "nonmanip_run_pomisplus", None: "nonmanip_run"},
    "same_means_run": {"POMISplus": "nonmanip_run_pomisplus", None: "nonmanip_run"},
    "knobs_run": {"POMISplus": "nonmanip_run_pomisplus", None: "nonmanip_run"},
    "fucb_radius_run": {None: "fairness_run"},
}


def rule_of(job: str) -> str:
    """The workflow rule that runs benchmarked job ``job``."""
    paper, rest = job.split(":", 1)
    if paper == "unknown_graph_discovery":
        return paper
    strategy, algorithm = rest.split("/")[1:]
    if paper == "cpe" and algorithm == "pb":
        return "cpe_run_budgets"
    if paper == "nonmanip" and strategy == "POMISplus":
        return "nonmanip_run_pomisplus"
    return f"{paper}_run"


def paper_rule(job: dict) -> str:
    """The paper rule an archived job's rule is (a study's run rule: :data:`STUDY_RULES`), else its own rule."""
    study = STUDY_RULES.get(job["rule"])
    if study is None:
        return job["rule"]
    return study.get(job["wildcards"].get("strategy"), study[None])


def archive_cpu(manifests: tuple[Path, ...] = (MANIFEST,)) -> dict[str, float]:
    """CPU seconds per (paper) rule in the archived runs of ``manifests``; none (every weight 0) without one."""
    cpu: dict[str, float] = defaultdict(float)
    if not all(manifest.exists() for manifest in manifests):
        return {}
    for manifest in manifests:
        for job in json.loads(manifest.read_text())["jobs"]:
            cpu[paper_rule(job)] += job["cpu_s"]
    return dict(cpu)


def is_run_rule(rule: str) -> bool:
    """A rule that simulates bandit runs (the rules :func:`rule_of` names)."""
    return rule.endswith(("_run", "_run_budgets", "_run_pomisplus")) or rule == "unknown_graph_discovery"


def by_rule(rows: list[dict], weights: dict[str, float]) -> list[dict]:
    """The measured jobs summed per rule: CPU now (and before, with the speed-up, and the draws' floor with the ratio
    of CPU to floor, where the rows have them), with the rule's archive CPU as its weight."""
    rules: dict[str, dict] = {}
    for row in rows:
        rule = rules.setdefault(
            row["rule"], {"rule": row["rule"], "jobs": 0, "weight_cpu_s": weights.get(row["rule"], 0.0)}
        )
        rule["jobs"] += 1
        for key in ("cpu_s", "before_cpu_s", "floor_cpu_s"):
            if key in row:
                rule[key] = rule.get(key, 0.0) + row[key]
    for rule in rules.values():
        if "before_cpu_s" in rule:
            rule["speedup"] = rule["before_cpu_s"] / rule["cpu_s"]
        if rule.get("floor_cpu_s"):
            rule["over_floor"] = rule["cpu_s"] / rule["floor_cpu_s"]
    return sorted(rules.values(), key=lambda rule: -rule["weight_cpu_s"])


def weighted_speedup(rules: list[dict]) -> float:
    """The archive's CPU over the measured rules, over that CPU with each rule sped up as measured (NaN without
    weights)."""
    measured = [rule for rule in rules if "speedup" in rule and rule["weight_cpu_s"] > 0]
    if not measured:
        return float("nan")
    return sum(rule["weight_cpu_s"] for rule in measured) / sum(
        rule["weight_cpu_s"] / rule["speedup"] for rule in measured
    )


def coverage(rules: list[dict], weights: dict[str, float]) -> float:
    """The share of the archive's run-rule CPU held by the rules measured."""
    total = sum(cpu for rule, cpu in weights.items() if is_run_rule(rule))
    return sum(rule["weight_cpu_s"] for rule in rules) / total if total else 0.0
