"""The public API refuses impossible models where they are built: one line of the package's own error
(:class:`~causal_bandits.errors.ArgumentError`, also a ValueError / TypeError) naming the argument and the fix,
never a model that answers with wrong numbers (causal_bandits.checks)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import causal_bandits as cb
from causal_bandits.errors import ArgumentError, ArgumentTypeError, ConfigError

G = cb.CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])
SCM = {"q": {"U_X": 0.2, "U_Y": 0.3, "U_Z": 0.2, "U_XY": 0.1}, "c": {"X": 0, "Y": 0, "Z": 0}}
TABLES = {"X": [0.3, 0.6], "Z": [0.2, 0.7], "Y": [0.1, 0.5, 0.4, 0.9]}


def _model() -> cb.ConfoundedCPT:
    return cb.ConfoundedCPT(G, (0.5,), TABLES)


def _arms():
    return cb.arms_for(G, SCM, "POMISplus", reward="Y")


# (what is built, the error class, a piece of its one line)
CASES = {
    "probability of 2": (
        lambda: cb.ConfoundedCPT(G, (2.0,), TABLES),
        ArgumentError,
        "ConfoundedCPT.p_u holds 2.0, not a probability; use values in [0, 1]",
    ),
    "table of the wrong length": (
        lambda: cb.ConfoundedCPT(G, (0.5,), {**TABLES, "X": [0.1, 0.2, 0.3]}),
        ArgumentError,
        "ConfoundedCPT.p1.X has 3 entries, but X has parents [] and 1 confounder(s): give 2^1 = 2",
    ),
    "table entry NaN": (
        lambda: cb.ConfoundedCPT(G, (0.5,), {**TABLES, "Z": [0.1, float("nan")]}),
        ArgumentError,
        "ConfoundedCPT.p1.Z holds nan, not a probability",
    ),
    "table missing a node": (
        lambda: cb.ConfoundedCPT(G, (0.5,), {"X": [0.3, 0.6]}),
        ArgumentError,
        "missing ['Y', 'Z']",
    ),
    "diagram not a diagram": (
        lambda: cb.ConfoundedCPT(["X", "Y"], (0.5,), TABLES),
        ArgumentTypeError,
        "ConfoundedCPT diagram is a list",
    ),
    "Bernoulli mean 1.5": (
        lambda: cb.BernoulliArms([1.5, 0.2]),
        ArgumentError,
        "BernoulliArms(means) holds 1.5, not a probability",
    ),
    "no Bernoulli arms": (lambda: cb.BernoulliArms([]), ArgumentError, "BernoulliArms(means) is empty"),
    "context probabilities summing to 1.1": (
        lambda: cb.ContextualBernoulli(np.array([0.6, 0.5]), np.array([[0.1, 0.2], [0.3, 0.4]])),
        ArgumentError,
        "ContextualBernoulli(context_probs) sums to 1.1, not 1; give probabilities that add up to 1",
    ),
    "context means of the wrong shape": (
        lambda: cb.ContextualBernoulli(np.array([0.5, 0.5]), np.array([0.1, 0.2])),
        ArgumentError,
        "ContextualBernoulli(means) has shape (2,)",
    ),
    "SCM given as a list": (
        lambda: cb.arms_for(G, [0.2, 0.3], "POMIS", reward="Y"),
        ArgumentTypeError,
        "arms_for(scm) is a list, neither an SCM nor its config entry",
    ),
    "experiment name None (streams)": (
        lambda: cb.Streams.for_experiment(None, 3),
        ArgumentTypeError,
        "Streams(experiment) (the experiment's name) = None is not a name",
    ),
    "experiment name None (arms)": (
        lambda: cb.arms_for(G, SCM, "POMIS", reward="Y", name=None),
        ArgumentTypeError,
        "arms_for(name) = None is not a name",
    ),
    "misspelt POMIS+ setting": (
        lambda: _arms().policy("ts", botstrap=100),
        ArgumentError,
        "policy(...) has no setting 'botstrap'; did you mean 'bootstrap'?",
    ),
    "POMIS+ setting out of range": (
        lambda: _arms().policy("ts", bootstrap=1),
        ArgumentError,
        "policy(...): bootstrap = 1 is invalid",
    ),
    "no arms": (
        lambda: cb.InterventionArms.exact(_model(), "Y", []),
        ArgumentError,
        "InterventionArms(arms) is empty; give at least one arm",
    ),
    "no explicit arms": (
        lambda: cb.arms_for(G, SCM, [], reward="Y"),
        ArgumentError,
        "arms_for(strategy) is an empty list of arms",
    ),
    "unknown target": (
        lambda: cb.InterventionArms.exact(_model(), "W", [{}]),
        ArgumentError,
        "InterventionArms(target) = 'W' is not a node of the diagram; use one of ['X', 'Y', 'Z']",
    ),
    "unknown reward": (
        lambda: cb.arms_for(G, SCM, "POMIS", reward="W"),
        ArgumentError,
        "arms_for(reward) = 'W' is not a node of the diagram",
    ),
    "arm setting a node to 2": (
        lambda: cb.InterventionArms.exact(_model(), "Y", [{"X": 2}]),
        ArgumentError,
        "InterventionArms(arms)[0]['X'] = 2; set a node to 0 or 1",
    ),
    "recorders not in a list": (
        lambda: cb.simulate(
            cb.ThompsonSampling(),
            cb.BernoulliArms([0.2, 0.5]),
            cb.Streams.for_experiment("x", 2),
            10,
            cb.RegretTrace(cb.linear_grid(10, 5)),
        ),
        ArgumentTypeError,
        "simulate(recorders) = <causal_bandits.bandits.recorders.RegretTrace",
    ),
    "linear grid of 0 points": (
        lambda: cb.linear_grid(100, 0),
        ArgumentError,
        "linear_grid(points) = 0 is too small; give an integer >= 1",
    ),
    "linear grid of 2.5 points": (lambda: cb.linear_grid(100, 2.5), ArgumentTypeError, "linear_grid(points) = 2.5"),
    "mis limit 0": (
        lambda: cb.mis(G, "Y", limit=0),
        ArgumentError,
        "mis(limit) = 0 is too small; give an integer >= 1",
    ),
    "pomis limit 0": (lambda: cb.pomis(G, "Y", limit=0), ArgumentError, "pomis(limit) = 0 is too small"),
    "pomis on a list": (lambda: cb.pomis(["X", "Y"], "Y"), ArgumentTypeError, "the diagram G is a list"),
}


@pytest.mark.parametrize("case", CASES)
def test_impossible_models_are_refused_in_one_line(case):
    build, kind, expected = CASES[case]
    with pytest.raises(kind) as info:
        build()
    message = str(info.value)
    assert expected in message and "\n" not in message
    assert isinstance(info.value, ConfigError)  # the package's own error, as the command line catches it
    assert isinstance(info.value, TypeError if kind is ArgumentTypeError else ValueError)


def test_valid_models_still_build_and_answer():
    model = _model()
    env = cb.InterventionArms.exact(model, "Y", [{}, {"X": 1}])
    assert env.means.shape == (2,) and ((env.means >= 0) & (env.means <= 1)).all()
    assert cb.linear_grid(100, 2).tolist() == [1, 100]
    assert cb.ContextualBernoulli(np.array([0.3, 0.7]), np.array([[0.1], [0.9]])).n_arms == 1


PROBABILITY = st.floats(allow_nan=False, allow_infinity=False, min_value=0.0, max_value=1.0)
OUTSIDE = st.one_of(
    st.floats(min_value=1.0, exclude_min=True, allow_nan=False),
    st.floats(max_value=0.0, exclude_max=True, allow_nan=False),
    st.just(float("nan")),
)


@given(st.lists(PROBABILITY, min_size=1, max_size=6), OUTSIDE, st.integers(0, 6))
def test_bernoulli_arms_take_exactly_probabilities(means, bad, at):
    assert cb.BernoulliArms(means).n_arms == len(means)
    with pytest.raises(ArgumentError, match="not a probability"):
        cb.BernoulliArms([*means[:at], bad, *means[at:]])


@given(st.lists(st.floats(0.01, 1.0), min_size=2, max_size=5), st.floats(0.01, 0.5))
def test_context_distribution_must_sum_to_one(weights, excess):
    probs = np.array(weights) / sum(weights)
    means = np.full((len(probs), 2), 0.5)
    assert cb.ContextualBernoulli(probs, means).n_arms == 2
    with pytest.raises(ArgumentError, match="sums to"):
        cb.ContextualBernoulli(np.minimum(probs * (1 + excess), 1.0), means)


@given(st.integers(0, 3), st.integers(1, 3))
def test_confounded_tables_must_fit_the_diagram(node, extra):
    name = G.nodes[node % 3]
    tables = {**TABLES, name: [0.5] * (len(TABLES[name]) + extra)}
    with pytest.raises(ArgumentError, match=rf"p1\.{name} has {len(TABLES[name]) + extra} entries"):
        cb.ConfoundedCPT(G, (0.5,), tables)
