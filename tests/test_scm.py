"""XOR-Bernoulli SCMs: exact means (pgmpy) against our numbers (docs/papers/nonmanip.md#nonmanip-scm-means) and
brute-force enumeration."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np
import pytest

from causal_bandits import config as cb_config
from causal_bandits.bandits.environments import InterventionArms
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import experiments, graphs
from causal_bandits.rng import generator
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

PANELS = cb_config.load(Path(__file__).resolve().parents[1] / "config" / "config.yaml")["nonmanip"]["panels"]


def scm(panel: str) -> XorBernoulliSCM:
    diagram, _ = graphs.panel_diagram(PANELS[panel])
    return XorBernoulliSCM(diagram, PANELS[panel]["scm"]["q"], PANELS[panel]["scm"]["c"])


def brute_force_mean(model: XorBernoulliSCM, target: str, do: dict[str, int]) -> float:
    """E[target | do] by summing over every exogenous assignment (independent of pgmpy)."""
    total = 0.0
    names = model.exogenous
    for bits in product((0, 1), repeat=len(names)):
        weight = np.prod([model.q[u] if b else 1 - model.q[u] for u, b in zip(names, bits)])
        u = dict(zip(names, bits))
        v: dict[str, int] = {}
        for node in model.diagram.topological_order():
            parents, exo = model._inputs(node)
            v[node] = (
                do[node] if node in do else (model.c[node] + sum(v[p] for p in parents) + sum(u[e] for e in exo)) % 2
            )
        total += weight * v[target]
    return total


# docs/papers/nonmanip.md#nonmanip-scm-means (exact, given the §3 parameters).
SPEC_MEANS = {
    "fig5a": {(): 0.570992, (("X", 0),): 0.495824, (("X", 1),): 0.504176},
    "fig5b": {(): 0.563698, (("B", 0),): 0.482840, (("B", 1),): 0.517160, (("C", 0),): 0.489746, (("C", 1),): 0.510254},
    "fig5c": {
        (("E", 0),): 0.673874,
        (): 0.505639,
        (("B", 0),): 0.505639,
        (("D", 0),): 0.514158,
        (("D", 1),): 0.485842,
        (("E", 1),): 0.326126,
        (("B", 0), ("E", 1)): 0.528196,
    },
}


@pytest.mark.parametrize("panel", list(SPEC_MEANS))
def test_exact_means_match_the_spec(panel):
    model = scm(panel)
    for do, mean in SPEC_MEANS[panel].items():
        assert model.interventional_mean("Y", dict(do)) == pytest.approx(mean, abs=1e-6)


@pytest.mark.parametrize("panel", list(SPEC_MEANS))
def test_pgmpy_equals_brute_force_enumeration(panel):
    model = scm(panel)
    instance = experiments.instance_document(panel, PANELS[panel])
    for arm in instance["arms"]:
        assert arm["mu"] == pytest.approx(brute_force_mean(model, "Y", arm["values"]), abs=1e-12)


def test_fig5b_every_joint_arm_equals_the_c_arm():
    """docs/papers/nonmanip.md#nonmanip-scm-means: do(B=b, C=c) has the same mean as do(C=c) ({B, C} is not a MIS)."""
    model = scm("fig5b")
    for b, c in product((0, 1), repeat=2):
        assert model.interventional_mean("Y", {"B": b, "C": c}) == pytest.approx(
            model.interventional_mean("Y", {"C": c}), abs=1e-12
        )


def test_sampling_frequencies_match_exact_means():
    model = scm("fig5c")
    instance = experiments.instance_document("fig5c", PANELS["fig5c"])
    env = InterventionArms.exact(model, "Y", [a["values"] for a in instance["arms"]])
    n = 200_000
    noise = generator("test", "scm", 0, "noise").random((n, env.noise_width))
    for arm in (0, 5, 17, 26):
        freq = env.pull(1, None, np.full(n, arm), noise)[0].mean()
        assert abs(freq - env.means[arm]) < 4 * np.sqrt(0.25 / n)


def test_bad_parameters_are_one_line_config_errors():
    diagram, _ = graphs.panel_diagram(PANELS["fig5a"])
    good_q, good_c = PANELS["fig5a"]["scm"]["q"], PANELS["fig5a"]["scm"]["c"]
    with pytest.raises(ConfigError, match="missing"):
        XorBernoulliSCM(diagram, {k: v for k, v in good_q.items() if k != "U_XY"}, good_c)
    with pytest.raises(ConfigError, match="not a probability"):
        XorBernoulliSCM(diagram, {**good_q, "U_X": 1.2}, good_c)
    with pytest.raises(ConfigError, match="must be 0 or 1"):
        XorBernoulliSCM(diagram, good_q, {**good_c, "X": 2})
