"""The documented Python API: lazy top-level names, arms_for, Run.to_frame, Streams.for_experiment, the
docstring examples, and the worked example examples/library_from_python.py against the run store."""

from __future__ import annotations

import doctest
import importlib
import inspect
import os
import re
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml
from run_helpers import run_nonmanip
from workflow_helpers import ROOT

import causal_bandits as cb
from causal_bandits import api
from causal_bandits.bandits.engine import Streams
from causal_bandits.errors import ConfigError
from causal_bandits.experiments.instance import instance_document

#: Modules whose docstring examples are part of the documentation (run here as tests).
DOCUMENTED = (
    "causal_bandits.api",
    "causal_bandits.arms",
    "causal_bandits.bandits.engine",
    "causal_bandits.scm.confounded_cpt",
)
EXAMPLE = ROOT / "examples" / "library_from_python.py"


def _python(code: str) -> str:
    """stdout of ``code`` run by a fresh interpreter on this checkout's library."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    ).stdout


@pytest.mark.parametrize("module", DOCUMENTED)
def test_docstring_examples_run(module):
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0


def test_import_is_cheap_and_every_name_resolves():
    """``import causal_bandits`` loads no numpy, pandas or pyarrow (job start-up); each name loads on use."""
    code = "import sys, causal_bandits; print([m for m in ('numpy', 'pandas', 'pyarrow') if m in sys.modules])"
    out = _python(code)
    assert out.strip() == "[]"
    assert all(getattr(cb, name) is not None for name in cb.__all__) and "arms_for" in dir(cb)
    namespace = {}
    exec("from causal_bandits import *", namespace)
    assert "simulate" in namespace and "api" not in cb.__all__
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        cb.nope  # noqa: B018


def test_streams_for_experiment_are_apart_from_every_paper():
    own = Streams.for_experiment("fig5a", [0]).uniforms("environment").uniform(4)
    paper = Streams("nonmanip", "fig5a", np.array([0])).uniforms("environment").uniform(4)
    assert not np.array_equal(own, paper)
    assert np.array_equal(own, Streams("experiments", "fig5a", np.array([0])).uniforms("environment").uniform(4))


def test_arms_for_strategies_models_and_bad_input():
    G = cb.CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
    scm = cb.XorBernoulliSCM(G, {"U_X": 0.2, "U_Y": 0.3, "U_Z": 0.2, "U_XY": 0.1}, {"X": 0, "Y": 0, "Z": 0})
    bf = cb.arms_for(G, scm, "BF", reward="Y")
    assert len(bf.values) == 9 and bf.means.max() == pytest.approx(0.66)
    mis = cb.arms_for({**G.to_dict(), "reward": "Y"}, scm, "MIS")
    assert mis.values == ({}, {"X": 0}, {"X": 1}, {"Z": 0}, {"Z": 1})
    cpt = cb.ConfoundedCPT.from_xor_bernoulli(scm)  # the same SCM as tables: the same exact means
    assert np.allclose(cb.arms_for(G, cpt, "BF", reward="Y").means, bf.means, atol=1e-12)
    seeded = {"family": "random_cpt", "seed": 1}  # a random SCM from the stream keyed by the study's name
    random = cb.arms_for(G, seeded, "POMIS", reward="Y", name="r")
    assert np.array_equal(random.means, cb.arms_for(G, seeded, "POMIS", reward="Y", name="r").means)
    assert not np.array_equal(random.means, cb.arms_for(G, seeded, "POMIS", reward="Y", name="other").means)
    plus = cb.arms_for(G, scm, "POMISplus", reward="Y")
    assert plus.values == cb.arms_for(G, scm, "POMIS", reward="Y").values and plus.environment().observe
    assert type(plus.policy("ts", bootstrap=10)).__name__ == "Z2ThompsonSampling"
    with pytest.raises(ValueError, match="unknown strategy 'ALL'"):
        cb.arms_for(G, scm, "ALL", reward="Y")
    with pytest.raises(ValueError, match="reward="):
        cb.arms_for(G, scm, "BF")
    with pytest.raises(ConfigError, match=r"strategy\[0\] = \{'Y': 1\} is not an intervention"):
        cb.arms_for(G, scm, [{"Y": 1}], reward="Y")


def test_example_equals_the_run_store():
    """examples/library_from_python.py, at 3 seeds and T = 200, gives to every digit what the workflow's run
    job (nonmanip's runner, as the experiments: section runs it: causal_bandits.runs.execute) stores for the same study,
    examples/own_experiment.yaml's ``my_study`` played with POMIS and TS."""
    seeds, horizon, points = 3, 200, 20
    frame = runpy.run_path(str(EXAMPLE))["main"](seeds, horizon, points)
    study = yaml.safe_load((ROOT / "examples" / "own_experiment.yaml").read_text())["experiments"]["my_study"]
    instance = instance_document("my_study", study)
    with tempfile.TemporaryDirectory() as tmp:
        trace = run_nonmanip(
            Path(tmp),
            "chunk-0",
            instance,
            strategy="POMIS",
            algorithm="ts",
            seeds=range(seeds),
            horizon=horizon,
            record_points=points,
            paper="experiments",
        )
        stored = pq.read_table(trace).to_pandas()
    assert len(frame) == seeds * len(cb.linear_grid(horizon, points)) and frame["cum_regret"].iloc[-1] > 0
    for column in ("seed", "round", "cum_regret", "cum_realized_regret", "optimal"):
        assert np.array_equal(frame[column].to_numpy(), stored[column].to_numpy()), column
    ids = np.asarray(instance["arm_lists"]["POMIS"])  # the store names arms by their id in the BF list
    assert np.array_equal(ids[frame["arm"].to_numpy()], stored["arm"].to_numpy())


def test_example_is_short():
    """The worked example stays a few lines: code lines, without the docstring, blanks and comments."""
    code = EXAMPLE.read_text().split('"""')[2].splitlines()
    lines = [ln for ln in code if ln.strip() and not ln.strip().startswith("#")]
    assert len(lines) <= 12, len(lines)


@pytest.mark.parametrize("name", api.NAMES)
def test_every_public_name_documents_its_parameters(name):
    """Each public function and class lists every parameter of its signature in a numpydoc ``Parameters``
    section (a class in its own docstring)."""
    obj = getattr(cb, name)
    target = obj.__init__ if inspect.isclass(obj) else obj
    doc = inspect.getdoc(obj) or ""
    params = [
        p.name
        for p in inspect.signature(target).parameters.values()
        if p.name != "self" and not p.name.startswith("_") and p.kind is not p.VAR_POSITIONAL
    ]
    params = [
        f"**{p}" if inspect.signature(target).parameters[p].kind is inspect.Parameter.VAR_KEYWORD else p for p in params
    ]
    if params == ["**kwargs"]:  # object's own __init__: no parameters
        return
    assert "Parameters\n----------" in doc, name
    for p in params:
        assert re.search(rf"^{re.escape(p)}( :|$)", doc, re.MULTILINE), f"{name}: {p}"
