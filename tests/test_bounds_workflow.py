"""Huang & Wu through the workflow: the tiny run's outputs and claims, the paper-scale job list,
and bad input stopping the run with one line and nothing written."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from workflow_helpers import assert_bad_config_fails_cleanly, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

OUTPUTS = [
    *(f"figures/bounds/table1_{v}.{ext}" for v in ("conditional", "paper_marginal") for ext in ("csv", "md")),
    "figures/bounds/table2.csv",
    "figures/bounds/table2.md",
    "figures/bounds/figure4_final.csv",
    *(
        f"figures/bounds/{name}.{ext}"
        for name in (
            "figure2",
            "figure3_conditional",
            "figure3_paper_marginal",
            "figure4",
            "figure4_alpha",
            "figure_appendix",
        )
        for ext in ("pdf", "png")
    ),
]


def test_tiny_run_writes_the_bounds_outputs_and_claims(tiny_run):
    for rel in OUTPUTS:
        assert (tiny_run / rel).stat().st_size > 0, rel
    claims = json.loads((tiny_run / "results" / "claims" / "bounds.json").read_text())
    rows = {c["id"]: c for c in claims["claims"]}
    assert rows["bce-covers-exact"]["status"] == "reproduced"
    assert rows["findrsi"]["status"] == "reproduced"
    assert rows["linucb_biased-above-linucb"]["status"] == "not evaluated"  # T = 1,000 < 15,000
    assert all(c["ours"] for c in claims["claims"])
    report = (tiny_run / "figures" / "REPORT.md").read_text()
    assert "bandits with confounded and selection-biased offline data" in report
    table = pd.read_csv(tiny_run / "figures" / "bounds" / "table1_paper_marginal.csv")
    assert len(table) == 16 and {"paper_truth", "truth", "bce_lb", "bce_ub"} <= set(table.columns)
    final = pd.read_csv(tiny_run / "figures" / "bounds" / "figure4_final.csv")
    assert set(final["algorithm"]) == {"LinUCB-PCB", "LinUCB", "LinUCB_Biased", "LinUCB_CP"}


def test_paper_scale_dry_run_lists_the_bounds_jobs(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    result = snakemake(work, "results/claims/bounds.json", "-n", "--cores", "1", "--configfile", "config/ci.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout + result.stderr
    # 100 simulations in one chunk of 100: 4 algorithms x 3 alphas (alpha = 2 shared) + 4 appendix runs
    assert "results/runs/bounds/online/alpha-2/linucb_pcb/chunk-0.parquet" in out
    assert "chunk-1.parquet" not in out
    stats = out[out.index("Job stats") :]
    assert any(line.split()[:2] == ["bounds_run", "16"] for line in stats.splitlines())


def _override(**changes):
    """A bounds config section with dotted-path changes (merged over config.yaml by Snakemake)."""
    section: dict = {}
    for path, value in changes.items():
        node = section
        *keys, last = path.split(".")
        for key in keys:
            node = node.setdefault(key, {})
        node[last] = value
    return {"bounds": section}


BAD = {
    "CPT row outside [0, 1]": (
        _override(**{"scm.variables.I1.p1": [0.3, 0.55, 1.2, 0.8]}),
        "CPT of I1, row (X1=1, C1=0): P(I1=1 | parents) = 1.2 is outside [0, 1]",
    ),
    "selection node with children": (
        _override(**{"scm.variables.U2.parents": ["S"], "scm.variables.U2.p1": [0.5, 0.6]}),
        "selection node S has children ['U2']",
    ),
    "context not a variable": (_override(**{"scm.context": ["U1", "U3"]}), "scm.context names unknown variable 'U3'"),
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("bounds_bad") / "repo")


@pytest.mark.parametrize("case", list(BAD))
def test_bad_config_stops_at_parse_time(workdir, case):
    assert_bad_config_fails_cleanly(workdir, *BAD[case])


def test_context_value_outside_the_domain_stops_the_offline_stage(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    args = ("--cores", "1", "--configfile", "config/quick.yaml", "config/ci.yaml")
    assert snakemake(work, "data/generated/bounds/selected.parquet", *args).returncode == 0
    path = work / "data" / "generated" / "bounds" / "selected.parquet"
    table = pq.read_table(path)
    u1 = table.column("U1").to_numpy().copy()
    u1[5] = 3
    pq.write_table(table.set_column(table.schema.get_field_index("U1"), "U1", pa.array(u1, pa.int8())), path)
    result = snakemake(work, "results/bounds/offline/summary.json", *args)
    assert result.returncode != 0
    assert "offline table row 5: U1=3 is not in the domain {0, 1}" in result.stderr
    assert not list((work / "results" / "bounds").rglob("*.parquet"))
