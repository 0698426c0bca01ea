"""benchmarks/wall_time.py: the DAG reader, the list schedule and the critical path on a small graph."""

import importlib.util
import sys
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location("wall_time", Path(__file__).parents[1] / "benchmarks" / "wall_time.py")
wall_time = importlib.util.module_from_spec(spec)
sys.modules["wall_time"] = wall_time
spec.loader.exec_module(wall_time)

DOT = r"""digraph snakemake_dag {
	0[label = "all", color = "0.00 0.6 0.85", style="rounded"];
	1[label = "agg", color = "0.1 0.6 0.85", style="rounded"];
	2[label = "run\nchunk: 0\nexperiment: e", color = "0.2 0.6 0.85", style="rounded"];
	3[label = "run\nchunk: 1", color = "0.2 0.6 0.85", style="rounded"];
	4[label = "instance\nexperiment: e", color = "0.3 0.6 0.85", style="rounded"];
	5[label = "other", color = "0.3 0.6 0.85", style="rounded"];
	1 -> 0
	5 -> 0
	2 -> 1
	3 -> 1
	4 -> 2
	4 -> 3
}
"""


def jobs_with(costs):
    jobs = wall_time.parse_dag(DOT)
    for jid, cost in costs.items():
        jobs[jid].cost = cost
    return jobs


def test_wildcards_snakemake_leaves_off_a_label_come_from_the_input_jobs():
    jobs = wall_time.parse_dag(DOT)
    assert jobs[3].wildcards == {"chunk": "1", "experiment": "e"}
    assert jobs[3].name() == "run chunk=1"
    assert sorted(jobs[4].children) == [2, 3] and jobs[0].parents == [1, 5]


def test_schedule_and_critical_path():
    jobs = jobs_with({0: 1, 1: 2, 2: 10, 3: 6, 4: 3, 5: 12})
    # one core: the sum; many cores: the longest chain (instance, run 0, agg, all = 16)
    assert wall_time.schedule(jobs, 1) == 34
    assert wall_time.schedule(jobs, 8) == 16
    assert [j.id for j in wall_time.critical_path(jobs)] == [4, 2, 1, 0]
    # two cores, longest ready first: 5 (12) and 4 (3); then 2 (10) at 3, 3 (6) at 12; agg 18-20, all 20-21
    assert wall_time.schedule(jobs, 2) == 21


def test_a_dag_without_jobs_is_refused():
    with pytest.raises(SystemExit, match="no jobs"):
        wall_time.parse_dag("digraph {}")


def test_the_model_costs_a_run_job_as_the_cost_check_and_other_jobs_by_their_rule_mean():
    """A job neither archived nor measured: a run job by causal_bandits.cost (its POMIS+ simulation divided by the
    speed-up), any other job by its rule's archived mean, a rule no archive holds by one start-up."""
    from causal_bandits import config as cb_config
    from causal_bandits import cost
    from causal_bandits.papers.nonmanip import runs

    config = cb_config.check(cb_config.load(Path(__file__).parents[1] / "config" / "config.yaml"))
    wildcards = {"experiment": "fig5c", "strategy": "POMISplus", "algorithm": "ts", "chunk": "0"}
    job = wall_time.Job(0, "nonmanip_run_pomisplus", wildcards)
    described = runs.describe(config, wildcards)
    assert wall_time.model_cost(config, job, {}, 1.0) == (cost.seconds(described), "cost model")
    sped, _ = wall_time.model_cost(config, job, {}, 4.0)
    assert sped == pytest.approx(cost.START_UP_S + cost.simulation_seconds(described) / 4)
    other = wall_time.Job(1, "nonmanip_table1", {})
    assert wall_time.model_cost(config, other, {"nonmanip_table1": 0.64}, 1.0) == (0.64, "rule mean")
    assert wall_time.model_cost(config, other, {}, 1.0) == (cost.START_UP_S, "start-up")
