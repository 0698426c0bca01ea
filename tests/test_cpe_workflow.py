"""cpe in the workflow: the tiny run writes every cpe output and verdict, the paper-scale dry run
lists the whole (budgeted) design, and bad cpe config stops at parse time with one line."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from workflow_helpers import assert_bad_config_fails_cleanly, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

CPE_OUTPUTS = [
    *(
        f"figures/cpe/table{i}_{name}.{ext}"
        for i, name in ((1, "instances"), (2, "pac"), (3, "lower_bound"), (4, "slopes"))
        for ext in ("csv", "md")
    ),
    *(f"figures/cpe/figure{n}.{ext}" for n in (1, 3, 4, 5, 6) for ext in ("pdf", "png")),
]


def test_tiny_run_writes_the_cpe_outputs_and_verdicts(tiny_run):
    for rel in CPE_OUTPUTS:
        assert (tiny_run / rel).stat().st_size > 0, rel
    claims = {c["id"]: c for c in json.loads((tiny_run / "results/claims/cpe.json").read_text())["claims"]}
    assert claims["lemma1"]["status"] == "reproduced"
    assert claims["e4b-theory"]["status"] == "reproduced"
    study = json.loads((tiny_run / "results/claims/studies/naive_estimand.json").read_text())
    (naive,) = study["claims"]  # tiny grid rho in {0, 0.8}: wrong from 0.8
    assert naive["status"] == "not specified by the paper" and "wrong arm for ρ ≥ 0.8" in naive["ours"]
    assert study["findings"]["naive-fails-E3"]["numbers"] == naive["ours"] and "naive-fails-E3-estimand" not in claims
    assert len(pd.read_csv(tiny_run / "figures/studies/naive_estimand/table.csv")) == 4  # the tiny 2 x 2 grid
    assert claims["pac-E1-CCPE-General"]["status"] == "not evaluated"  # 2 seeds say nothing about δ = 0.05
    pac = pd.read_csv(tiny_run / "figures/cpe/table2_pac.csv")
    assert set(pac["algorithm"]) >= {"CCPE-General", "CCPE-BGLM", "naive"}
    assert (pac["n_runs"] > 0).all()
    assert "designed for this replication" in (tiny_run / "figures/cpe/table1_instances.md").read_text().lower()
    report = (tiny_run / "figures/REPORT.md").read_text()
    assert "Combinatorial pure exploration of causal bandits" in report


def test_paper_scale_dry_run_lists_the_cpe_design(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    # cpe's part of the plan: its targets only (the whole paper-scale DAG is test_workflow's).
    result = snakemake(
        work, "-n", "cpe_claims", "cpe_figures", "cpe_tables", "--configfile", "config/config.yaml", "config/ci.yaml"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    # E0 22 + E1 69 + E2 129 + E3 16 + E4 78 + E5 24 runs (100 seeds per job), of which PB's 9 budgets on 21
    # configs are 21 jobs (cpe_run_budgets).
    assert re.search(r"cpe_run\s+149\b", result.stdout) and re.search(r"cpe_run_budgets\s+21\b", result.stdout)
    assert re.search(r"cpe_instance\s+43\b", result.stdout)  # 3 + 5 + 13 + 4 + 6 + 12 configs


CASES = {
    "delta above 1": ({"cpe": {"delta": 1.5}}, "cpe.delta = 1.5 is outside (0, 1)"),
    "negative epsilon": (
        {
            "cpe": {
                "experiments": {
                    "E2": {"configs": {"eps0.05": {"family": "rare", "params": {"r": 8, "d": 0.5}, "epsilon": -0.1}}}
                }
            }
        },
        "epsilon = -0.1 is outside [0, 1)",
    ),
    "BGLM weights outside [0, 1]": (
        {
            "cpe": {
                "experiments": {
                    "E4": {
                        "configs": {
                            "k2": {"family": "bglm", "params": {"k": 2, "link": "linear", "weights": [0.4, 0.7, 0.2]}}
                        }
                    }
                }
            }
        },
        "weights of Y drive P(Y=1 | parents) to 1.3",
    ),
    "sample cap below the arms": ({"cpe": {"horizon": 20}}, "cpe.horizon = 20 is below the number of arms"),
    "run group names an unknown config": (
        {"cpe": {"experiments": {"E1": {"runs": [{"algorithms": ["lucb"], "configs": ["n5"]}]}}}},
        "names config 'n5'",
    ),
    "CCPE-BGLM on a parallel graph": (
        {"cpe": {"experiments": {"E1": {"runs": [{"algorithms": ["ccpe_bglm"], "configs": ["n4"]}]}}}},
        "it needs a bglm config",
    ),
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("bad-cpe") / "repo")


@pytest.mark.parametrize("case", list(CASES))
def test_bad_cpe_config_fails_cleanly(workdir, case):
    assert_bad_config_fails_cleanly(workdir, *CASES[case])


def _run_results(tiny_run):
    from causal_bandits.papers.cpe import results

    agg = tiny_run / "results/cpe/agg"
    return results.load(
        sorted(map(str, agg.glob("E?.parquet"))),
        sorted(map(str, agg.glob("E?.budget.parquet"))),
        sorted(map(str, (tiny_run / "results/cpe/quantities").glob("*/*.json"))),
        str(tiny_run / "results/cpe/theory_e4b.json"),
    )


@pytest.mark.parametrize("left_out", ["E0", "E1", "E2", "E3", "E4", "E5"])
def test_claims_and_figures_without_one_experiment(tiny_run, left_out, tmp_path, monkeypatch):
    """A run that leaves one experiment out still evaluates every claim (its own ones: not evaluated)
    and draws the figures of the others."""
    from causal_bandits.papers.cpe import claims, figures, tables

    found = _run_results(tiny_run)
    assert left_out in found["stopping"]
    del found["stopping"][left_out], found["budgets"][left_out]
    run = {e: set(f["algorithm"]) for e, f in found["stopping"].items()}
    verdicts = {c.id: c.check(found) for c in claims.claims(run)}
    owned = {"E0": "ci-validity-E0", "E3": "naive-fails-E3", "E5": "e5-lower-bound"}
    if left_out in owned:
        assert verdicts[owned[left_out]]["status"] == "not evaluated"
    monkeypatch.chdir(tmp_path)
    written = figures.make_all(
        found["stopping"],
        found["budgets"],
        {e: {} for e in found["stopping"]},
        found["theory"],
        0.05,
        tables.lower_bound_table(found["stopping"], found["quantities"]),
    )
    assert all((tmp_path / w).stat().st_size > 0 for w in written)


def test_figures_when_every_run_is_censored(tiny_run, tmp_path, monkeypatch):
    """Samples to stop are undefined when every run reached the sample cap: the panels say so
    instead of failing on a log axis with no positive value."""
    from causal_bandits.papers.cpe import figures, tables

    found = _run_results(tiny_run)
    stopping = {e: f.assign(samples_mean=float("nan"), samples_se=float("nan")) for e, f in found["stopping"].items()}
    monkeypatch.chdir(tmp_path)
    written = figures.make_all(
        stopping,
        found["budgets"],
        {e: {} for e in stopping},
        found["theory"],
        0.05,
        tables.lower_bound_table(stopping, found["quantities"]),
    )
    assert {f"figures/cpe/figure{n}.pdf" for n in range(7)} <= set(written)
    assert all((tmp_path / w).stat().st_size > 0 for w in written)
