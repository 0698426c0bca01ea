"""The experiments: config section (researchers' own studies): config-time checks, the worked example
examples/own_experiment.yaml through Snakemake, and that adding an experiment replans no paper job."""

from __future__ import annotations

import base64
import copy
import json
import runpy

import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import ROOT, TINY, assert_bad_config_fails_cleanly, copy_workflow, snakemake

from causal_bandits import algorithms, report
from causal_bandits import config as cb_config
from causal_bandits.claims import STATUSES
from causal_bandits.errors import CausalBanditsError
from causal_bandits.experiments import config as experiments_config
from causal_bandits.experiments.instance import instance_document

EXAMPLE = ROOT / "examples" / "own_experiment.yaml"
#: The example at a tiny size: 2 seeds, T = 200, one solver.
SMALL = {"experiments": {"my_study": {"horizon": 200, "n_seeds": 2, "seeds_per_job": 2, "algorithms": ["ts"]}}}


def study() -> dict:
    return copy.deepcopy(yaml.safe_load(EXAMPLE.read_text())["experiments"]["my_study"])


def check(experiment: dict) -> dict:
    """Validate a config holding ``experiment`` as ``my_study`` (schema, defaults, semantic checks)."""
    config = cb_config.merge(cb_config.load(ROOT / "config" / "config.yaml"), {"experiments": {"my_study": experiment}})
    cb_config.validate(config)
    experiments_config.check_config(config["experiments"])
    return config["experiments"]["my_study"]


def fails(experiment: dict, *expected: str) -> str:
    with pytest.raises(CausalBanditsError) as err:
        check(experiment)
    message = str(err.value)
    assert "\n" not in message and all(e in message for e in expected), message
    return message


CPT = {"family": "cpt", "p_u": [0.4], "p1": {"X": [0.2, 0.7], "Z": [0.1, 0.9], "Y": [0.1, 0.3, 0.8, 0.6]}}


def test_the_example_passes_and_gets_defaults():
    checked = check(study())
    assert experiments_config.strategies(checked) == ["BF", "MIS", "POMIS", "POMISplus", "x_only"]
    assert checked["pomis_plus"]["bootstrap"] == 500 and "spot_check" not in checked["pomis_plus"]
    assert check({**study(), "scm": CPT})["scm"]["family"] == "cpt"
    assert check({**study(), "scm": {"family": "random_cpt", "seed": 3}})


def test_bad_diagrams():
    s = study()
    s["diagram"]["directed"] = [["X", "Z"], ["Z", "Y"], ["Y", "X"]]
    fails(s, "experiments.my_study.diagram", "cycle")
    s = study()
    s["diagram"]["directed"] = [["X", "W"]]
    fails(s, "experiments.my_study.diagram", "'W'")
    s = study()
    s["diagram"]["reward"] = "W"
    fails(s, "experiments.my_study.diagram names 'W', which is not a node")
    fails({**study(), "diagram": "no/such/graph.json"}, "cannot read no/such/graph.json")


def test_diagram_from_a_json_file(tmp_path):
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(study()["diagram"]))
    s = {**study(), "diagram": str(path)}
    check(s)
    assert instance_document("my_study", s)["arm_lists"] == instance_document("my_study", study())["arm_lists"]


@pytest.mark.parametrize(
    ("tables", "expected"),
    [
        ({"p1": {**CPT["p1"], "Y": [0.1, 0.3, 0.8]}}, "experiments.my_study.scm.p1.Y has 3 entries"),
        ({"p1": {**CPT["p1"], "Z": [0.1, 1.2]}}, "experiments.my_study.scm.p1.Z holds 1.2, not a probability"),
        ({"p_u": [-0.1]}, "experiments.my_study.scm.p_u holds -0.1"),
        ({"p_u": [0.4, 0.5]}, "experiments.my_study.scm.p_u has 2 entries"),
        ({"p1": {"X": [0.2, 0.7]}}, "missing ['Y', 'Z']"),
    ],
)
def test_bad_tables(tables, expected):
    fails({**study(), "scm": {**CPT, **tables}}, expected)


def test_bad_scm_keys():
    fails({**study(), "scm": {"family": "cpt", "q": {}}}, "experiments.my_study.scm (family cpt) has no 'p_u'")
    fails({**study(), "scm": {"q": {"U_X": 0.2}, "c": {"X": 0, "Y": 0, "Z": 0}}}, "experiments.my_study.scm", "missing")


def test_bad_algorithms_and_strategies(monkeypatch):
    fails(
        {**study(), "algorithms": ["no_such_solver"]},
        "experiments.my_study.algorithms.0 names 'no_such_solver'",
        "not a registered algorithm",
    )
    fails({**study(), "algorithms": ["z2_ts"]}, "names 'z2_ts', which is not a registered algorithm")
    fails({**study(), "strategies": ["ALL"]}, "experiments.my_study.strategies.0")
    # a user's own solver registered without a z2 version plays every arm list, but not POMIS+
    monkeypatch.setitem(
        algorithms.registry("nonmanip"),
        "eps",
        algorithms.Algorithm("eps", "causal_bandits.bandits.thompson.ThompsonSampling", "EPS", addition=True),
    )
    check({**study(), "algorithms": ["eps"], "strategies": ["BF", "POMIS"]})
    # mixed with a solver that has one, POMIS+ runs that solver's z² version (as the paper section does) ...
    check({**study(), "algorithms": ["ts", "eps"]})
    # ... and with none, POMIS+ has nothing to play
    fails({**study(), "algorithms": ["eps"]}, "POMISplus plays the z² version of a solver, and none of ['eps']")


