"""Seeds planned before the run (causal_bandits.seed_plans): the committed plan is the computation from the archived
paper-scale run, fingerprinted; each count decides its claim at the planned power; planned seeds are fresh."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from causal_bandits import planned_runs, preregistration, rng, seed_plans, yaml_io
from causal_bandits.claims import INCONCLUSIVE, mean_interval, wilson
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "archive" / "paper-scale"
#: One move an amendment records in its verdict_new: "<claim id>: <old verdict> → <new verdict>".
MOVE = re.compile(r"([\w.+-]+): [^;→]+ → ([^;)]+)")
needs_archive = pytest.mark.skipif(not (ARCHIVE / "manifest.json").is_file(), reason="this checkout ships no archive")


def _moved_since(archive: Path) -> dict[str, str]:
    """``<paper>/<claim id>`` -> verdict, for every row an amendment made since the archived run moved (read from
    its recorded ``verdict_new``, "moved: id: old → new; ..."): the archive re-judged, as the amendments state it."""
    recorded = json.loads((archive / "manifest.json").read_text())["rules"]
    moved: dict[str, str] = {}
    for name, fingerprint in recorded.items():
        paper, _, rule = name.partition("/")
        found = preregistration.amendments_of(paper, rule)
        start = next((i + 1 for i, entry in enumerate(found) if entry["new"] == fingerprint), 0)
        for entry in found[start:]:
            for cid, new in MOVE.findall(entry["verdict_new"].partition("moved: ")[2]):
                moved[f"{paper}/{cid}"] = new.strip()
    return moved


@needs_archive
def test_the_committed_plan_is_its_computation_from_its_evidence_and_carries_its_fingerprint():
    committed = seed_plans.recorded()
    jobs = json.loads((ARCHIVE / "manifest.json").read_text())["jobs"]
    assert committed == seed_plans.replan(committed["claims"], jobs), (
        "run: benchmarks/verdicts_archive.py --scratch DIR; python -m causal_bandits.seed_plans --write --claims "
        "DIR/results/claims"
    )
    assert committed["fingerprint"] == seed_plans.fingerprint(committed["claims"]) and not seed_plans.problems()
    tampered = json.loads(json.dumps(committed["claims"]))
    tampered["cpe/e3-order"]["planned"] -= 1
    assert seed_plans.fingerprint(tampered) != committed["fingerprint"]


@needs_archive
def test_a_plan_edited_after_it_was_computed_is_named_by_rules_check(monkeypatch):
    edited = json.loads(json.dumps(seed_plans.recorded()))
    edited["claims"]["cpe/e3-order"]["planned"] = 10
    monkeypatch.setattr(seed_plans, "recorded", lambda: edited)
    assert seed_plans.problems() and "does not carry its own fingerprint" in seed_plans.problems()[0]
    with pytest.raises(CausalBanditsError, match="does not carry its own fingerprint"):
        planned_runs.planned({"planned_runs": True, "cpe": {}})


@needs_archive
def test_the_plan_targets_the_claims_the_archive_leaves_inconclusive_under_the_rules_as_they_stand():
    """The archive's inconclusive rows, with every move its amendments since record applied: the pac and cliques
    rows the interval standard made inconclusive are in, the two rows it decided are out."""
    statuses = {
        f"{doc['paper']}/{row['id']}": row["status"]
        for path in sorted((ARCHIVE / "results" / "claims").glob("*.json"))
        for doc in [json.loads(path.read_text())]
        for row in doc["claims"]
    }
    statuses |= _moved_since(ARCHIVE)
    assert set(seed_plans.TARGETS) == {key for key, status in statuses.items() if status == INCONCLUSIVE}
    assert {"cpe/pac-E1-LUCB", "unknown_graph/thm3-cliques"} <= set(seed_plans.recorded()["claims"])
    assert "bounds/biased-deviates" not in seed_plans.recorded()["claims"]


@needs_archive
def test_the_plan_names_every_priority_claim_with_its_cost_and_keeps_the_dear_ones_inconclusive():
    plan = seed_plans.recorded()
    claims = plan["claims"]
    dear = claims["nonmanip/table1-ts-POMIS+-fig5c"]
    assert dear["cpu_s"] > seed_plans.BUDGET_CPU_S and "above the 10 CPU-min budget of a claim" in dear["cost"]
    assert claims["cpe/pac-E1-LUCB"]["planned"] == 73 and claims["unknown_graph/thm3-cliques"]["planned"] == 35
    spent = sum(e["cpu_s"] for e in claims.values() if e["decide"])
    assert spent <= seed_plans.TOTAL_BUDGET_CPU_S
    for key, entry in claims.items():
        if entry["kind"] == "none":
            assert entry["why"] and not entry["decide"], key
            continue
        assert entry["seeds"] == [seed_plans.FIRST_PLANNED_SEED, seed_plans.FIRST_PLANNED_SEED + entry["planned"] - 1]
        if not entry["decide"]:  # above a budget: either alone, or once every cheaper plan that runs is counted
            cheaper = sum(e["cpu_s"] for e in claims.values() if e["decide"] and e["cpu_s"] <= entry["cpu_s"])
            assert entry["cpu_s"] > seed_plans.BUDGET_CPU_S or cheaper + entry["cpu_s"] > spent, key
            assert "stays inconclusive" in entry["cost"], key


@needs_archive
def test_a_plan_from_claims_judged_by_older_rules_is_refused_naming_the_rows(tmp_path):
    """Claims documents judged by other rules than the plan's targets assume (an archive of an earlier release,
    planted here by moving two of the archive's verdicts): an inconclusive row without a target and a target no
    longer inconclusive are named (the plan is computed from the archive re-judged)."""
    moved = {("bounds", "biased-deviates"): INCONCLUSIVE, ("cpe", "pac-E1-LUCB"): "reproduced"}
    for path in sorted((ARCHIVE / "results" / "claims").glob("*.json")):
        doc = json.loads(path.read_text())
        for row in doc["claims"]:
            row["status"] = moved.get((doc["paper"], row["id"]), row["status"])
        (tmp_path / path.name).write_text(json.dumps(doc))
    with pytest.raises(
        ValueError, match=r"without a target \['bounds/biased-deviates'\].*not inconclusive \['cpe/pac-E1-LUCB'\]"
    ):
        seed_plans.plan(ARCHIVE, tmp_path)


def test_the_total_budget_takes_the_cheaper_plans_first():
    claims = {
        f"p/{k}": {"unit": "seeds", "planned": 10, "cpu_s": cpu}
        for k, cpu in (("a", 500.0), ("b", 450.0), ("c", 400.0), ("d", 700.0), ("e", 550.0))
    }
    shared = seed_plans.share_budget(claims)
    assert [k for k, e in shared.items() if e["decide"]] == ["p/a", "p/b", "p/c"]  # 1,350; + 550 would pass 1,800
    assert "budget of all planned runs" in shared["p/e"]["above"]
    assert "budget of a claim" in shared["p/d"]["above"]  # 700 > 600 alone


def test_a_band_count_clears_the_edge_at_the_planned_power_and_not_one_seed_sooner():
    """Adult-Video F-UCB at τ = 0.2: 433.28 [428.30, 438.26] over 5 seeds against the edge 431.73."""
    interval, band, n = (428.3022, 438.2578), (232.47, 431.73), 5
    m = seed_plans.band_count(n, interval, band)
    point, half = (interval[0] + interval[1]) / 2, (interval[1] - interval[0]) / 2
    sd = half * math.sqrt(n) / 2.7764451051977987  # t(0.975, 4)
    distance = point - band[1]

    def clears(k: int) -> bool:  # the interval's expected edge, one z_power below the estimate, clears the band
        lo, _ = mean_interval(point, sd, k)
        return lo - 0.8416212335729143 * sd / math.sqrt(k) >= band[1] - 1e-9

    assert m == 55 and clears(m) and not clears(m - 1)
    assert seed_plans.band_count(n, interval, band, power=0.5) == 29  # the t-interval at the estimate just clears it
    assert distance > 0


def test_rate_and_parts_counts():
    m = seed_plans.rate_count(0.99)
    assert m == 381 and wilson(m, m)[0] >= 0.99 > wilson(m - 1, m - 1)[0]
    assert seed_plans.parts_count(171) == 350 and seed_plans.parts_count(171, power=0.5) == 171


def test_planned_seeds_are_beyond_every_seed_a_config_can_ask_for_and_their_streams_are_fresh():
    for paper in PAPERS:
        schema = yaml_io.load((ROOT / "src" / "causal_bandits" / "papers" / paper / "config.schema.yaml").read_text())
        assert schema["properties"]["n_seeds"]["maximum"] <= seed_plans.FIRST_PLANNED_SEED, paper
    first = rng.generator("nonmanip", "fig5c", seed_plans.FIRST_PLANNED_SEED, "rewards").random(4)
    paper_seeds = [rng.generator("nonmanip", "fig5c", s, "rewards").random(4) for s in (0, 999, 999_999)]
    assert not any(np.array_equal(first, other) for other in paper_seeds)
