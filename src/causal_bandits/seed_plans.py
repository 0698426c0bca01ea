"""Seeds planned before the run: for each claim the archived paper-scale run left *inconclusive*, the seeds (or
runs) that would decide it, computed from its archived interval and recorded as data with the rules
(``preregistration/seed_plans.yaml``, fingerprinted) before any planned seed runs.

The rule of the plan, fixed here before any planned run:

* **band** (a mean's t-interval against the claim's band): the planned count m is the smallest with
  (t₀.₉₇₅,ₘ₋₁ + z_POWER) · s / √m ≤ d, where s = half · √n / t₀.₉₇₅,ₙ₋₁ is the seeds' standard deviation read
  from the archived interval (half-width ``half`` over n seeds) and d the distance from the estimate to the band's
  nearest edge: if the estimate is the truth, m fresh seeds put the interval clear of that edge with probability
  :data:`POWER`.
* **parts** (orderings and ratios on delta-method intervals with z = 1.96, and one-sided maxima): the archived count
  N = n · (half / d)² of the claim's slowest part, computed by the report from the unrounded interval, brought to
  the same power: m = ⌈N · ((z₀.₉₇₅ + z_POWER) / z₀.₉₇₅)²⌉.
* **rate** (a success rate's Wilson interval against 1 − δ with every archived run a success): the smallest m at
  which m successes of m put the Wilson interval's lower end at or above the edge.
* **none**: no count decides the claim (its band shares our standard error, its steps are exact ties, or its
  interval need not narrow with seeds); the plan says why.

Planned seeds are fresh: planned seed k of a claim's runs is seed :data:`FIRST_PLANNED_SEED` + k of the same
stream keys (:func:`causal_bandits.rng.seed_sequence`: paper, experiment, seed, purpose). Every paper's schema caps
``n_seeds`` at 1,000,000, so seeds 0..999,999 are the only ones a config's runs can use, and the planned seeds'
streams are disjoint from every paper-scale run's, the run that suggested the plan included; the planned runs keep
every other part of the key, so they are the same algorithm on the same instance. The claim is judged on the
planned seeds alone, so the plan cannot chase the noise that suggested it.

Cost: the CPU seconds the archived manifest records for the claim's run jobs, per seed (or run), times m. A claim
whose plan costs more than :data:`BUDGET_CPU_S` stays *inconclusive* with its cost stated.
``python -m causal_bandits.seed_plans`` prints the plan from the archive (``--write`` records it);
``tests/test_seed_plans.py`` checks that the committed plan is that computation and carries its fingerprint.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from causal_bandits import yaml_io
from causal_bandits.claims import INCONCLUSIVE

#: The chance that the planned seeds decide a claim whose estimate is the truth.
POWER = 0.8
#: The most CPU a claim's planned seeds may cost to be run (10 CPU-min); above it the claim stays inconclusive.
BUDGET_CPU_S = 600.0
#: The most CPU all planned runs together may add to a run (30 CPU-min, about 15 min on two cores): the plans within
#: :data:`BUDGET_CPU_S` are taken cheapest first while their sum stays within it; the rest stay inconclusive with
#: their cost stated.
TOTAL_BUDGET_CPU_S = 1800.0
#: The first planned seed: beyond every seed a config can ask for (each paper's ``n_seeds`` is at most 1,000,000).
FIRST_PLANNED_SEED = 1_000_000
#: Where the plan is recorded, beside the rules' registry.
PLAN_FILE = "seed_plans.yaml"
KINDS = ("band", "parts", "rate", "none")


@dataclass(frozen=True)
class Target:
    """How one inconclusive claim is planned: its ``kind`` (:data:`KINDS`), the archived run jobs its runs are
    (``rule`` and regular expressions on their wildcards), its ``unit``, for ``none`` ``why`` no count decides it,
    and the ``instance`` file its run jobs read."""

    kind: str
    rule: str = ""
    wildcards: Mapping[str, str] = field(default_factory=dict)
    unit: str = "seeds"
    why: str = ""
    #: The instance file a run job reads, under a run's results folder (``{exp}``/``{config}``: the experiment's
    #: parts before and after its first "-", as cpe names its instances).
    instance: str = "{paper}/instances/{experiment}.json"


CPE_INSTANCE = "cpe/instances/{exp}/{config}.json"


def _pac(algorithm: str, experiment: str, strategy: str) -> Target:
    """A cpe PAC claim: its undecided settings' runs (``experiment``, ``strategy``) of one algorithm."""
    wildcards = {"algorithm": algorithm, "experiment": experiment, "strategy": strategy}
    return Target("rate", "cpe_run", wildcards, "runs", instance=CPE_INSTANCE)


