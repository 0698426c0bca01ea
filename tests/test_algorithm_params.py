"""Algorithms with parameters (causal_bandits.algorithms.Variant): the worked example examples/add_an_algorithm/
moss*.py, MOSS registered with its horizon as a parameter, named by an own experiment with the run's T and
without. Each parameter set is an algorithm of its own (run path, label, provenance); the class receives the
real horizon; POMIS+ is skipped for it, and the config check, the plan and the table say so. Without
parameters nothing changes (the papers' runs keep their paths and provenance)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from workflow_helpers import TINY, copy_workflow, register_example, snakemake

from causal_bandits import algorithms, store
from causal_bandits import config as cb_config
from causal_bandits.errors import ConfigError
from causal_bandits.experiments import runs as experiments_runs
from causal_bandits.experiments import summary

ROOT = Path(__file__).resolve().parents[1]
OVERLAY = ROOT / "examples" / "add_an_algorithm" / "moss_overlay.yaml"


def test_a_variant_is_an_algorithm_of_its_own():
    plain = algorithms.variant("nonmanip", "ts", where="x")
    assert (plain.id, plain.display("nonmanip"), plain.arguments(500)) == ("ts", "TS", {})
    tuned = algorithms.Variant("kl_ucb", {"c": 0.5, "horizon": "T"})
    assert tuned.id == "kl_ucb-c-0.5-horizon-T" and algorithms.key_of(tuned.id) == "kl_ucb"
    assert tuned.display("nonmanip") == "KL-UCB (c=0.5, horizon=T)"
    assert tuned.arguments(500) == {"c": 0.5, "horizon": 500}
    assert algorithms.Variant("ts", {"x": 1}, "Mine").display("nonmanip") == "Mine (x=1)"  # a label shows the values


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ({"key": "ts", "params": {"horizon": "T"}}, "x: algorithm 'ts' has no parameter 'horizon'; it declares none"),
        (
            {"key": "no_such_solver"},
            "x names 'no_such_solver', which is not a registered algorithm of nonmanip; use one of {solvers}, or",
        ),
    ],
)
def test_bad_parameters_fail_in_one_line(item, expected):
    expected = expected.format(solvers=", ".join(algorithms.solvers("nonmanip")))  # what is registered, read
    with pytest.raises(ConfigError, match="^" + re.escape(expected)):
        algorithms.variant("nonmanip", item, where="x")


def test_a_paper_run_without_parameters_keeps_its_provenance():
    """An experiment naming plain keys describes its jobs as before: no ``params`` in what the provenance hashes."""
    config = cb_config.check(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "examples" / "own_experiment.yaml"))
    jobs = [experiments_runs.describe(config, wc) for wc in experiments_runs.run_jobs(config)]
    assert jobs and all("params" not in job.science for job in jobs)
    assert {job.algorithm for job in jobs} == {"ts", "kl_ucb"}


CHECK = textwrap.dedent("""
    import json, sys
    from causal_bandits import algorithms, config as cb_config, plan, runs, store
    from causal_bandits.experiments import config as experiments_config, runs as experiments_runs
    from causal_bandits.experiments.instance import instance_document
    from causal_bandits.papers.nonmanip import runs as nonmanip_runs

    root, overlay = sys.argv[1], sys.argv[2]
    config = cb_config.check(cb_config.load(root + "/config/config.yaml", overlay))
    jobs = [experiments_runs.describe(config, wc) for wc in experiments_runs.run_jobs(config)]
    instance = instance_document("moss", config["experiments"]["moss"])
    paths = algorithms.registry("nonmanip")
    built = {j.algorithm: nonmanip_runs.solver(paths[j.policy].path, instance, j.strategy,
                                               params=j.science.get("params")).horizon
             for j in jobs if j.strategy == "BF" and j.algorithm != "ts"}
    print(json.dumps({"jobs": sorted([j.strategy, j.algorithm, j.science.get("params")] for j in jobs),
                      "built": built, "skipped": plan.skipped(config)}))
