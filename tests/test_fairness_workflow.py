"""End to end (slow): the fairness part of the quick workflow, on the shared raw data and on stand-ins."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow.parquet as pq
import pytest
from workflow_helpers import copy_workflow, snakemake

pytestmark = pytest.mark.workflow

TARGETS = [f"figures/fairness/table{i}.{e}" for i in (1, 2, 4, 5) for e in ("csv", "md")]
TARGETS += [f"figures/fairness/figure{i}.{e}" for i in ("1", "2a", "2b", "3") for e in ("pdf", "png")]


def test_tiny_run_writes_the_fairness_outputs_and_verdicts(tiny_run):
    for target in TARGETS:
        assert (tiny_run / target).stat().st_size > 0, target
    checked = json.loads((tiny_run / "results/fairness/raw/adult.json").read_text())
    assert checked["data_provenance"] == "raw"
    # where the raw files live is not part of a result: names relative to data.raw_dir, not the tests' path to it
    assert all(f["file"] in (f["pinned"], f["pinned"] + ".gz") for f in checked["files"]), checked["files"]
    meta = pq.read_schema(tiny_run / "data/processed/fairness/adult_users.parquet").metadata
    assert meta[b"source"].decode() == checked["files"][0]["file"]
    doc = json.loads((tiny_run / "results/claims/fairness.json").read_text())
    claims = {
        c["id"]: {**c, "note": " ".join([c["note"], *(doc["notes"][k] for k in c["notes"])])} for c in doc["claims"]
    }
    assert claims["email-dsep"]["status"] == "reproduced"
    # 2 seeds: C-UCB and D-UCB overlap, so the ordering is undecided and the note says how many seeds would decide
    ordering = claims["fig2b-ucb-cucb-ducb"]
    assert ordering["status"] == "inconclusive at this scale" and "would decide it" in ordering["note"], ordering
    # F-UCB certifies no arm at T = 200: its agreement is its fallback's, said as vacuous, never reproduced
    assert claims["fig2b-causal-below-ucb"]["status"] == "vacuous"
    for key in ("ucb", "cucb", "ducb", "fucb"):  # the tiny run's T is not the paper's: counts are not compared
        assert claims[f"table1-unfair-{key}"]["status"] == "not evaluated"
        assert "cannot be judged at this scale" in claims[f"table1-unfair-{key}"]["note"]
        assert "cannot follow from its own model" in claims[f"table1-unfair-{key}"]["note"]
    assert claims["adult-sexes"]["status"] == "reproduced"
    study = json.loads((tiny_run / "results/claims/studies/fucb_radius.json").read_text())
    (radius,) = study["claims"]  # one tau in the tiny run: no trend to find
    assert radius["status"] == "not specified by the paper" and radius["ours"].startswith("no point of the grid")
    assert "table1-fucb-regret-decreasing-radius" not in claims
    assert len(pd.read_csv(tiny_run / "figures/studies/fucb_radius/table.csv")) == 1
    t2 = pd.read_csv(tiny_run / "figures/fairness/table2.csv")
    assert set(t2["data_provenance"]) == {"raw"}
    assert "SYNTHETIC" not in (tiny_run / "figures/fairness/table2.md").read_text()
    report = (tiny_run / "figures/REPORT.md").read_text()
    assert "counterfactual fairness for causal bandits" in report and "cannot follow from its own model" in report


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("fairness_wf") / "repo")


def run_with_raw_dir(tree, raw_dir, *targets):
    (tree / "config" / "raw_here.yaml").write_text(f"data:\n  raw_dir: {raw_dir}\n")
    return snakemake(tree, *targets, "--cores", "2", "--configfile", "config/quick.yaml", "config/raw_here.yaml")


def test_quick_workflow_on_standins_labels_everything(tree, tmp_path):
    empty = tmp_path / "no_raw_data"
    empty.mkdir()
    done = run_with_raw_dir(tree, empty, "figures/fairness/table2.md", "figures/fairness/figure3.png")
    assert done.returncode == 0, done.stderr[-3000:]
    assert not any(empty.iterdir())  # nothing written under the raw-data directory
    assert (tree / "data/standin/adult/adult.data").is_file()
    meta = pq.read_schema(tree / "data/processed/fairness/adult_users.parquet").metadata
    assert meta[b"data_provenance"] == b"synthetic-standin"
    assert "[SYNTHETIC STAND-IN DATA]" in (tree / "figures/fairness/table2.md").read_text().splitlines()[0]
    assert set(pd.read_csv(tree / "figures/fairness/table2.csv")["data_provenance"]) == {"synthetic-standin"}
    instance = json.loads((tree / "results/fairness/instances/adult_video.json").read_text())
    assert instance["data_provenance"] == "synthetic-standin"


def test_corrupt_raw_file_stops_the_workflow_in_one_line(tree, tmp_path):
    raw = tmp_path / "raw"
    (raw / "adult").mkdir(parents=True)
    (raw / "adult" / "adult.data").write_text("39, State-gov\n")  # a truncated copy
    (tree / "results/fairness/raw/adult.json").unlink(missing_ok=True)  # an earlier test of the module may have made it
    done = run_with_raw_dir(tree, raw, "results/fairness/raw/adult.json")
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if "error: " in line]
    # found when the workflow plans, before any job: one line, the last, ending with the checksum and the source
    assert len(lines) == 1 and lines == done.stderr.rstrip().splitlines()[-1:], done.stderr[-3000:]
    assert lines[0].startswith(f"error: {raw / 'adult' / 'adult.data'}: sha256 of the content is ")
    assert "expected sha256 5b00264637dbfec3" in lines[0] and lines[0].endswith(
        "(publisher: https://archive.ics.uci.edu/dataset/2/adult)"
    )
    assert not (tree / "results/fairness/raw/adult.json").exists()
