"""The worked example examples/add_an_algorithm/: an ε-greedy policy added to the nonmanip paper with one
new file, one registry line and a config overlay. It runs through the library on a small size, and once
registered it is an addition: in the registry and the tables, marked as such, never in the claims."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from workflow_helpers import register_example

from causal_bandits import config as cb_config
from causal_bandits.bandits.engine import Streams, linear_grid, simulate
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers.nonmanip import experiments, runs

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "add_an_algorithm"


def _example_policy():
    spec = importlib.util.spec_from_file_location("epsilon_greedy_example", EXAMPLE / "epsilon_greedy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.EpsilonGreedy


@pytest.fixture(scope="module")
def fig5b():
    panels = cb_config.load(ROOT / "config" / "config.yaml")["nonmanip"]["panels"]
    return experiments.instance_document("fig5b", panels["fig5b"])


def _regret(policy, instance, seeds=range(64), horizon=2000):
    env, _ = runs.environment(instance, "POMIS")
    run = simulate(
        policy, env, Streams("nonmanip", "fig5b", np.asarray(seeds)), horizon, [RegretTrace(linear_grid(horizon, 20))]
    )
    return env, run


def test_epsilon_greedy_runs_on_the_engine_and_learns(fig5b):
    EpsilonGreedy = _example_policy()
    env, run = _regret(EpsilonGreedy(0.1), fig5b)
    final = run.summary["final_regret"]
    assert final.shape == (64,)
    # Uniformly random play has regret T (max mean - average mean); ε-greedy learns to do better (on
    # fig5b's close arms some seeds settle on the second-best arm, so not by far).
    means = np.asarray(env.means).ravel()
    uniform = 2000 * (means.max() - means.mean())
    assert final.mean() < 0.75 * uniform
    # Seeded: the same streams give the same run, and a pure-exploration ε gives uniform play's regret.
    _, again = _regret(EpsilonGreedy(0.1), fig5b)
    np.testing.assert_array_equal(final, again.summary["final_regret"])
    _, explore = _regret(EpsilonGreedy(1.0), fig5b)
    assert explore.summary["final_regret"].mean() == pytest.approx(uniform, rel=0.1)


def _registered_copy(tmp_path: Path) -> Path:
    """A copy of the package with the example applied: the module in place and the registry line added."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    register_example(src, "epsilon_greedy.py", "registry_line.txt")
    return src


CHECK = textwrap.dedent("""
    import json, sys
    import numpy as np, pandas as pd
    from causal_bandits import algorithms, config as cb_config
    from causal_bandits.errors import ConfigError
    from causal_bandits.papers.nonmanip import claims, config as nonmanip_config, figures, tables

    root, overlay = sys.argv[1], sys.argv[2]
    entry = algorithms.registry("nonmanip")["eps_greedy"]
    cfg = cb_config.validate(cb_config.load(root + "/config/config.yaml", overlay))
    nonmanip_config.check_config(cfg["nonmanip"])
    panels = {p: {"identical": {}} for p in cfg["nonmanip"]["panels"]}
    ids = [c.id + " " + c.statement for c in claims.claims(panels)]
    rows = []
    for a in cfg["nonmanip"]["algorithms"]:
        for s in ("BF", "MIS", "POMIS") + (("POMISplus",) if algorithms.registry("nonmanip")[a].z2 else ()):
            rows.append({"strategy": s, "algorithm": a, "round": 10, "n_seeds": 2, "mean_cum_regret": 1.0,
                         "ci95_hi": 1.5})
    agg = pd.DataFrame(rows)
    table = tables.table1({"fig5b": agg}, {"fig5b": {"identical": {}}})
    md = tables.table1_markdown(table, {"fig5b": "Fig. 5b"})
    print(json.dumps({"addition": entry.addition, "display": entry.display, "z2": entry.z2,
                      "solvers": algorithms.solvers("nonmanip"), "own": algorithms.own("nonmanip"),
                      "algorithms": cfg["nonmanip"]["algorithms"], "claims": ids,
                      "table": sorted({(r.algorithm, r.strategy) for r in table.itertuples()}), "markdown": md,
                      "legend": figures.LABELS["eps_greedy"], "style": figures.LINESTYLES["eps_greedy"],
                      "styles": [figures.LINESTYLES[a] for a in ("ts", "kl_ucb")]}))
""")


def test_registered_example_is_an_addition_in_tables_never_in_claims(tmp_path):
    src = _registered_copy(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", CHECK, str(ROOT), str(EXAMPLE / "overlay.yaml")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "PATH": ""},
        check=True,
    )
    out = json.loads(result.stdout)
    assert out["addition"] and out["z2"] is None
    assert out["display"] == "ε-greedy (addition, not in the paper)"
    assert out["algorithms"] == ["ts", "kl_ucb", "eps_greedy"]
    assert "eps_greedy" in out["solvers"] and out["own"] == ["ts", "kl_ucb"]
    assert out["claims"] and not [c for c in out["claims"] if "eps_greedy" in c or "ε-greedy" in c]
    table = [tuple(r) for r in out["table"]]
    assert ("eps_greedy", "POMIS") in table and ("eps_greedy", "POMIS+") not in table  # no z²: no POMIS+ row
    assert "| ε-greedy (addition, not in the paper) POMIS |" in out["markdown"]
    assert "ε-greedy (addition, not in the paper) reduction" not in out["markdown"]
    # Its POMIS+ row says why it is empty rather than missing (the paper's solvers all have a z² version).
    assert "| ε-greedy (addition, not in the paper) POMIS+ | not run: no z² version |" in out["markdown"]
    # Figure 5's legend marks it too, and it gets a line style of its own (the paper's keep theirs).
    assert out["legend"] == out["display"] and out["styles"] == ["-", "--"] and out["style"] not in ("-", "--")
