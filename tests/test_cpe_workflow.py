"""cpe in the workflow: the quick run writes every cpe output and verdict, the paper-scale dry run
lists the whole (budgeted) design, and bad cpe config stops at parse time with one line."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from conftest import assert_bad_config_fails_cleanly, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

CPE_OUTPUTS = [
    *(f"figures/cpe/table{i}_{name}.{ext}" for i, name in ((1, "instances"), (2, "pac"), (3, "lower_bound"),
                                                            (4, "slopes")) for ext in ("csv", "md")),
    *(f"figures/cpe/figure{n}.{ext}" for n in (1, 3, 4, 5, 6) for ext in ("pdf", "png")),
]


def test_quick_run_writes_the_cpe_outputs_and_verdicts(quick_run):
    for rel in CPE_OUTPUTS:
        assert (quick_run / rel).stat().st_size > 0, rel
    claims = {c["id"]: c for c in json.loads((quick_run / "results/claims/cpe.json").read_text())["claims"]}
    assert claims["lemma1"]["status"] == "reproduced"
    assert claims["e4b-theory"]["status"] == "reproduced"
    assert claims["pac-E1-CCPE-General"]["status"] == "not evaluated"  # 3 seeds say nothing about δ = 0.05
    pac = pd.read_csv(quick_run / "figures/cpe/table2_pac.csv")
    assert set(pac["algorithm"]) >= {"CCPE-General", "LUCB", "SE", "CCPE-BGLM", "naive"}
    assert (pac["n_runs"] > 0).all()
    assert "designed for this replication" in (quick_run / "figures/cpe/table1_instances.md").read_text().lower()
    report = (quick_run / "figures/REPORT.md").read_text()
    assert "Combinatorial pure exploration of causal bandits" in report


def test_paper_scale_dry_run_lists_the_cpe_design(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    result = snakemake(work, "-n", "--configfile", "config/config.yaml", "config/ci.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    # E0 22 + E1 69 + E2 129 + E3 16 + E4 78 + E5 24 run jobs (100 seeds per job; PB: 9 budgets).
    assert re.search(r"cpe_run\s+338\b", result.stdout)
    assert re.search(r"cpe_instance\s+43\b", result.stdout)  # 3 + 5 + 13 + 4 + 6 + 12 configs


CASES = {
    "delta above 1": ({"cpe": {"delta": 1.5}}, "cpe.delta = 1.5 is outside (0, 1)"),
    "negative epsilon": ({"cpe": {"experiments": {"E2": {"configs": {"eps0.05": {
        "family": "rare", "params": {"r": 8, "d": 0.5}, "epsilon": -0.1}}}}}}, "epsilon = -0.1 is outside [0, 1)"),
    "BGLM weights outside [0, 1]": ({"cpe": {"experiments": {"E4": {"configs": {"k2": {
        "family": "bglm", "params": {"k": 2, "link": "linear", "weights": [0.4, 0.7, 0.2]}}}}}}},
        "weights of Y drive P(Y=1 | parents) to 1.3"),
    "sample cap below the arms": ({"cpe": {"horizon": 20}}, "cpe.horizon = 20 is below the number of arms"),
    "run group names an unknown config": ({"cpe": {"experiments": {"E1": {"runs": [
        {"algorithms": ["LUCB"], "configs": ["n5"]}]}}}}, "names config 'n5'"),
    "CCPE-BGLM on a parallel graph": ({"cpe": {"experiments": {"E1": {"runs": [
        {"algorithms": ["CCPE-BGLM"], "configs": ["n4"]}]}}}}, "it needs a bglm config"),
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("bad-cpe") / "repo")


@pytest.mark.parametrize("case", list(CASES))
def test_bad_cpe_config_fails_cleanly(workdir, case):
    assert_bad_config_fails_cleanly(workdir, *CASES[case])