#: cpe's PAC claims the interval standard left inconclusive: the settings whose 30 runs straddle 1 − δ.
PAC_TARGETS = {
    "cpe/pac-E1-CCPE-General": _pac("ccpe_general", r"E1-n(4|8|16)", "theory"),
    "cpe/pac-E1-LUCB": _pac("lucb", r"E1-n(4|8|16)", "theory"),
    "cpe/pac-E1-LUCB1": _pac("lucb1", r"E1-n(4|8|16)", "practical"),
    **{
        f"cpe/pac-E4-{name}": _pac(alg, "E4-k7", "practical")
        for name, alg in (("CCPE-BGLM", "ccpe_bglm"), ("CCPE-General", "ccpe_general"), ("LUCB", "lucb"), ("SE", "se"))
    },
}
#: Every claim the archived paper-scale run left inconclusive, by ``<paper>/<claim id>``.
TARGETS: dict[str, Target] = {
    "cpe/e1-slopes": Target(
        "none",
        unit="runs",
        why="a slope fitted over five fixed sizes: whether more runs per size narrow its interval is not shown, so "
        "no count is planned",
    ),
    "cpe/e3-order": Target(
        "parts",
        "cpe_run",
        {"algorithm": "ccpe_general|lucb", "experiment": r"E3-.*", "strategy": "practical"},
        "runs",
        instance=CPE_INSTANCE,
    ),
    "cpe/e4-bglm-vs-lucb": Target(
        "parts",
        "cpe_run",
        {"algorithm": "ccpe_bglm|lucb", "experiment": r"E4-k.*", "strategy": "practical"},
        "runs",
        instance=CPE_INSTANCE,
    ),
    **PAC_TARGETS,
    "cpe/e5-lower-bound": Target(
        "parts",
        "cpe_run",
        {"algorithm": "ccpe_general", "experiment": r"E5-.*", "strategy": "practical"},
        "runs",
        instance=CPE_INSTANCE,
    ),
    "fairness/table2-fucb-regret-tau0.2": Target(
        "band", "fairness_run", {"algorithm": r"fucb_tau0\.2", "experiment": "adult_video"}
    ),
    "nonmanip/table1-kl_ucb-POMIS-fig5c": Target(
        "band", "nonmanip_run", {"algorithm": "kl_ucb", "experiment": "fig5c", "strategy": "POMIS"}
    ),
    "nonmanip/table1-ts-POMIS+-fig5c": Target(
        "band", "nonmanip_run_pomisplus", {"algorithm": "ts", "experiment": "fig5c", "strategy": "POMISplus"}
    ),
    "unknown_graph/lemma1": Target("rate", "unknown_graph_discovery", {"setting": r".*-c1\.0"}, "runs"),
    "unknown_graph/thm3-cliques": Target(
        "rate",
        "unknown_graph_run",
        {"algorithm": "cn_ucb", "experiment": r"V4-.*"},
        "runs",
        instance="",
    ),
    "unknown_graph/thm45": Target("parts", "unknown_graph_lower_bounds", {}),
}