def test_an_experiment_that_plays_nothing():
    fails(
        {**study(), "strategies": [], "arms": {}}, "experiments.my_study plays no strategy (strategies: [] and no arms)"
    )
    check({**study(), "strategies": []})  # its explicit arm list is enough


def test_bad_explicit_arms():
    fails({**study(), "arms": {"mine": [{"Y": 1}]}}, "experiments.my_study.arms.mine[0] sets 'Y'")
    fails({**study(), "arms": {"POMIS": [{"X": 1}]}}, "experiments.my_study.arms")


# --------------------------------------------------------------------------------------- workflow
@pytest.fixture(scope="module")
def done_tiny(tmp_path_factory):
    """A scratch copy whose tiny workflow is up to date without running a job: every output of the
    tiny run exists (empty) with Snakemake's metadata (``--touch``), so a dry run shows what an edit replans."""
    work = copy_workflow(tmp_path_factory.mktemp("experiments") / "repo")
    result = snakemake(work, "--touch", "--cores", "1", *TINY)
    assert result.returncode == 0, result.stderr[-3000:]
    for entry in (work / ".snakemake" / "metadata").iterdir():
        path = work / base64.urlsafe_b64decode(entry.name + "=" * (-len(entry.name) % 4)).decode()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    result = snakemake(work, "--touch", "--cores", "1", *TINY)
    assert result.returncode == 0, result.stderr[-3000:]
    (work / "config" / "small.yaml").write_text(yaml.safe_dump(SMALL))
    return work


def planned(result) -> dict[str, int]:
    """Jobs per rule of a dry run's "Job stats" table."""
    lines = result.stdout.splitlines()
    if any("Nothing to be done" in line for line in lines + result.stderr.splitlines()):
        return {}
    jobs = {}
    for line in lines[lines.index("Job stats:") + 3 :]:
        if line.startswith("total"):
            return jobs
        rule, count = line.split()
        jobs[rule] = int(count)
    raise AssertionError("no total line in the dry run's job stats")


@pytest.mark.workflow
def test_adding_an_experiment_replans_no_paper_job(done_tiny):
    before = snakemake(done_tiny, "-n", "--cores", "1", *TINY)
    assert before.returncode == 0 and planned(before) == {}, before.stdout[-2000:]
    after = snakemake(done_tiny, "-n", "--cores", "1", *TINY, "examples/own_experiment.yaml", "config/small.yaml")
    assert after.returncode == 0, after.stderr[-3000:]
    jobs = planned(after)
    assert jobs["experiments_run"] == 5  # 2 seeds in 1 chunk x (BF, MIS, POMIS, POMIS+, x_only) x TS
    assert {r for r in jobs if not r.startswith("experiments_")} == {"report", "all"}, jobs


@pytest.mark.workflow
def test_own_experiment_example_runs(done_tiny):
    """The worked example through Snakemake (its own targets only): its table, figure and report summary,
    and its POMIS/TS runs equal to examples/library_from_python.py's numbers (same streams)."""
    targets = [f"figures/experiments/my_study/{f}" for f in ("table.md", "table.csv", "regret.png")]
    result = snakemake(done_tiny, "--cores", "2", *targets, *TINY, "examples/own_experiment.yaml", "config/small.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    table = (done_tiny / targets[0]).read_text()
    assert table.count("| TS |") == 5 and "| x_only | TS | 2 |" in table
    summary = json.loads((done_tiny / "results/experiments/my_study/summary.json").read_text())
    md, html = report.render([], {}, root=done_tiny, experiments=[summary])
    section = md.split("## Own experiments")[1]
    assert "| x_only | TS | 2 |" in section and not any(status in section for status in STATUSES)
    assert '<img src="experiments/my_study/regret.png"' in html  # the figure beside the page
    store = pq.read_table(done_tiny / "results/runs/experiments/my_study/POMIS/ts/chunk-0.parquet").to_pandas()
    frame = runpy.run_path(str(ROOT / "examples" / "library_from_python.py"))["main"](2, 200, 20)
    assert np.array_equal(frame["cum_regret"].to_numpy(), store["cum_regret"].to_numpy())


@pytest.mark.workflow
@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ({"algorithms": ["no_such_solver"]}, "experiments.my_study.algorithms.0 names 'no_such_solver'"),
        ({"scm": {**CPT, "p1": {**CPT["p1"], "Y": [0.5]}}}, "experiments.my_study.scm.p1.Y has 1 entries"),
    ],
)
def test_bad_experiment_stops_before_any_job(tmp_path, override, expected):
    work = copy_workflow(tmp_path / "repo")
    assert_bad_config_fails_cleanly(work, {"experiments": {"my_study": {**study(), **override}}}, expected)


def test_report_without_experiments_is_unchanged():
    """No experiments: the report has no own-experiments section (the papers' report stays byte-identical)."""
    assert report.render([], {}) == report.render([], {}, experiments=[])
    assert "Own experiments" not in report.render([], {})[0]
