"""Seeds planned before the run (causal_bandits.seed_plans): the committed plan is the computation from the archived
paper-scale run, fingerprinted; each count decides its claim at the planned power; planned seeds are fresh."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from causal_bandits import rng, seed_plans, yaml_io
from causal_bandits.claims import INCONCLUSIVE, REPRODUCED, mean_interval, wilson
from causal_bandits.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "archive" / "paper-scale"
needs_archive = pytest.mark.skipif(not (ARCHIVE / "manifest.json").is_file(), reason="this checkout ships no archive")
#: The claims cheapest to decide (each within the 10 CPU-min budget of a planned run).
PRIORITY = (
    "nonmanip/table1-kl_ucb-POMIS-fig5c",
    "nonmanip/table1-ts-POMIS+-fig5c",
    "fairness/table2-fucb-regret-tau0.2",
    "cpe/e3-order",
    "cpe/e4-bglm-vs-lucb",
    "cpe/e5-lower-bound",
    "unknown_graph/lemma1",
)


@needs_archive
def test_the_committed_plan_is_the_computation_from_the_archive_and_carries_its_fingerprint():
    committed = seed_plans.recorded()
    assert committed == seed_plans.plan(ARCHIVE), "run: python -m causal_bandits.seed_plans --write"
    assert committed["fingerprint"] == seed_plans.fingerprint(committed["claims"])
    tampered = json.loads(json.dumps(committed["claims"]))
    tampered["cpe/e3-order"]["planned"] -= 1
    assert seed_plans.fingerprint(tampered) != committed["fingerprint"]


@needs_archive
def test_the_plan_names_every_priority_claim_with_its_cost_and_keeps_the_dear_ones_inconclusive():
    claims = seed_plans.recorded()["claims"]
    decided = {key for key in PRIORITY if claims[key]["decide"]}
    assert decided == set(PRIORITY) - {"nonmanip/table1-ts-POMIS+-fig5c"}
    dear = claims["nonmanip/table1-ts-POMIS+-fig5c"]
    assert dear["cpu_s"] > seed_plans.BUDGET_CPU_S and "above the 10 CPU-min budget: stays inconclusive" in dear["cost"]
    for key, entry in claims.items():
        if entry["kind"] == "none":
            assert entry["why"] and not entry["decide"], key
        else:
            assert entry["seeds"] == [
                seed_plans.FIRST_PLANNED_SEED,
                seed_plans.FIRST_PLANNED_SEED + entry["planned"] - 1,
            ]
            assert entry["decide"] == (entry["cpu_s"] <= seed_plans.BUDGET_CPU_S), key


@needs_archive
def test_an_inconclusive_claim_without_a_target_or_a_stale_target_is_named(tmp_path):
    copy = tmp_path / "archive"
    shutil.copytree(ARCHIVE / "results" / "claims", copy / "results" / "claims")
    shutil.copy(ARCHIVE / "manifest.json", copy / "manifest.json")
    path = copy / "results" / "claims" / "cpe.json"
    doc = json.loads(path.read_text())
    for row in doc["claims"]:
        row["status"] = {"e3-order": REPRODUCED, "lemma1": INCONCLUSIVE}.get(row["id"], row["status"])
    path.write_text(json.dumps(doc))
    with pytest.raises(
        ValueError, match=r"without a target \['cpe/lemma1'\]; targets not inconclusive \['cpe/e3-order'\]"
    ):
        seed_plans.plan(copy)


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
