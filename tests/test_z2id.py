"""ID and z²ID (AAAI-19 Alg. 1), the POMIS+ expression catalogue (Alg. 3 line 4), exact SCM joints."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_diagram import admgs

from causal_bandits.causal.evaluation import ArmLayout, Program
from causal_bandits.causal.expression import div, from_json, leaf, prod, show, sum_over
from causal_bandits.causal.identification import Experiment, NotIdentifiable, identify
from causal_bandits.causal.pomis import pomis
from causal_bandits.causal.z2id import Entry, _signature, catalogue, signature_tables, validate, z2id
from causal_bandits.papers.nonmanip.graphs import GRAPHS, REWARD
from causal_bandits.scm.confounded_cpt import ConfoundedCPT
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

Y = REWARD
PANELS = {"fig5a": ("frontdoor", ("Z",)), "fig5b": ("fig2a", ("A",)), "fig5c": ("fig5d", ("A", "C"))}
# The paper's panel SCMs (docs/papers/nonmanip.md#nonmanip-r-scm-parameters), to check the catalogue on the SCMs the
# bandits will meet.
XOR_SCMS = {
    "frontdoor": ({"U_X": 0.16, "U_Y": 0.32, "U_Z": 0.21, "U_XY": 0.48}, {"X": 1, "Y": 0, "Z": 0}),
    "fig2a": (
        {"U_A": 0.16, "U_B": 0.18, "U_C": 0.17, "U_Y": 0.24, "U_AB": 0.21, "U_BY": 0.45},
        {"A": 0, "B": 1, "C": 0, "Y": 0},
    ),
    "fig5d": (
        {"U_A": 0.08, "U_B": 0.13, "U_C": 0.05, "U_D": 0.08, "U_E": 0.41, "U_Y": 0.13, "U_AB": 0.44, "U_AD": 0.31},
        {"A": 1, "B": 1, "C": 0, "D": 1, "E": 1, "Y": 0},
    ),
}


def panel_catalogue(panel):
    graph, N = PANELS[panel]
    G = GRAPHS[graph]
    sets = pomis(G, Y, N)
    return G, sets, catalogue(G, Y, sets)


def same_functional(a, b, layout) -> bool:
    """Equal value on the catalogue's random, mutually inconsistent tables
    (docs/papers/nonmanip.md#nonmanip-catalogue)."""
    tables = signature_tables(layout)
    (va, fa), (vb, fb) = _signature(a, layout, tables), _signature(b, layout, tables)
    return va == vb and np.allclose(fa, fb, rtol=0, atol=1e-10)


# ----------------------------------------------------------------------------- exact ground truth
@pytest.mark.parametrize("graph", sorted(XOR_SCMS))
def test_confounded_cpt_matches_pgmpy_on_xor_scms(graph):
    G = GRAPHS[graph]
    q, c = XOR_SCMS[graph]
    scm = XorBernoulliSCM(G, q, c)
    exact = ConfoundedCPT.from_xor_bernoulli(scm)
    for do in ({}, {G.nodes[0]: 1}, {G.nodes[0]: 0, G.nodes[1]: 1}):
        if Y in do:
            continue
        assert exact.interventional_mean(Y, do) == pytest.approx(scm.interventional_mean(Y, do), abs=1e-12)
        joint = exact.joint(do)
        assert joint.sum() == pytest.approx(1.0, abs=1e-12) and (joint >= 0).all()


def test_confounded_cpt_joint_respects_the_intervention():
    G = GRAPHS["fig2a"]
    joint = ConfoundedCPT.random(G, np.random.default_rng(3)).joint({"B": 1})
    assert joint[:, 0].sum() == 0.0  # axis 1 is B (nodes sorted A, B, C, Y)


# ----------------------------------------------------------------------------- the paper's panels
@pytest.mark.parametrize("panel", sorted(PANELS))
def test_every_expression_equals_the_exact_mean_on_random_scms(panel):
    G, sets, entries = panel_catalogue(panel)
    layout = ArmLayout.of_sets(G.nodes, sets)
    q, c = XOR_SCMS[PANELS[panel][0]]
    models = [ConfoundedCPT.random(G, np.random.default_rng(seed)) for seed in range(5)]
    models.append(ConfoundedCPT.from_xor_bernoulli(XorBernoulliSCM(G, q, c)))
    for model in models:
        assert max(validate(entries, layout, model.joint)) < 1e-9


def test_frontdoor_has_exactly_the_frontdoor_formula():
    G, sets, entries = panel_catalogue("fig5a")
    assert sets == [(), ("X",)]
    (entry,) = entries
    assert entry.target == ("X",) and entry.sources == [()] and entry.free_indices == ()
    # P_x(y) = Σ_z P(z|x) Σ_{x'} P(y|x',z) P(x')
    frontdoor = sum_over(
        "Z",
        prod(
            div(leaf((), "XZ"), leaf((), "X")), sum_over("X", prod(div(leaf((), "XYZ"), leaf((), "XZ")), leaf((), "X")))
        ),
    )
    assert same_functional(entry.expr, frontdoor, ArmLayout.of_sets(G.nodes, sets))
    assert entry.formula() == "P_{x}(y) = Σ_{z} P(z|x) Σ_{x'} P(x') P(y|x',z)"


def test_fig2a_gives_exactly_the_papers_equations_1_to_4():
    G, sets, entries = panel_catalogue("fig5b")
    assert sets == [(), ("B",), ("C",)]
    layout = ArmLayout.of_sets(G.nodes, sets)
    cond = lambda src, a, b: div(leaf(src, a + b), leaf(src, b))  # noqa: E731  P_src(a | b)
    paper = {
        # (1) P(y) = Σ_{a,b,c} P_b(c|a) P_c(a,b,y)
        1: ((), [("B",), ("C",)], (), sum_over("ABC", prod(cond("B", "C", "A"), leaf("C", "ABY")))),
        # (2) P_b(y) = Σ_{a,c} P(c|a,b) Σ_{b'} P(y|a,b',c) P(a,b')
        2: (
            ("B",),
            [()],
            (),
            sum_over("AC", prod(cond((), "C", "AB"), sum_over("B", prod(cond((), "Y", "ABC"), leaf((), "AB"))))),
        ),
        # (3) P_c(y) = Σ_{a,b} P(y|a,b,c) P(a,b)
        3: (("C",), [()], (), sum_over("AB", prod(cond((), "Y", "ABC"), leaf((), "AB")))),
        # (4) P_c(y) = Σ_a P_{b'}(y|a,c) P_{b'}(a), b' a free index
        4: (("C",), [("B",)], ("B",), sum_over("A", prod(cond("B", "Y", "AC"), leaf("B", "A")))),
    }
    assert len(entries) == 4
    assert sum(e.n_instances for e in entries) == 5
    for target, srcs, free, expr in paper.values():
        match = [e for e in entries if e.target == target and same_functional(e.expr, expr, layout)]
        assert len(match) == 1, show(expr)
        assert match[0].sources == srcs and match[0].free_indices == free
    # "P_b(y) is not expressed with P_c(v)"
    with pytest.raises(NotIdentifiable):
        z2id(G, {Y}, {"B"}, [("C",)])


def test_fig5d_counts():
    """AAAI-19 §5: "POMIS+ makes use of 24 expressions" (docs/papers/nonmanip.md#nonmanip-r-fig5d-graph: 39
    instances)."""
    _, _, entries = panel_catalogue("fig5c")
    assert len(entries) == 24
    assert sum(e.n_instances for e in entries) == 39


def test_catalogue_json_round_trip():
    _, _, entries = panel_catalogue("fig5c")
    for e in entries:
        doc = json.loads(json.dumps(e.to_json()))
        assert from_json(doc["tree"]) == e.expr
        assert doc["expr"].startswith("P") and doc["n_instances"] == 2 ** len(doc["free_indices"])


# ----------------------------------------------------------------------------- ID itself
def test_id_backdoor_and_bow():
    G = CausalDiagram(["Z", "X", "Y"], [("Z", "X"), ("Z", "Y"), ("X", "Y")])
    e = identify(frozenset("Y"), frozenset("X"), Experiment((), frozenset(G.nodes)), G, G.topological_order())
    backdoor = sum_over("Z", prod(leaf((), "Z"), div(leaf((), "XYZ"), leaf((), "XZ"))))
    assert same_functional(e, backdoor, ArmLayout.of_sets(G.nodes, [(), ("X",)]))
    bow = CausalDiagram(["X", "Y"], [("X", "Y")], [("X", "Y")])
    with pytest.raises(NotIdentifiable):
        identify(frozenset("Y"), frozenset("X"), Experiment((), frozenset("XY")), bow, ("X", "Y"))


# ----------------------------------------------------------------------------- random diagrams
@st.composite
def queries(draw: st.DrawFn):
    G = draw(admgs(max_nodes=5))
    reward = draw(st.sampled_from(G.nodes))
    others = [v for v in G.nodes if v != reward]
    subsets = st.sets(st.sampled_from(others), max_size=2) if others else st.just(set())
    x = draw(subsets)
    family = draw(st.lists(subsets, min_size=1, max_size=3, unique_by=lambda s: tuple(sorted(s))))
    family = [tuple(sorted(s)) for s in family if set(s) != x]
    return G, reward, tuple(sorted(x)), family


@settings(max_examples=150, deadline=None)
@given(queries())
def test_an_expression_is_produced_only_where_brute_force_agrees(query):
    """Soundness (AAAI-19 Theorem 5): whenever z²ID answers, its expression equals P_x(y), for every
    x, y and free index, on random SCMs of the diagram, with each experiment's exact distribution."""
    G, reward, x, family = query
    if not family:
        return
    try:
        e = z2id(G, {reward}, x, family)
    except NotIdentifiable:
        return

    entry = Entry(x, tuple(family), e, reward)
    layout = ArmLayout.of_sets(G.nodes, sorted({*family, x}, key=lambda s: (len(s), s)))
    for seed in range(2):
        model = ConfoundedCPT.random(G, np.random.default_rng(seed))
        assert validate([entry], layout, model.joint)[0] < 1e-9


def test_program_shares_subexpressions_and_batches():
    G, sets, entries = panel_catalogue("fig5b")
    layout = ArmLayout.of_sets(G.nodes, sets)
    program = Program([e.expr for e in entries], layout)
    rng = np.random.default_rng(0)
    counts = rng.integers(1, 9, size=(3, 2, len(layout.arms), 16)).astype(float)
    batched = program.evaluate(counts)
    for i in range(3):
        for j in range(2):
            single = program.evaluate(counts[i, j])
            for a, b in zip(batched, single):
                np.testing.assert_allclose(a[i, j], b, rtol=0, atol=1e-15)


def test_validation_catches_a_wrong_formula():
    """The check is not vacuous: P(y|x) is not P_x(y) in the confounded front-door graph."""
    G = GRAPHS["frontdoor"]
    wrong = Entry(("X",), ((),), div(leaf((), "XY"), leaf((), "X")), Y)
    layout = ArmLayout.of_sets(G.nodes, [(), ("X",)])
    model = ConfoundedCPT.random(G, np.random.default_rng(0))
    assert validate([wrong], layout, model.joint)[0] > 1e-3


@pytest.mark.parametrize("graph", ["fig2a", "fig5d"])
def test_confounded_cpt_samples_its_exact_joint(graph):
    G = GRAPHS[graph]
    model = ConfoundedCPT.from_dict(
        G, json.loads(json.dumps(ConfoundedCPT.random(G, np.random.default_rng(4)).to_dict()))
    )
    rng = np.random.default_rng(5)
    n = 200_000
    for do in ({}, {G.nodes[1]: 1}):
        intervened = np.array([[v in do for v in G.nodes]] * n)
        values = np.array([[bool(do.get(v, 0)) for v in G.nodes]] * n)
        state = model.sample_values(rng.random((n, len(model.exogenous))), intervened, values)
        cells = state.astype(np.int64) @ (1 << np.arange(len(G.nodes))[::-1])
        freq = np.bincount(cells, minlength=2 ** len(G.nodes)) / n
        exact = model.joint(do).reshape(-1)
        assert (np.abs(freq - exact) <= 5 * np.sqrt(exact * (1 - exact) / n) + 1e-12).all()
