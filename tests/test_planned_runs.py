"""The planned seeds run as the paper's own jobs with only the seeds changed, into their own files, and each claim
is judged on them alone (causal_bandits.planned_runs)."""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from causal_bandits import config as cb_config
from causal_bandits import planned_runs, runs, seed_plans, store
from causal_bandits.papers.nonmanip import experiments
from causal_bandits.papers.nonmanip import runs as nonmanip_runs

ROOT = Path(__file__).resolve().parents[1]
KEY = "nonmanip/table1-kl_ucb-POMIS-fig5c"


@pytest.fixture
def small_plan(monkeypatch):
    """The committed plan with the kl_ucb POMIS Fig. 5c cell cut to 5 planned seeds (a test's size), run."""
    plan = copy.deepcopy(seed_plans.recorded())
    entry = plan["claims"][KEY]
    entry["planned"], entry["seeds"] = 5, [seed_plans.FIRST_PLANNED_SEED, seed_plans.FIRST_PLANNED_SEED + 4]
    monkeypatch.setattr(seed_plans, "recorded", lambda: plan)
    return plan


@pytest.fixture
def config():
    config = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "tiny.yaml"))
    config["nonmanip"]["algorithms"] = ["ts", "kl_ucb"]
    return config


def test_planned_jobs_are_the_papers_jobs_with_fresh_seeds_in_its_chunk_size(small_plan, config):
    assert planned_runs.covered(config, KEY) and planned_runs.covered(config, "unknown_graph/lemma1")
    assert not planned_runs.covered(config, "fairness/table2-fucb-regret-tau0.2")  # the tiny config runs τ = 0.3
    planned = planned_runs.jobs(config, KEY)
    assert [w["chunk"] for w, _ in planned] == ["0", "1", "2"]  # 5 seeds in the tiny config's chunks of 2
    assert [list(j.seeds) for _, j in planned] == [[1_000_000, 1_000_001], [1_000_002, 1_000_003], [1_000_004]]
    wildcards = {"experiment": "fig5c", "strategy": "POMIS", "algorithm": "kl_ucb", "chunk": "0"}
    paper = nonmanip_runs.describe(config, wildcards)
    assert dataclasses.replace(planned[0][1], seeds=paper.seeds) == paper  # the seeds are the only change


def test_a_claim_the_plan_does_not_run_is_refused_in_one_line(config):
    with pytest.raises(ValueError, match=r"table1-ts-POMIS\+-fig5c: no planned seeds .*above the 10 CPU-min budget"):
        planned_runs.jobs(config, "nonmanip/table1-ts-POMIS+-fig5c")
    with pytest.raises(ValueError, match=r"e1-slopes: no planned seeds .*a slope fitted over five fixed sizes"):
        planned_runs.jobs(config, "cpe/e1-slopes")


def test_planned_seeds_run_into_their_own_files_and_differ_from_the_papers(small_plan, config, tmp_path):
    results = tmp_path / "results"
    panel = config["nonmanip"]["panels"]["fig5c"]
    store.write_json(results / "nonmanip" / "instances" / "fig5c.json", experiments.instance_document("fig5c", panel))
    summaries = planned_runs.execute(config, KEY, results, tmp_path / "planned")
    assert all(tmp_path / "planned" in s.parents for s in summaries) and len(summaries) == 3
    table = store.read_table(summaries[0], columns=["seed", "final_regret"]).to_pandas()
    assert list(table.seed) == [1_000_000, 1_000_001]
    paper_job = nonmanip_runs.describe(
        config, {"experiment": "fig5c", "strategy": "POMIS", "algorithm": "kl_ucb", "chunk": "0"}
    )
    trace = tmp_path / "paper" / "chunk-0.parquet"

    runs.execute(
        paper_job,
        {"instance": str(results / "nonmanip" / "instances" / "fig5c.json")},
        str(trace),
        store.summary_path(trace),
    )
    ours = store.read_table(store.summary_path(trace), columns=["final_regret"]).to_pandas().final_regret
    assert not np.array_equal(ours.to_numpy(), table.final_regret.to_numpy())  # fresh streams, not seeds 0 and 1


