"""cpe's pure-exploration algorithms on a researcher's own graph (causal_bandits.experiments.cpe): from Python
(``cb.pure_exploration``), on a confounded graph and on a BGLM, with a clear refusal of explicit tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from workflow_helpers import TINY, copy_workflow, snakemake

import causal_bandits as cb
from causal_bandits import config as cb_config
from causal_bandits import plan, report
from causal_bandits.errors import ConfigError
from causal_bandits.experiments import cpe, pure_exploration

ROOT = Path(__file__).resolve().parents[1]


def _linear(parents=(), weights=(), intercept=0.5):
    return {"kind": "linear", "parents": list(parents), "weights": list(weights), "intercept": intercept}


#: Six nodes, two hidden confounders: U1 confounds X1 and X2, U2 confounds X3 and Y.
CONFOUNDED = {
    "nodes": ["U1", "U2", "X1", "X2", "X3", "Y"],
    "hidden": ["U1", "U2"],
    "reward": "Y",
    "mechanisms": {
        "U1": _linear(),
        "U2": _linear(),
        "X1": _linear(["U1"], [0.6], 0.2),
        "X2": _linear(["U1", "X1"], [0.3, 0.2], 0.2),
        "X3": _linear(["U2"], [0.5], 0.25),
        "Y": _linear(["X1", "X2", "X3", "U2"], [0.3, 0.1, 0.2, 0.2], 0.1),
    },
}
#: A logistic BGLM with the constant node X0 = 1 (cpe §4).
BGLM = {
    "nodes": ["X0", "X1", "X2", "Y"],
    "hidden": [],
    "reward": "Y",
    "mechanisms": {
        "X0": _linear(intercept=1.0),
        "X1": {"kind": "logistic", "parents": ["X0"], "weights": [0.2], "intercept": 0.0},
        "X2": {"kind": "logistic", "parents": ["X0", "X1"], "weights": [-0.3, 1.2], "intercept": 0.0},
        "Y": {"kind": "logistic", "parents": ["X0", "X1", "X2"], "weights": [-1.0, 0.4, 1.6], "intercept": 0.0},
    },
}


def test_the_instance_of_an_own_graph_has_exact_means_and_sequences():
    inst = cpe.instance(CONFOUNDED)
    assert inst.labels == ["do()", "do(X1=0)", "do(X1=1)", "do(X2=0)", "do(X2=1)", "do(X3=0)", "do(X3=1)"]
    # Brute force: E[Y | do(X1 = 1)] = 0.1 + 0.3 + 0.1 E[X2 | do(X1=1)] + 0.2 E[X3] + 0.2 E[U2].
    e_x2 = 0.2 + 0.3 * 0.5 + 0.2
    assert inst.mu[2] == pytest.approx(0.1 + 0.3 + 0.1 * e_x2 + 0.2 * (0.25 + 0.5 * 0.5) + 0.2 * 0.5)
    # X2's observed parent X1 blocks the path through U1: admissible; X3 is confounded with Y by U2: not.
    assert [s is not None for s in inst.sequences] == [False, False, False, True, True, False, False]
    assert not np.allclose(inst.naive_mu, inst.mu)  # confounding: E[Y | X3 = x] is not E[Y | do(X3 = x)]
    assert len(cpe.instance(CONFOUNDED, max_intervened=2).actions) == 1 + 6 + 12


def test_explicit_tables_are_refused_with_the_models_it_takes():
    with pytest.raises(ConfigError, match="explicit tables are not a model cpe's algorithms take; cpe's SCMs take"):
        cpe.instance({**CONFOUNDED, "p1": {"Y": [0.1, 0.9]}})
    bad = {**CONFOUNDED, "mechanisms": {**CONFOUNDED["mechanisms"], "Y": {"kind": "linear", "table": [0.1]}}}
    with pytest.raises(ConfigError, match=r"scm.mechanisms.Y gives 'table', not a key of a mechanism"):
        cpe.instance(bad)


def test_pure_exploration_from_python_on_a_confounded_graph():
    with pytest.warns(UserWarning, match="ccpe_bglm is not run on own: not a BGLM"):
        table = cb.pure_exploration(CONFOUNDED, delta=0.1, max_samples=1500, n_seeds=2)
    assert list(table["algorithm"]) == ["CCPE-General", "LUCB", "naive"]
    assert (table["n_runs"] == 2).all() and table["n_arms"].eq(7).all()
    assert ((table["n_censored"] >= 0) & (table["n_censored"] <= 2)).all()
    again = cb.pure_exploration(CONFOUNDED, delta=0.1, max_samples=1500, n_seeds=2, algorithms=["lucb"])
    assert again.iloc[0].equals(table.iloc[1])  # keyed streams: the same runs, to the bit


def test_the_table_names_the_best_arm_and_each_algorithms_recommendations():
    """The exact best arm (argmax of the enumerated means) and its mean, and per algorithm the arms its runs
    recommended with how many did, counted from the per-seed ``recommended`` of the runs themselves."""
    inst = cpe.instance(CONFOUNDED)
    with pytest.warns(UserWarning):
        table = cb.pure_exploration(CONFOUNDED, delta=0.1, max_samples=1500, n_seeds=3)
    columns = list(table.columns)
    assert columns[columns.index("n_arms") + 1 : columns.index("n_arms") + 4] == list(cpe.ARM_COLUMNS)
    best = int(np.argmax(inst.mu))
    assert (table["best_arm"] == inst.labels[best]).all() and (table["best_mean"] == inst.mu[best]).all()
    for row in table.itertuples():
        picks = re.findall(r"(do\([^)]*\)) (\d+)/3", row.recommended)
        assert picks and sum(int(n) for _, n in picks) == 3 and all(arm in inst.labels for arm, _ in picks)
        right = sum(int(n) for arm, n in picks if inst.mu[inst.labels.index(arm)] >= inst.mu.max() - 1e-12)
        assert right / 3 == pytest.approx(row.correct_rate)  # ε = 0: correct means the best arm was recommended
    assert "pure_exploration(document" in pydoc_text(cb.pure_exploration)
    guide = (ROOT / "docs" / "guide" / "python-api.md").read_text().split("{#python-api-cpe-columns}", 1)[1]
    documented = re.findall(r"`(\w+)`", "".join(re.findall(r"^\| ([^|]+) \|", guide.split("\n\n#", 1)[0], re.M)))
    assert documented == columns  # every column documented, in the table's order


def pydoc_text(obj) -> str:
    import pydoc

    return pydoc.plain(pydoc.render_doc(obj))


def test_ccpe_bglm_runs_on_a_bglm():
    table = cb.pure_exploration(
        BGLM,
        delta=0.1,
        max_samples=1500,
        n_seeds=2,
        bglm={"link": "logistic", "constant": "X0"},
        algorithms=["ccpe_bglm"],
    )
    assert list(table["algorithm"]) == ["CCPE-BGLM"] and table["n_runs"].iloc[0] == 2


def test_the_guides_example_runs_in_at_most_ten_lines(capsys):
    text = (ROOT / "docs" / "guide" / "python-api.md").read_text()
    block = text.split("{#python-api-cpe}", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert len([line for line in block.splitlines() if line.strip()]) <= 10
    with pytest.warns(UserWarning, match="not a BGLM"):
        exec(compile(block, "python-api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "CCPE-General" in out and "LUCB" in out and "naive" in out


EXAMPLE = ROOT / "examples" / "own_pure_exploration.yaml"
SMALL = {"n_seeds": 2, "seeds_per_job": 1, "max_samples": 1500, "delta": 0.1}


def _config(**changes):
    section = yaml.safe_load(EXAMPLE.read_text())["pure_exploration"]
    section["confounded_six"].update(changes)
    return cb_config.merge(cb_config.load(ROOT / "config" / "config.yaml"), {"pure_exploration": section})


def test_the_config_block_plans_one_job_per_algorithm_and_chunk_and_says_what_it_skips():
    config = cb_config.check(_config(**SMALL))
    jobs = list(pure_exploration.run_jobs(config))
    assert [(j["algorithm"], j["chunk"]) for j in jobs] == [
        (a, c) for a in ("ccpe_general", "lucb", "naive") for c in ("0", "1")
    ]
    job = pure_exploration.describe(config, jobs[0])
    assert (job.paper, job.horizon, job.seeds) == ("pure_exploration", 1500, range(1))
    assert job.science == {"delta": 0.1, "epsilon": 0.0, "horizon": 1500}
    assert plan.skipped(config) == [
        "pure_exploration.confounded_six: ccpe_bglm is not run: not a BGLM (give bglm: {link, constant})"
    ]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"scm": {**CONFOUNDED, "p1": {"Y": [0.5]}}}, "pure_exploration.confounded_six.scm gives 'p1': explicit"),
        ({"max_intervened": 9}, "pure_exploration.confounded_six: max_intervened = 9 must lie in 1..3"),
        ({"bglm": {"link": "logistic", "constant": "X9"}}, "pure_exploration.confounded_six: bglm.constant 'X9'"),
    ],
)
def test_a_bad_block_fails_in_one_line(changes, expected):
    with pytest.raises(ConfigError, match="^" + re.escape(expected)):
        cb_config.check(_config(**changes))


def _mechanisms(**changed):
    return {**CONFOUNDED["mechanisms"], **changed}


@pytest.mark.parametrize(
    ("scm", "expected"),
    [
        (
            {**CONFOUNDED, "mechanisms": _mechanisms(X1=_linear(["U1", "X2"], [0.3, 0.2], 0.2))},
            "scm: the parents form a directed cycle X1 -> X2 -> X1; a causal graph is acyclic",
        ),
        (
            {**CONFOUNDED, "mechanisms": _mechanisms(X3=_linear(["X3"], [0.5], 0.25))},
            "scm: the parents form a directed cycle X3 -> X3;",
        ),
        (
            {k: v for k, v in CONFOUNDED.items() if k != "reward"},
            "scm names no reward node; add reward: <node> naming the node whose mean the arms are judged by (one of",
        ),
        ({**CONFOUNDED, "reward": None}, "scm names no reward node"),
    ],
)
def test_an_own_graph_with_a_cycle_or_no_reward_is_refused_in_one_line(scm, expected):
    """From Python and from the config: a cycle is named with its nodes (no order of them lists parents first), and
    a graph without a reward node is refused (a node called Y is not taken for it)."""
    with pytest.raises(ConfigError, match="^" + re.escape(expected)) as python:
        cpe.instance(scm)
    assert "\n" not in str(python.value)
    with pytest.raises(ConfigError, match=re.escape(f"pure_exploration.confounded_six.{expected}")):
        cb_config.check(_config(scm=scm))


def test_a_parent_listed_after_its_child_in_an_acyclic_graph_is_still_a_matter_of_order():
    late = {**CONFOUNDED, "nodes": ["U1", "U2", "X2", "X1", "X3", "Y"]}
    with pytest.raises(ConfigError, match="parent 'X1' of X2 is listed after it; list the nodes in a topological"):
        cpe.instance(late)


@pytest.mark.workflow
def test_the_config_block_runs_through_the_workflow_as_from_python(tmp_path_factory):
    work = copy_workflow(tmp_path_factory.mktemp("pure") / "repo")
    small = work / "small.yaml"
    small.write_text(yaml.safe_dump({"pure_exploration": {"confounded_six": SMALL}}))
    target = "figures/pure_exploration/confounded_six/table.csv"
    summary = "results/pure_exploration/confounded_six/summary.json"
    configs = (*TINY, "examples/own_pure_exploration.yaml", str(small))
    result = snakemake(work, "--cores", "2", *configs, "--", target, summary)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "skipped: pure_exploration.confounded_six: ccpe_bglm is not run: not a BGLM" in result.stderr
    stored = pd.read_csv(work / target)
    # Two jobs of one seed each give the numbers of one call of both seeds: keyed streams, chunking changes nothing.
    with pytest.warns(UserWarning):
        direct = cb.pure_exploration(
            CONFOUNDED, delta=0.1, max_samples=1500, n_seeds=2, name="confounded_six"
        ).reset_index(drop=True)
    pd.testing.assert_frame_equal(stored, direct, check_dtype=False)
    assert "naive" in (work / "figures/pure_exploration/confounded_six/table.md").read_text()
    # The report's row (causal_bandits.report.own): the exact best arm, each algorithm's recommended arms, the rate.
    md, _ = report.render([], {}, root=work, pure_exploration=[json.loads((work / summary).read_text())])
    section = md.split("## Own pure exploration")[1]
    assert f"best arm {direct['best_arm'].iloc[0]}, mean {direct['best_mean'].iloc[0]:.4f}" in section
    for r in direct.itertuples():
        assert f"| {r.algorithm} | 2 | {r.n_censored} | {r.recommended} | {r.correct_rate:.3f} |" in section
    # and the report rule reads it: the report job's inputs in the plan
    plan = snakemake(work, "-n", "--quiet", "host", "--cores", "1", *configs, "--", "figures/REPORT.md")
    assert plan.returncode == 0, plan.stderr[-3000:]
    report_inputs = plan.stdout.split("\nrule report:\n")[1].splitlines()[0]
    assert report_inputs.startswith("    input: ") and summary in report_inputs, report_inputs
