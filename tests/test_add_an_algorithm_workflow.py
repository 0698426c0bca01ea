"""The worked example examples/add_an_algorithm/, applied as its README says to a copy of the finished tiny run,
with every shipped config: it plans (every job, from nothing), runs (tiny), and adds only its own jobs."""

from __future__ import annotations

import re

import pytest
from workflow_helpers import TINY, copy_finished_run, register_example, snakemake

pytestmark = pytest.mark.workflow

OVERLAY = "examples/add_an_algorithm/overlay.yaml"
#: Every shipped config as the README runs it (the studies overlay on the paper scale).
CONFIGS = {
    "config": ("config/config.yaml", "config/ci.yaml"),
    "quick": ("config/quick.yaml", "config/ci.yaml"),
    "tiny": ("config/tiny.yaml", "config/ci.yaml"),
    "studies": ("config/studies.yaml", "config/ci.yaml"),
}


@pytest.fixture(scope="module")
def applied(tiny_run, tmp_path_factory):
    """A copy of the finished tiny run with the example applied: the policy file copied, the registry line added."""
    work = copy_finished_run(tiny_run, tmp_path_factory.mktemp("example") / "repo")
    register_example(work / "src", "epsilon_greedy.py", "registry_line.txt")
    return work


def _planned(stdout: str) -> set[str]:
    return {
        o.strip()
        for line in stdout.splitlines()
        if line.strip().startswith("output:")
        for o in line.split(":", 1)[1].split(",")
    }


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_example_plans_with_every_shipped_config(applied, name):
    base = snakemake(applied, "-n", "--forceall", "--configfile", *CONFIGS[name])
    added = snakemake(applied, "-n", "--forceall", "--configfile", *CONFIGS[name], OVERLAY)
    assert base.returncode == 0 and added.returncode == 0, (base.stderr + added.stderr)[-3000:]
    new = _planned(added.stdout) - _planned(base.stdout)
    runs = [o for o in new if o.startswith("results/runs/")]
    # Its own runs (and, where the config ran fewer solvers, those of the paper's solvers the overlay names), on the
    # paper's panels only: no POMIS+ for it (it has no z² version) and no study (a study runs the solvers it names).
    mine = [o for o in runs if "/eps_greedy/" in o]
    assert mine and all(re.match(r"results/runs/nonmanip/fig5\w/(BF|MIS|POMIS)/eps_greedy/", o) for o in mine), mine
    assert all(o.startswith("results/runs/nonmanip/") for o in runs), runs
    assert not [o for o in new if not o.startswith("results/runs/")], sorted(new)[:10]


def test_the_example_runs_and_reruns_none_of_the_papers_runs(applied):
    runs = applied / "results" / "runs" / "nonmanip"
    before = {path: path.stat().st_mtime_ns for path in runs.rglob("*.parquet")}
    result = snakemake(applied, "--cores", "2", "nonmanip", *TINY, OVERLAY)
    assert result.returncode == 0, result.stderr[-3000:]
    table = (applied / "figures/nonmanip/table1.md").read_text()
    assert "ε-greedy (addition, not in the paper) POMIS" in table
    after = {path: path.stat().st_mtime_ns for path in runs.rglob("*.parquet")}
    assert before and {path: after[path] for path in before} == before  # the paper's runs stand as they were
    # New: its own runs (and those of the paper's solvers the overlay names that tiny.yaml does not run).
    assert {path for path in after if "eps_greedy" in path.parts} <= after.keys() - before.keys()