def test_the_claim_is_judged_on_the_planned_seeds_alone(small_plan):
    band = small_plan["claims"][KEY]["archived"]["band"]
    inside = planned_runs.judge(KEY, np.array([380.0, 381.0, 379.0, 380.5, 379.5]))
    assert inside["status"] == "reproduced" and inside["planned_seeds"] == 5 and inside["paper_seeds"] == 1000
    above = planned_runs.judge(KEY, np.full(5, band[1] + 50.0) + np.arange(5) * 0.1)
    assert above["status"] == "differs"
    with pytest.raises(ValueError, match="4 planned seeds ran, the plan has 5"):
        planned_runs.judge(KEY, np.ones(4))
    found = planned_runs.summary({KEY: inside}, {KEY: {"status": "inconclusive at this scale", "ours": "412.62"}})
    md = planned_runs.table(found)
    assert (
        f"| `{KEY}` | 1,000 seeds | *inconclusive at this scale* | 5 (1,000,000–1,000,004) | **reproduced**: 380.00"
        in md
    )
    pomis_plus = found["claims"]["nonmanip/table1-ts-POMIS+-fig5c"]
    assert "planned" not in pomis_plus and pomis_plus["main"] is None  # not in this run's claims: no verdict made up
    recorded = seed_plans.recorded()["claims"]  # the costs as the committed plan estimates them
    above, uncovered = recorded["nonmanip/table1-ts-POMIS+-fig5c"], recorded["fairness/table2-fucb-regret-tau0.2"]
    assert (
        f"| above budget: {above['planned']:,} seeds, {above['cpu_s'] / 60:.1f} CPU-min (the 10 CPU-min budget of "
        "a claim); stays inconclusive |" in md
    )
    assert (
        f"| not run: this run's config does not cover it ({uncovered['planned']} seeds, "
        f"{uncovered['cpu_s'] / 60:.1f} CPU-min) |" in md
    )
    assert "| a slope fitted over five fixed sizes" in md  # a claim no count decides says why


def test_a_rate_claim_is_judged_by_its_own_rule_on_fresh_runs(monkeypatch, config):
    """unknown_graph's Lemma 1 on the tiny config's V6 grid (regime B, height 2, δ = 0.1, c_B = 1), 6 planned runs."""
    plan = copy.deepcopy(seed_plans.recorded())
    entry = plan["claims"]["unknown_graph/lemma1"]
    entry["planned"], entry["seeds"] = 6, [seed_plans.FIRST_PLANNED_SEED, seed_plans.FIRST_PLANNED_SEED + 5]
    monkeypatch.setattr(seed_plans, "recorded", lambda: plan)
    frame = planned_runs.discovery(config, "unknown_graph/lemma1")
    assert list(zip(frame.regime, frame.h, frame.delta, frame.c_B, frame.n_seeds)) == [("B", 2, 0.1, 1.0, 6)]
    judged = planned_runs.judge_claim("unknown_graph/lemma1", {"V6": frame})
    assert judged["planned_seeds"] == 6 and judged["paper_seeds"] == 200
    assert judged["ours"].startswith("B n=") and "(6 runs)" in judged["ours"]
    assert judged["status"] in ("reproduced", "differs", "inconclusive at this scale")


@pytest.mark.skipif(not (ROOT / "archive/paper-scale/results/cpe").is_dir(), reason="this checkout ships no archive")
def test_a_cpe_claim_is_judged_by_its_own_rule_on_the_planned_runs(monkeypatch, tmp_path):
    """E3's order on 2 planned runs per config (fewer than its rule's 30: judged not evaluated, by its own rule),
    from the archived instances."""
    plan = copy.deepcopy(seed_plans.recorded())
    entry = plan["claims"]["cpe/e3-order"]
    entry["planned"], entry["seeds"] = 2, [seed_plans.FIRST_PLANNED_SEED, seed_plans.FIRST_PLANNED_SEED + 1]
    monkeypatch.setattr(seed_plans, "recorded", lambda: plan)
    config = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))
    config["cpe"]["run_experiments"], config["cpe"]["horizon"] = ["E3"], 3000  # a test's size: runs stop at the cap
    e3 = config["cpe"]["experiments"]["E3"]
    e3["configs"] = {c: e3["configs"][c] for c in ("rho0", "rho0.5")}
    planned = planned_runs.jobs(config, "cpe/e3-order")
    assert sorted({w["experiment"] for w, _ in planned}) == ["E3-rho0", "E3-rho0.5"]
    assert {w["algorithm"] for w, _ in planned} == {"ccpe_general", "lucb"}
    assert {tuple(j.seeds) for _, j in planned} == {(1_000_000, 1_000_001)}
    judged = planned_runs.run_and_judge(config, "cpe/e3-order", ROOT / "archive/paper-scale/results", tmp_path)
    assert judged["planned_seeds"] == 2 and judged["paper_seeds"] == 100
    assert judged["status"] == "not evaluated", judged