_BAND = re.compile(r"band \[([-\d.,]+), ([-\d.,]+|inf)\]")
_THIS_RUN = re.compile(r"this run: ([\d,]+)")
_COUNT = re.compile(r"about ([\d,]+) (?:seeds|runs|datasets)[^;]*?this run: ([\d,]+)")


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _t(q: float, df: int) -> float:
    from scipy import stats  # here, not at the top: the workflow plans with this module, never with scipy.stats

    return float(stats.t.ppf(q, df))


def _z(q: float) -> float:
    from scipy import stats

    return float(stats.norm.ppf(q))


def band_count(n: int, interval: tuple[float, float], band: tuple[float, float], power: float = POWER) -> int:
    """Seeds that put a mean's t-interval clear of the band's nearest edge with probability ``power`` if the
    estimate (the centre of ``interval``, a t-interval over ``n`` seeds) is the truth."""
    point, half = (interval[0] + interval[1]) / 2, (interval[1] - interval[0]) / 2
    distance = min(abs(point - edge) for edge in band if math.isfinite(edge))
    sd = half * math.sqrt(n) / _t(0.975, n - 1)
    m = 2
    while (_t(0.975, m - 1) + _z(power)) * sd / math.sqrt(m) > distance:
        m = max(m + 1, math.ceil(m * 1.01))
    while m > 2 and (_t(0.975, m - 2) + _z(power)) * sd / math.sqrt(m - 1) <= distance:
        m -= 1
    return m


def parts_count(archived: int, power: float = POWER) -> int:
    """The archived count N (the report's n · (half / d)², z = 1.96) brought to power ``power``."""
    return math.ceil(archived * ((_z(0.975) + _z(power)) / _z(0.975)) ** 2)


def rate_count(edge: float) -> int:
    """Runs whose every success puts the Wilson 95 % interval's lower end at or above ``edge``: m / (m + z²)."""
    z2 = _z(0.975) ** 2
    return math.ceil(edge * z2 / (1 - edge))


def _find(pattern: re.Pattern[str], text: str) -> re.Match[str]:
    found = pattern.search(text)
    if found is None:
        raise ValueError(f"the archived note has no {pattern.pattern!r}: {text[:120]}")
    return found