""")


def test_moss_gets_the_real_horizon(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    register_example(src, "moss.py", "moss_registry_line.txt")
    result = subprocess.run(
        [sys.executable, "-c", CHECK, str(ROOT), str(OVERLAY)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "PATH": ""},
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout)
    assert out["jobs"] == sorted(
        [
            *([s, "moss", None] for s in ("BF", "POMIS")),
            *([s, "moss-horizon-T", {"horizon": 5000}] for s in ("BF", "POMIS")),
            *([s, "ts", None] for s in ("BF", "POMIS", "POMISplus")),
        ]
    )
    assert out["built"] == {"moss": None, "moss-horizon-T": 5000}
    assert out["skipped"] == [
        f"experiments.moss: POMISplus with {label} is not run: no z² version"
        for label in ("MOSS (T-aware) (horizon=T, addition, not in the paper)", "MOSS (addition, not in the paper)")
    ]


def test_a_skipped_pair_has_a_row_saying_why():
    instance = {"arm_lists": {"POMIS": [0, 1]}, "arms": [{"mu": 0.25}, {"mu": 0.75}]}
    row = {"strategy": "POMIS", "algorithm": "ts", "round": 10, "n_seeds": 2, "mean_cum_regret": 1.0}
    agg = pd.DataFrame([{**row, "ci95_lo": 0.5, "ci95_hi": 1.5, "optimal_arm_prob": 0.5}])
    rows = summary.rows(agg, instance, {"ts": "TS"}, [["POMISplus", "ts", "no z² version"]])
    table = summary.markdown(summary.table(rows))
    assert "| POMIS | TS | 2 | 0.75 | 1.0 | [0.500, 1.500] | 0.5 |" in table
    assert "| POMISplus | TS | 2 | 0.75 | not run: no z² version |  |  |" in table
    assert summary.document("e", {"title": "e", "mu_star": 0.75, "optimal_arms": [1]}, rows, 10, "", "")["n_seeds"] == 2


@pytest.mark.workflow
def test_moss_with_the_real_horizon_runs_through_the_workflow(tmp_path_factory):
    work = copy_workflow(tmp_path_factory.mktemp("moss") / "repo")
    register_example(work / "src", "moss.py", "moss_registry_line.txt")
    small = work / "small.yaml"
    small.write_text("experiments: {moss: {horizon: 300, n_seeds: 4, seeds_per_job: 4}}\n")
    target = "figures/experiments/moss/table.md"
    result = snakemake(work, "--cores", "2", *TINY, str(OVERLAY), str(small), "--", target)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "skipped: experiments.moss: POMISplus with MOSS (T-aware)" in result.stderr
    table = (work / target).read_text()
    assert "| BF | MOSS (T-aware) (horizon=T, addition, not in the paper) |" in table
    assert "| BF | MOSS (addition, not in the paper) |" in table
    aware_label = "MOSS (T-aware) (horizon=T, addition, not in the paper)"
    assert f"| POMISplus | {aware_label} | 3 | 0.66 | not run: no z² version |" in table
    runs = work / "results/runs/experiments/moss/BF"
    aware, anytime = (pq.read_table(runs / a / "chunk-0.parquet") for a in ("moss-horizon-T", "moss"))
    # The class received T = 300: its provenance says so, and it plays otherwise than anytime MOSS.
    science = {"experiment": "moss", "horizon": 300, "record_points": 20}  # tiny.yaml's record points
    hashes = [t.schema.metadata[b"config_hash"].decode() for t in (aware, anytime)]
    assert hashes == [store.config_hash({**science, "params": {"horizon": 300}}), store.config_hash(science)]
    assert aware.column("arm") != anytime.column("arm")
    # The values themselves are in the run files' metadata (key params); a run without values has no such key.
    assert json.loads(aware.schema.metadata[b"params"]) == {"horizon": 300}
    assert b"params" not in anytime.schema.metadata
    # A researcher's edit of one algorithm's parameters replans only that algorithm's runs: a new value, the runs of
    # that value; the registry entry's declaration (data, in no job's code digest), no run at all.
    other = work / "other.yaml"
    other.write_text(OVERLAY.read_text().replace("params: {horizon: T}", "params: {horizon: 200}"))
    planned = _planned_runs(work, str(other), str(small), "--", target)
    assert planned == {f"results/runs/experiments/moss/{s}/moss-horizon-200/chunk-0.parquet" for s in ("BF", "POMIS")}
    registry = work / "src/causal_bandits/papers/nonmanip/algorithms.py"
    declared = registry.read_text()
    assert '{"type": "integer", "minimum": 1}' in declared
    registry.write_text(declared.replace('{"type": "integer", "minimum": 1}', '{"type": "integer", "minimum": 2}'))
    assert _planned_runs(work, str(OVERLAY), str(small), "--", target) == set()


def _planned_runs(work: Path, *args: str) -> set[str]:
    """The run files a dry run of the tiny config and ``args`` plans in ``work`` (each job listed with its outputs)."""
    result = snakemake(work, "-n", "--quiet", "host", *TINY, *args)
    assert result.returncode == 0, result.stderr[-3000:]
    outputs = [
        o.strip()
        for line in result.stdout.splitlines()
        if line.strip().startswith("output:")
        for o in line.split(":", 1)[1].split(",")
    ]
    return {o for o in outputs if re.match(r"results/runs/.*/chunk-\d+\.parquet$", o)}
