"""A workflow script run by hand (causal_bandits.snakemake_stub) writes what its rule writes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import TINY, copy_workflow, snakemake

from causal_bandits.snakemake_stub import Entries, Job

TARGET = "figures/unknown_graph/figure1_instance.json"


def test_entries_are_read_by_index_and_by_name():
    entries = Entries({"trace": "a.parquet", "summary": "b.json"})
    assert entries[0] == entries.trace == "a.parquet" and list(entries) == ["a.parquet", "b.json"]
    assert list(entries.keys()) == ["trace", "summary"] and Entries(["x.log"])[0] == "x.log"
    with pytest.raises(AttributeError):
        _ = entries.nope
    with pytest.raises(ValueError, match="unknown job fields \\['inputs'\\]"):
        Job({"inputs": {}})


@pytest.mark.workflow
def test_a_script_run_by_hand_writes_what_its_rule_writes(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    ran = snakemake(work, "--cores", "1", TARGET, *TINY)
    assert ran.returncode == 0, ran.stderr[-3000:]
    job = {
        "output": [str(tmp_path / "by_hand.json")],
        "log": [str(tmp_path / "by_hand.log")],
        "params": {"cell": None, "variant": "n9", "delta": 0.1, "c_B": 1.0},
    }
    (tmp_path / "job.json").write_text(json.dumps(job))
    script = work / "workflow" / "scripts" / "unknown_graph_instance.py"
    cmd = [sys.executable, "-m", "causal_bandits.snakemake_stub", str(script), str(tmp_path / "job.json")]
    subprocess.run(cmd, check=True, cwd=work)
    assert (tmp_path / "by_hand.json").read_bytes() == (work / TARGET).read_bytes()


def test_a_missing_job_file_is_named(tmp_path):
    cmd = [
        sys.executable,
        "-m",
        "causal_bandits.snakemake_stub",
        "workflow/scripts/report.py",
        str(tmp_path / "no.json"),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 2 and "no.json does not exist" in result.stderr