def _evidence(kind: str, row: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """What the plan reads from a claim's archived row, and the planned count (:func:`_count`)."""
    note = row["note"]
    if kind == "parts":
        archived, n = max((int(_number(a)), int(_number(b))) for a, b in _COUNT.findall(note))
        evidence: dict[str, Any] = {"n": n, "archived_count": archived}
        return evidence, _count(kind, evidence)
    n = int(_number(_find(_THIS_RUN, note).group(1)))
    edges = _find(_BAND, note)
    band = (_number(edges.group(1)), math.inf if edges.group(2) == "inf" else _number(edges.group(2)))
    if kind == "rate":
        evidence = {"n": n, "successes": "all", "edge": band[0]}
    else:
        lo, hi = (float(x) for x in row["interval"])
        evidence = {"n": n, "interval": [round(lo, 4), round(hi, 4)], "band": list(band)}
    return evidence, _count(kind, evidence)


def _count(kind: str, evidence: Mapping[str, Any]) -> int:
    """The planned count from a claim's recorded evidence (:func:`parts_count`, :func:`rate_count`,
    :func:`band_count`)."""
    if kind == "parts":
        return parts_count(int(evidence["archived_count"]))
    if kind == "rate":
        return rate_count(float(evidence["edge"]))
    lo, hi = evidence["interval"]
    return band_count(
        int(evidence["n"]), (float(lo), float(hi)), (float(evidence["band"][0]), float(evidence["band"][1]))
    )


def _unit_cpu_s(target: Target, n: int, jobs: list[Mapping[str, Any]]) -> float:
    """CPU seconds per planned seed (or run): the archived run jobs of the claim, over the archived count."""
    mine = [
        j
        for j in jobs
        if j["rule"] == target.rule
        and all(re.fullmatch(p, str(j["wildcards"].get(k, ""))) for k, p in target.wildcards.items())
    ]
    if not mine:
        raise ValueError(f"no archived {target.rule} job matches {dict(target.wildcards)}; fix the plan's target")
    return sum(float(j["cpu_s"]) for j in mine) / n


def plan_claim(key: str, row: Mapping[str, Any], jobs: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The plan of one inconclusive claim (``key``: ``<paper>/<id>``, ``row``: its re-judged archived row), before
    the total budget is shared out (:func:`share_budget`)."""
    target = TARGETS[key]
    if target.kind == "none":
        return {"kind": "none", "unit": target.unit, "why": target.why, "decide": False}
    evidence, planned = _evidence(target.kind, row)
    cpu = _unit_cpu_s(target, evidence["n"], jobs) * planned
    return {
        "kind": target.kind,
        "unit": target.unit,
        "archived": evidence,
        "planned": planned,
        "seeds": [FIRST_PLANNED_SEED, FIRST_PLANNED_SEED + planned - 1],
        "cpu_s": round(cpu, 1),
    }


def share_budget(claims: Mapping[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each plan's ``decide`` and ``cost``: a plan runs when it costs at most :data:`BUDGET_CPU_S` and, taken
    cheapest first (ties by key), the plans that run together stay within :data:`TOTAL_BUDGET_CPU_S`."""
    out = {key: dict(entry) for key, entry in claims.items()}
    spent = 0.0
    for key in sorted((k for k, e in out.items() if "cpu_s" in e), key=lambda k: (out[k]["cpu_s"], k)):
        entry = out[key]
        cost = f"about {entry['cpu_s'] / 60:.1f} CPU-min for {entry['planned']:,} {entry['unit']}"
        if entry["cpu_s"] > BUDGET_CPU_S:
            entry["decide"], entry["above"] = False, f"the {BUDGET_CPU_S / 60:.0f} CPU-min budget of a claim"
        elif spent + entry["cpu_s"] > TOTAL_BUDGET_CPU_S:
            entry["decide"] = False
            total = TOTAL_BUDGET_CPU_S / 60
            entry["above"] = f"the {total:.0f} CPU-min budget of all planned runs, cheaper plans first"
        else:
            entry["decide"] = True
            spent += entry["cpu_s"]
        entry["cost"] = cost + (f", above {entry['above']}: stays inconclusive" if "above" in entry else "")
    return out


def fingerprint(claims: Mapping[str, Any]) -> str:
    """sha256 of the plan's canonical JSON with its rule's constants (keys sorted, no spaces, UTF-8)."""
    data = {
        "power": POWER,
        "budget_cpu_s": BUDGET_CPU_S,
        "total_budget_cpu_s": TOTAL_BUDGET_CPU_S,
        "first_planned_seed": FIRST_PLANNED_SEED,
        "claims": claims,
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def plan(archive: Path, claims: Path | None = None) -> dict[str, Any]:
    """The plan from an archived paper-scale run (``archive``: its folder, with manifest.json) and its claims
    documents (``claims``: by default the archive's own results/claims; for the plan of a release, the archive
    re-judged by this checkout's rules, ``benchmarks/verdicts_archive.py --scratch DIR`` writing DIR/results/claims):
    one entry per inconclusive claim, and the plan's fingerprint. An inconclusive claim with no :data:`TARGETS`
    entry, or a target no longer inconclusive, is an error naming it."""
    rows = {
        f"{doc['paper']}/{row['id']}": row
        for path in sorted((claims or archive / "results" / "claims").glob("*.json"))
        for doc in [json.loads(path.read_text())]
        for row in doc["claims"]
        if row["status"] == INCONCLUSIVE
    }
    if set(rows) != set(TARGETS):
        missing, stale = sorted(set(rows) - set(TARGETS)), sorted(set(TARGETS) - set(rows))
        raise ValueError(
            f"seed plan targets: inconclusive without a target {missing}; targets not inconclusive {stale}"
        )
    jobs = json.loads((archive / "manifest.json").read_text())["jobs"]
    return recorded_plan(share_budget({key: plan_claim(key, rows[key], jobs) for key in sorted(rows)}))


def replan(recorded_claims: Mapping[str, Mapping[str, Any]], jobs: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The plan computed again from the evidence each entry records (its archived count, interval and band) and
    the archive's manifest ``jobs``: what a committed plan must equal."""
    claims = {}
    for key, entry in recorded_claims.items():
        target = TARGETS[key]
        if target.kind == "none":
            claims[key] = plan_claim(key, {}, jobs)
            continue
        archived = entry["archived"]
        planned = _count(target.kind, archived)
        cpu = _unit_cpu_s(target, archived["n"], jobs) * planned
        seeds = [FIRST_PLANNED_SEED, FIRST_PLANNED_SEED + planned - 1]
        claims[key] = {"kind": target.kind, "unit": target.unit, "archived": dict(archived), "planned": planned}
        claims[key] |= {"seeds": seeds, "cpu_s": round(cpu, 1)}
    return recorded_plan(share_budget(claims))


def recorded_plan(claims: Mapping[str, Any]) -> dict[str, Any]:
    """The plan's document: its rule's constants, its fingerprint and its ``claims``."""
    return {
        "power": POWER,
        "budget_cpu_s": BUDGET_CPU_S,
        "total_budget_cpu_s": TOTAL_BUDGET_CPU_S,
        "first_planned_seed": FIRST_PLANNED_SEED,
        "fingerprint": fingerprint(claims),
        "claims": dict(claims),
    }


def recorded() -> dict[str, Any]:
    """The committed plan (``preregistration/seed_plans.yaml``)."""
    return yaml_io.load((files("causal_bandits.preregistration") / PLAN_FILE).read_text(encoding="utf-8"))


def problems() -> list[str]:
    """One line if the committed plan is not the one its fingerprint records (edited by hand after it was
    computed), with the fix; what ``causal-bandits rules check`` prints and the planned runs refuse to run."""
    plan = recorded()
    if plan.get("fingerprint") != fingerprint(plan.get("claims", {})):
        return [
            f"preregistration/{PLAN_FILE} does not carry its own fingerprint (edited after it was computed): "
            "recompute it with python -m causal_bandits.seed_plans --write --claims DIR/results/claims"
        ]
    return []


HEADER = (
    "# Seeds planned before the run (causal_bandits.seed_plans): for each claim the archived paper-scale run,\n"
    "# re-judged by the registered rules, leaves inconclusive, the seeds that would decide it, their cost and whether\n"
    "# they run.\n"
    "# Written by `python -m causal_bandits.seed_plans --write --claims DIR/results/claims` after\n"
    "# `benchmarks/verdicts_archive.py --scratch DIR`; tests/test_seed_plans.py checks it is that computation.\n"
)


def write(archive: Path, path: Path, claims: Path | None = None) -> None:
    """Write the plan from ``archive`` (and ``claims``, :func:`plan`) to ``path`` (atomically)."""
    import yaml

    from causal_bandits.store import write_atomic

    text = HEADER + yaml.safe_dump(plan(archive, claims), sort_keys=False, allow_unicode=True, width=120)
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


if __name__ == "__main__":  # python -m causal_bandits.seed_plans [--write] [--claims DIR] [archive folder]
    import argparse

    parser = argparse.ArgumentParser(prog="python -m causal_bandits.seed_plans", description="the seed plan")
    parser.add_argument("archive", nargs="?", type=Path, default=Path("archive/paper-scale"))
    parser.add_argument("--claims", type=Path, help="the archive's claims re-judged (default: its own)")
    parser.add_argument("--write", action="store_true", help="record it in preregistration/seed_plans.yaml")
    found = parser.parse_args()
    if found.write:
        write(found.archive, Path(str(files("causal_bandits.preregistration") / PLAN_FILE)), found.claims)
    else:
        print(json.dumps(plan(found.archive, found.claims), indent=1, ensure_ascii=False))
