"""Huang & Wu offline stage: the Figure 2 SCM, exact truth, BCE (RC*, FindRSI) on Figure 2 and on
other graphs, the CP / Biased baselines, Table 1 checks, and bad input."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from causal_bandits import config as cb_config
from causal_bandits.causal.baselines import adjusted, conditional_probability
from causal_bandits.causal.bounds import bce, plan, substitute_bounds
from causal_bandits.causal.joint import Joint
from causal_bandits.errors import ConfigError, DataError
from causal_bandits.papers.bounds import cells
from causal_bandits.papers.bounds import config as bounds_config
from causal_bandits.papers.bounds import offline as bounds_offline
from causal_bandits.papers.bounds import tables as bounds_tables
from causal_bandits.scm.cpt import CPTModel, Variable, configurations

ROOT = Path(__file__).resolve().parents[1]
SECTION = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["bounds"]
ADJUST = ("C1",)


@pytest.fixture(scope="module")
def fig2() -> CPTModel:
    return bounds_config.model(SECTION)


@pytest.fixture(scope="module")
def population(fig2):
    return bounds_offline.population_joints(fig2, ADJUST)


def _cells(m):
    """(context k, arm a, x1, x2, u1, u2) for every cell."""
    for k, (u1, u2) in enumerate(configurations(2)):
        for a, (x1, x2) in enumerate(configurations(2)):
            yield k, a, int(x1), int(x2), int(u1), int(u2)


# ------------------------------------------------------------------------------ SCM and truth
def test_table2_config_is_the_paper_table(fig2):
    y = fig2.variables["Y"]
    for k, bits in enumerate(configurations(4)):
        assert y.p1[k] == pytest.approx(bits.sum() / 6 + 0.1, abs=1e-15)
    i1 = fig2.variables["I1"]
    assert i1.p1 == pytest.approx([(x1 + c1) / 4 + 0.3 for x1, c1 in configurations(2)])
    assert fig2.diagram.bidirected == frozenset({frozenset({"I1", "Y"})})
    assert fig2.observed == ("U1", "U2", "X1", "I1", "X2", "Y")


def test_exact_truth_matches_the_closed_form(fig2):
    mu = fig2.conditional_effects()
    for k, a, x1, x2, u1, _ in _cells(fig2):
        assert mu[k, a] == pytest.approx(0.1 + (0.925 + 0.25 * x1 + u1 + x2) / 6, abs=1e-12)
    assert fig2.context_distribution() == pytest.approx([0.24, 0.36, 0.16, 0.24], abs=1e-12)
    assert fig2.probability({"S": 1}) == pytest.approx(381 / 800, abs=1e-12)
    assert (mu.argmax(axis=1) == 3).all()  # arm (1, 1) is optimal in every context


def test_sampling_matches_the_cpt(fig2):
    frame = bounds_offline.generate(fig2, 60_000, "test", 0)
    sel = bounds_offline.selected(fig2, frame)
    assert abs(len(sel) / len(frame) - 381 / 800) < 4 * np.sqrt(0.25 / 60_000)
    table = bounds_tables.table2(fig2, frame)
    assert table["z"].abs().max() < 4.5
    again = bounds_offline.generate(fig2, 60_000, "test", 0)
    pd.testing.assert_frame_equal(frame, again)  # keyed stream: same bytes


# ------------------------------------------------------------------------------ BCE, Figure 2
SPEC_BOUNDS = {  # docs/papers/bounds.md#bounds-bce: population bounds per (x1, x2, u1); u2 is irrelevant
    (0, 0, 0): ("19/115", "191/510"),
    (0, 0, 1): ("229/690", "46/85"),
    (0, 1, 0): ("229/690", "46/85"),
    (0, 1, 1): ("172/345", "361/510"),
    (1, 0, 0): ("59/390", "148/405"),
    (1, 0, 1): ("62/195", "431/810"),
    (1, 1, 0): ("62/195", "431/810"),
    (1, 1, 1): ("63/130", "283/405"),
}


def test_bce_equals_exact_bounds_by_enumeration(fig2, population):
    """On P(v | S=1), BCE = min/max over i1 of P(Y=1 | x, c, i1, S=1) from pgmpy (to 1e-12)."""
    sel, _ = population
    b = bce(fig2, sel, fig2.context_distribution())
    mu = fig2.conditional_effects()
    for k, a, x1, x2, u1, u2 in _cells(fig2):
        given = {"X1": x1, "X2": x2, "U1": u1, "U2": u2, "S": 1}
        p = [fig2.probability({"Y": 1}, evidence={**given, "I1": i}) for i in (0, 1)]
        assert b.lower[k, a] == pytest.approx(min(p), abs=1e-12)
        assert b.upper[k, a] == pytest.approx(max(p), abs=1e-12)
        low, high = SPEC_BOUNDS[(x1, x2, u1)]
        assert b.lower[k, a] == pytest.approx(float(Fraction(low)), abs=1e-12)
        assert b.upper[k, a] == pytest.approx(float(Fraction(high)), abs=1e-12)
        assert b.lower[k, a] <= mu[k, a] <= b.upper[k, a]
    # Upper bounds below the best arm's effect exclude arms (0, 0) and (1, 0) everywhere: N⁻ = 8.
    assert ((b.upper < mu.max(axis=1, keepdims=True)).sum(axis=0) == [4, 0, 4, 0]).all()


def test_rc_star_gives_the_trivial_bound_on_figure2(fig2, population):
    the_plan = plan(fig2)
    assert {"Y", "I1", "U1", "U2"} == the_plan.D
    assert set(the_plan.components) == {frozenset({"I1", "Y"}), frozenset({"U1"}), frozenset({"U2"})}
    assert the_plan.substitutes == (("I1",),)
    b = bce(fig2, population[0], fig2.context_distribution(), the_plan=the_plan)
    recovered = dict(zip(the_plan.components, b.recovered))
    assert recovered == {frozenset({"I1", "Y"}): False, frozenset({"U1"}): False, frozenset({"U2"}): True}
    assert (b.lq == 0).all()
    u1 = np.array([0, 0, 1, 1])
    assert b.uq == pytest.approx(np.repeat((2 / np.where(u1 == 1, 0.4, 0.6))[:, None], 4, 1), abs=1e-12)


def test_empty_branch_counts_as_unknown(fig2):
    frame = bounds_offline.selected(fig2, bounds_offline.generate(fig2, 30_000, "test", 1))
    thin = (frame.X1 == 1) & (frame.X2 == 1) & (frame.U1 == 0) & (frame.U2 == 0) & (frame.I1 == 0)
    sel = Joint.from_frame(frame[~thin], list(fig2.observed))
    b = bce(fig2, sel, fig2.context_distribution())
    assert b.lower[0, 3] == 0.0 and b.substitute.n_lower[0, 3] == 0
    assert b.lower[1, 3] > 0.0


# ------------------------------------------------------------------------------ BCE, other graphs
def _model(parents, rng, **roles) -> CPTModel:
    return CPTModel(
        [Variable(v, tuple(ps), tuple(rng.uniform(0.1, 0.9, 2 ** len(ps)))) for v, ps in parents.items()], **roles
    )


GRAPHS = {  # name: (parents, roles, effect identifiable from the selected data?)
    "backdoor": ({"Z": [], "X": ["Z"], "Y": ["X", "Z"], "W": [], "S": ["W"]}, {"latent": [], "context": []}, True),
    "front-door": (
        {"L": [], "X": ["L"], "M": ["X"], "Y": ["M", "L"], "W": [], "S": ["W"]},
        {"latent": ["L"], "context": []},
        True,
    ),
    "bow": ({"L": [], "X": ["L"], "Y": ["X", "L"], "W": [], "S": ["W"]}, {"latent": ["L"], "context": []}, False),
    "context, selection on the context": (
        {"C": [], "X": ["C"], "Y": ["X", "C"], "S": ["C"]},
        {"latent": [], "context": ["C"]},
        True,
    ),
    "context, selection on a mediator": (
        {"C": [], "X": ["C"], "M": ["X"], "Y": ["M", "C"], "S": ["M"]},
        {"latent": [], "context": ["C"]},
        False,
    ),
    "context, confounded mediator, selection on it": (
        {"L": [], "C": [], "X": ["C"], "M": ["X", "L"], "Y": ["M", "L", "C"], "S": ["M"]},
        {"latent": ["L"], "context": ["C"]},
        False,
    ),
    "two treatments, selection on the outcome's parent": (
        {"C": [], "X1": ["C"], "X2": [], "M": ["X1", "X2"], "Y": ["M", "C"], "S": ["M", "C"]},
        {"latent": [], "context": ["C"]},
        False,
    ),
}


@pytest.mark.parametrize("name", list(GRAPHS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bce_contains_the_truth_on_other_graphs(name, seed):
    parents, roles, identifiable = GRAPHS[name]
    treatment = ["X1", "X2"] if "X1" in parents else ["X"]
    m = _model(parents, np.random.default_rng(seed), selection="S", treatment=treatment, outcome="Y", **roles)
    sel = Joint.from_factor(m.joint(m.observed, evidence={"S": 1}))
    b = bce(m, sel, m.context_distribution() if m.context else np.ones(1))
    mu = m.conditional_effects() if m.context else m.interventional_means()[None]
    assert (b.lower <= mu + 1e-12).all() and (mu <= b.upper + 1e-12).all()
    if identifiable:
        assert b.lower == pytest.approx(mu, abs=1e-12)
        assert b.upper == pytest.approx(mu, abs=1e-12)
    else:
        assert (b.upper - b.lower > 1e-6).any()


def test_front_door_is_recovered_by_identify():
    parents, roles, _ = GRAPHS["front-door"]
    m = _model(parents, np.random.default_rng(5), selection="S", treatment=["X"], outcome="Y", **roles)
    sel = Joint.from_factor(m.joint(m.observed, evidence={"S": 1}))
    b = bce(m, sel, np.ones(1))
    assert b.recovered == (True, True) and plan(m).substitutes == ()
    assert b.lq == pytest.approx(m.interventional_means()[None], abs=1e-12)


# ------------------------------------------------------------------------------ baselines and Table 1
def test_baselines_on_the_population(fig2, population):
    sel, full = population
    kw = {"outcome": "Y", "treatment": fig2.treatment}
    cp = conditional_probability(sel, context=fig2.context, **kw)
    expected = np.array([0.344235, 0.510901, 0.353275, 0.519942])
    for k, (u1, _) in enumerate(configurations(2)):
        assert cp[k] == pytest.approx(expected + u1 / 6, abs=1e-6)
    biased = adjusted(sel, context=fig2.context, adjust=ADJUST, **kw)
    assert np.abs(biased - cp).max() < 0.005  # given the context, Biased ≈ CP
    # (docs/papers/bounds.md#bounds-a-biased-adjustment)
    assert (cp - fig2.conditional_effects()).min() > 0.05  # selection on I1 biases CP upwards
    marginal = {
        "truth": conditional_probability(full, context=(), **kw),
        "biased": adjusted(sel, context=(), adjust=ADJUST, **kw),
    }
    w = substitute_bounds(sel, context=(), substitutes=[("I1",)], **kw)
    assert marginal["truth"][0] == pytest.approx([0.2845, 0.4511, 0.4069, 0.5736], abs=1e-4)
    assert marginal["biased"][0] == pytest.approx([0.3711, 0.5378, 0.4671, 0.6338], abs=1e-4)
    assert w.upper[0] == pytest.approx([0.4048, 0.5715, 0.4765, 0.6432], abs=1e-4)
    assert w.lower[0] == pytest.approx([0.1955, 0.3622, 0.2624, 0.4291], abs=1e-4)


def test_table1_index_follows_the_spec(fig2):
    frame = cells.cell_frame(fig2)
    assert (frame["index"] == 1 + 8 * frame.x1 + 4 * frame.x2 + 2 * frame.u1 + frame.u2).all()
    assert sorted(frame["index"]) == list(range(1, 17))


def test_table1_checks_accept_the_paper_and_reject_a_shift():
    paper = pd.DataFrame({"index": range(1, 17), "n_sel": 900, **cells.TABLE1_REPORTED})
    table = bounds_tables.table1(paper)
    assert bounds_tables.table1_checks(table)["passed"].all()
    # 0.1 is over 3 standard errors of the difference of two estimates on 900 rows (at most 0.071)
    shifted = bounds_tables.table1(paper.assign(truth=paper.truth + 0.1))
    checks = bounds_tables.table1_checks(shifted).set_index("column")
    assert not checks.loc["truth", "passed"] and checks.loc["biased", "passed"]


def test_estimates_on_the_population_cover_every_cell(fig2):
    doc = bounds_offline.exact_document(fig2, adjust=ADJUST, n_rows=30_000)
    for variant in cells.VARIANTS:
        assert all(doc["tables"][variant]["covered"]), variant
    assert doc["plan"]["substitutes"] == [["I1"]]
    assert doc["n_excluded_by_upper_bound"] == 8


# ------------------------------------------------------------------------------ bad input
def _section(**changes):
    section = yaml.safe_load(yaml.safe_dump(SECTION))
    for path, value in changes.items():
        node = section
        *keys, last = path.split(".")
        for key in keys:
            node = node[key]
        node[last] = value
    return section


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"scm.variables.I1.p1": [0.3, 0.55, 1.2, 0.8]}, "CPT of I1, row (X1=1, C1=0): P(I1=1 | parents) = 1.2"),
        ({"scm.variables.X1.p1": [0.25, -0.1]}, "outside [0, 1]"),
        ({"scm.variables.X2.p1": [0.15]}, "X2 has 1 rows but 1 binary parents need 2"),
        (
            {"scm.variables.Y.p1": ["1/10", "x"] + ["1/2"] * 14},
            "Y.p1.1 = 'x' is invalid; use a number; or a string matching",
        ),
        (
            {"scm.variables.Y.p1": ["1/0"] + ["1/2"] * 15},
            "CPT of Y, row (C1=0, U1=0, X2=0, I1=0): '1/0' is not a number",
        ),
        (
            {"scm.variables.U2.parents": ["S"], "scm.variables.U2.p1": [0.5, 0.6]},
            "selection node S has children ['U2']",
        ),
        ({"scm.variables.S.parents": ["C1"]}, "latent parents"),
        ({"scm.context": ["U1", "Q"]}, "unknown variable 'Q'"),
        ({"scm.context": ["U1", "I1"]}, "context variable I1 descends from the treatment"),
        ({"offline.biased_adjust": ["Q"]}, "biased_adjust names 'Q'"),
    ],
)
def test_bad_config_is_one_clear_line(changes, named):
    config = {"bounds": _section(**changes)}
    with pytest.raises(ConfigError) as err:
        cb_config.validate(config)
        bounds_config.check_config(config["bounds"])
    assert named in str(err.value) and "\n" not in str(err.value)


def test_schema_rejects_unknown_keys():
    with pytest.raises(ConfigError, match="unknown config key 'alfa'"):
        cb_config.validate({"bounds": {**SECTION, "online": {"alfa": 2}}})


def test_context_value_outside_the_domain_is_a_data_error(fig2, tmp_path):
    frame = bounds_offline.selected(fig2, bounds_offline.generate(fig2, 1000, "test", 2))
    frame.loc[3, "U1"] = 2
    with pytest.raises(DataError, match=r"row 3: U1=2 is not in the domain \{0, 1\}") as err:
        bounds_offline.offline_joints(fig2, frame, ADJUST, selected_rows=frame)
    assert "\n" not in str(err.value)
    with pytest.raises(DataError, match="context U1=2 is not in the domain"):
        fig2.joint(["Y"], evidence=fig2.check_values({"U1": 2}, "context"))
