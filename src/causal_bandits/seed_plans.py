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
#: Every claim the archived paper-scale run left inconclusive, by ``<paper>/<claim id>``.
TARGETS: dict[str, Target] = {
    "bounds/biased-deviates": Target(
        "none",
        unit="datasets",
        why="its band is built from the same standard error as our interval, so more datasets narrow both and only "
        "an exact match would reproduce",
    ),
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
    "cpe/e5-lower-bound": Target(
        "parts",
        "cpe_run",
        {"algorithm": "ccpe_general", "experiment": r"E5-.*", "strategy": "practical"},
        "runs",
        instance=CPE_INSTANCE,
    ),
    "fairness/table1-fucb-regret-decreasing": Target(
        "none",
        why="three of its steps are exact ties in every seed (F-UCB plays its fallback at τ ≤ 0.4), and a tie in "
        "every seed stays a tie at any number of seeds",
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
    """What the plan reads from a claim's archived row, and the planned count."""
    note = row["note"]
    if kind == "parts":
        archived, n = max((int(_number(a)), int(_number(b))) for a, b in _COUNT.findall(note))
        return {"n": n, "archived_count": archived}, parts_count(archived)
    n = int(_number(_find(_THIS_RUN, note).group(1)))
    edges = _find(_BAND, note)
    band = (_number(edges.group(1)), math.inf if edges.group(2) == "inf" else _number(edges.group(2)))
    if kind == "rate":
        return {"n": n, "successes": "all", "edge": band[0]}, rate_count(band[0])
    lo, hi = (float(x) for x in row["interval"])
    return {"n": n, "interval": [round(lo, 4), round(hi, 4)], "band": list(band)}, band_count(n, (lo, hi), band)


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
    """The plan of one inconclusive claim (``key``: ``<paper>/<id>``, ``row``: its archived row)."""
    target = TARGETS[key]
    if target.kind == "none":
        return {"kind": "none", "unit": target.unit, "why": target.why, "decide": False}
    evidence, planned = _evidence(target.kind, row)
    cpu = _unit_cpu_s(target, evidence["n"], jobs) * planned
    within = cpu <= BUDGET_CPU_S
    return {
        "kind": target.kind,
        "unit": target.unit,
        "archived": evidence,
        "planned": planned,
        "seeds": [FIRST_PLANNED_SEED, FIRST_PLANNED_SEED + planned - 1],
        "cpu_s": round(cpu, 1),
        "decide": within,
        "cost": f"about {cpu / 60:.1f} CPU-min for {planned:,} {target.unit}"
        + ("" if within else f", above the {BUDGET_CPU_S / 60:.0f} CPU-min budget: stays inconclusive"),
    }


def fingerprint(claims: Mapping[str, Any]) -> str:
    """sha256 of the plan's canonical JSON with its rule's constants (keys sorted, no spaces, UTF-8)."""
    data = {"power": POWER, "budget_cpu_s": BUDGET_CPU_S, "first_planned_seed": FIRST_PLANNED_SEED, "claims": claims}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def plan(archive: Path) -> dict[str, Any]:
    """The plan from an archived paper-scale run (``archive``: its folder, with results/claims and manifest.json):
    one entry per inconclusive claim, and the plan's fingerprint. An inconclusive claim with no
    :data:`TARGETS` entry, or a target no longer inconclusive, is an error naming it."""
    rows = {
        f"{doc['paper']}/{row['id']}": row
        for path in sorted((archive / "results" / "claims").glob("*.json"))
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
    claims = {key: plan_claim(key, rows[key], jobs) for key in sorted(rows)}
    return {
        "power": POWER,
        "budget_cpu_s": BUDGET_CPU_S,
        "first_planned_seed": FIRST_PLANNED_SEED,
        "fingerprint": fingerprint(claims),
        "claims": claims,
    }


def recorded() -> dict[str, Any]:
    """The committed plan (``preregistration/seed_plans.yaml``)."""
    return yaml_io.load((files("causal_bandits.preregistration") / PLAN_FILE).read_text(encoding="utf-8"))


HEADER = (
    "# Seeds planned before the run (causal_bandits.seed_plans): for each claim the archived paper-scale run left\n"
    "# inconclusive, the seeds that would decide it, their cost and whether they run. Written by\n"
    "# `python -m causal_bandits.seed_plans --write`; tests/test_seed_plans.py checks it is that computation.\n"
)


def write(archive: Path, path: Path) -> None:
    """Write the plan from ``archive`` to ``path`` (atomically)."""
    import yaml

    from causal_bandits.store import write_atomic

    text = HEADER + yaml.safe_dump(plan(archive), sort_keys=False, allow_unicode=True, width=120)
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


if __name__ == "__main__":  # python -m causal_bandits.seed_plans [--write] [archive folder]
    import sys

    args = [a for a in sys.argv[1:] if a != "--write"]
    folder = Path(args[0] if args else "archive/paper-scale")
    if "--write" in sys.argv:
        write(folder, Path(str(files("causal_bandits.preregistration") / PLAN_FILE)))
    else:
        print(json.dumps(plan(folder), indent=1, ensure_ascii=False))