def test_a_run_plans_seeds_only_where_its_config_says_so():
    paper_scale = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))
    planned = planned_runs.planned(paper_scale)
    assert {"cpe/pac-E1-LUCB", "unknown_graph/thm3-cliques", "fairness/table2-fucb-regret-tau0.2", KEY} <= set(planned)
    assert "nonmanip/table1-ts-POMIS+-fig5c" not in planned  # above a claim's budget: not run
    for overlay in ("quick.yaml", "tiny.yaml"):  # sized from the paper-scale run: a smoke run plans none
        assert (
            planned_runs.planned(
                cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / overlay))
            )
            == []
        )
    chunks = planned_runs.planned_jobs(paper_scale)
    by_claim = {key: planned_runs.run_inputs((key, job, instance)) for key, job, instance in chunks.values()}
    assert by_claim["unknown_graph/thm3-cliques"] == {}  # each seed draws its own instance
    assert by_claim["fairness/table2-fucb-regret-tau0.2"] == {"instance": "results/fairness/instances/adult_video.json"}
    assert planned_runs.inputs(paper_scale, "cpe/pac-E4-SE") == [
        "results/cpe/instances/E4/k7.json",
        "results/cpe/quantities/E4/k7.json",
        "results/cpe/theory_e4b.json",
    ]


def test_theorem_3s_cliques_are_judged_by_their_own_rule_on_fresh_runs(monkeypatch, config, tmp_path):
    """unknown_graph's clique claim on the tiny config's V4 cell (n = 6, k = 1), 3 planned runs (each seed its own
    instance, so no instance file): judged by the paper's own rule on the planned runs' V4 table alone."""
    plan = copy.deepcopy(seed_plans.recorded())
    entry = plan["claims"]["unknown_graph/thm3-cliques"]
    entry["planned"], entry["seeds"] = 3, [seed_plans.FIRST_PLANNED_SEED, seed_plans.FIRST_PLANNED_SEED + 2]
    monkeypatch.setattr(seed_plans, "recorded", lambda: plan)
    judged = planned_runs.run_and_judge(config, "unknown_graph/thm3-cliques", tmp_path / "results", tmp_path / "out")
    assert judged["planned_seeds"] == 3 and judged["paper_seeds"] == 20
    # at the tiny horizon CN-UCB stops before its clique step: 0 of 3 runs, wholly below 1 − δ
    assert judged["ours"] == "V4-path_power-n6-k1: 0.00 [0.00, 0.56] (3 runs)", judged
    assert judged["status"] == "differs"
    written = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*.parquet"))
    assert written and all(p.parts[:2] == ("unknown_graph", "thm3-cliques") for p in written)


def test_the_report_shows_the_planned_claims_beside_the_main_run(small_plan):
    from causal_bandits import report

    inside = planned_runs.judge(KEY, np.array([380.0, 381.0, 379.0, 380.5, 379.5]))
    row = {"id": "table1-kl_ucb-POMIS-fig5c", "status": "inconclusive at this scale", "ours": "412.62"}
    found = planned_runs.summary({KEY: inside}, {KEY: row})
    doc = {"paper": "nonmanip", "scale": "T = 10,000, 1,000 seeds", "claims": [], "notes": {}}
    md, html = report.render([doc], planned=found)
    assert "## Seeds planned before the run" in md and "The main run's verdict stays the claim's verdict" in md
    assert f"| `{KEY}` | 1,000 seeds | *inconclusive at this scale* | 5 (1,000,000–1,000,004) | **reproduced**" in md
    assert "id=planned" in html and "<code>nonmanip/table1-kl_ucb-POMIS-fig5c</code>" in html
    plain_md, plain_html = report.render([doc])
    assert "Seeds planned" not in plain_md and "id=planned" not in plain_html  # a run without planned seeds


def test_the_workflow_plans_one_job_per_planned_claim_and_the_report_reads_them(tmp_path):
    """A dry run of the tiny config with planned_runs on (in a copy): one planned_run job per planned seed chunk, one
    planned_claim job per claim the plan runs that the config covers, their summary, and the report after it."""
    for part in ("src", "workflow", "config"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (tmp_path / "planned.yaml").write_text("planned_runs: true\n")
    command = [sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--workflow-profile", "none"]
    done = subprocess.run(
        [*command, "--configfile", "config/tiny.yaml", "planned.yaml", "--", "figures/REPORT.md"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "src")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    config = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "tiny.yaml"))
    expected = planned_runs.planned({**config, "planned_runs": True})
    assert expected and "unknown_graph/lemma1" in expected
    jobs = re.findall(r"^planned_claim\s+(\d+)$", done.stdout, re.M)
    assert set(jobs) == {str(len(expected))}, done.stdout[-3000:]  # Job stats, printed before and after the plan
    assert re.search(r"^planned_summary\s+1$", done.stdout, re.M)
    for key in expected:
        assert f"results/planned/{key}.json" in done.stdout
    chunks = planned_runs.planned_jobs({**config, "planned_runs": True})
    assert chunks and set(re.findall(r"^planned_run\s+(\d+)$", done.stdout, re.M)) == {str(len(chunks))}
    for path, (key, job, _) in chunks.items():  # each planned chunk its own job, its files under results/planned
        assert path.startswith(f"results/planned/{key}/") and f"{path}.summary.parquet" in done.stdout
        assert min(job.seeds) >= seed_plans.FIRST_PLANNED_SEED
