"""CausalDiagram: validation, family relations, do / subgraph, c-components, latent projection."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causal_bandits.errors import DiagramError
from causal_bandits.papers.nonmanip.graphs import GRAPHS
from causal_bandits.scm.diagram import CausalDiagram, canonical_sets

FIG2A = GRAPHS["fig2a"]


@st.composite
def admgs(draw: st.DrawFn, max_nodes: int = 7) -> CausalDiagram:
    """A random ADMG: directed edges follow a random order (so it is acyclic); at most as many
    bidirected edges as nodes (denser confounding hides most structure in one c-component)."""
    order = draw(st.permutations("ABCDEFG"[: draw(st.integers(1, max_nodes))]))
    pairs = list(combinations(order, 2))
    directed = draw(st.sets(st.sampled_from(pairs))) if pairs else set()
    bidirected = draw(st.sets(st.sampled_from(pairs), max_size=len(order))) if pairs else set()
    return CausalDiagram(order, directed, bidirected)


def edges(G: CausalDiagram) -> tuple[set, set]:
    return set(G.directed), {tuple(sorted(e)) for e in G.bidirected}


# ------------------------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    ("nodes", "directed", "bidirected", "named"),
    [
        (["X", "Y", "X"], [], [], "'X' is listed twice"),
        (["X", "Y"], [("X", "Q")], [], "'Q'"),
        (["X", "Y"], [], [("Q", "Y")], "'Q'"),
        (["X", "Y"], [("X", "X")], [], "self-loop on 'X'"),
        (["X", "Y"], [], [("Y", "Y")], "self-loop on 'Y'"),
        (["X", "Y", "Z"], [("X", "Y"), ("Y", "Z"), ("Z", "X")], [], "directed cycle"),
        (["X", "Y"], [("X", "Y", "Z")], [], "not a pair"),
        (["X", 3], [], [], "3"),
        ("XY", [], [], "'XY'"),
    ],
)
def test_invalid_diagrams_raise_one_line(nodes, directed, bidirected, named):
    with pytest.raises(DiagramError, match=named) as err:
        CausalDiagram(nodes, directed, bidirected)
    assert "\n" not in str(err.value)


def test_cycle_message_names_the_cycle():
    with pytest.raises(DiagramError) as err:
        CausalDiagram(["A", "B", "C", "D"], [("A", "B"), ("B", "C"), ("C", "B"), ("C", "D")])
    assert "B -> C -> B" in str(err.value) or "C -> B -> C" in str(err.value)


def test_repeated_edges_collapse_and_attributes_are_canonical():
    G = CausalDiagram(["Y", "B", "A"], [("A", "Y"), ("A", "Y")], [("A", "B"), ("B", "A")])
    assert G.nodes == ("A", "B", "Y")
    assert G.directed == frozenset({("A", "Y")})
    assert G.bidirected == frozenset({frozenset({"A", "B"})})


def test_diagram_is_immutable_and_hashable():
    with pytest.raises(AttributeError):
        FIG2A.nodes = ("A",)
    assert GRAPHS["fig2a"] == FIG2A and hash(FIG2A) == hash(CausalDiagram.from_dict(FIG2A.to_dict()))
    assert FIG2A.do("A") != FIG2A


def test_unknown_query_node():
    with pytest.raises(DiagramError, match="unknown node 'Q'"):
        FIG2A.ancestors(["A", "Q"])


# -------------------------------------------------------------------------------------- family
def test_family_relations():
    assert FIG2A.parents("C") == {"A", "B"}
    assert FIG2A.parents(["C", "Y"]) == {"A", "B", "C"}
    assert FIG2A.children("A") == {"C", "Y"}
    assert FIG2A.ancestors("C") == {"A", "B", "C"}
    assert FIG2A.descendants(["B"]) == {"B", "C", "Y"}
    assert FIG2A.ancestors(()) == frozenset()


def test_do_subgraph_without():
    G = FIG2A.do("B")
    assert edges(G) == ({("A", "C"), ("A", "Y"), ("B", "C"), ("C", "Y")}, set())
    assert edges(FIG2A.do(["A", "C"])) == ({("A", "Y"), ("C", "Y")}, {("B", "Y")})
    H = FIG2A.subgraph(["A", "B", "C"])
    assert H.nodes == ("A", "B", "C") and edges(H) == ({("A", "C"), ("B", "C")}, {("A", "B")})
    assert FIG2A.without("C") == FIG2A.subgraph(["A", "B", "Y"])


def test_c_components_and_topological_order():
    assert FIG2A.c_component("Y") == {"A", "B", "Y"}
    assert FIG2A.c_components() == [frozenset("C"), frozenset("ABY")]
    assert FIG2A.do("B").c_components() == [frozenset(v) for v in "ABCY"]
    # Kahn's algorithm with alphabetical ties, whatever the insertion order.
    assert CausalDiagram(["Z", "B", "A", "C"], [("C", "A")]).topological_order() == ("B", "C", "A", "Z")
    assert FIG2A.topological_order() == ("A", "B", "C", "Y")


def test_dict_round_trip():
    d = GRAPHS["fig5d"].to_dict()
    assert d["bidirected"] == [["A", "B"], ["A", "D"]]
    assert CausalDiagram.from_dict(d) == GRAPHS["fig5d"]
    assert CausalDiagram.from_dict({"nodes": ["Y"]}).nodes == ("Y",)


@pytest.mark.parametrize(
    ("d", "named"),
    [
        ({"nodes": ["Y"], "colour": 1}, "'colour'"),
        ({"directed": []}, '"nodes"'),
        ({"nodes": "XY"}, '"nodes"'),
        ([], "mapping"),
    ],
)
def test_from_dict_rejects_malformed(d, named):
    with pytest.raises(DiagramError, match=named):
        CausalDiagram.from_dict(d)


def test_canonical_sets():
    assert canonical_sets([("C",), ("B", "A"), (), ("A", "B"), ("B",)]) == [(), ("B",), ("C",), ("A", "B")]


# ----------------------------------------------------------------------------- latent projection
@pytest.mark.parametrize(
    ("marginalised", "directed", "bidirected"),
    [  # docs/papers/nonmanip.md#nonmanip-numbers-structural, Fig. 4 (a)-(c)
        ("A", {("B", "C"), ("C", "Y")}, {("B", "Y"), ("B", "C"), ("C", "Y")}),
        ("B", {("A", "C"), ("A", "Y"), ("C", "Y")}, {("A", "C"), ("C", "Y")}),
        ("C", {("A", "Y"), ("B", "Y")}, {("A", "B"), ("B", "Y")}),
    ],
)
def test_fig4_projections(marginalised, directed, bidirected):
    H = FIG2A.latent_projection(set(FIG2A.nodes) - {marginalised})
    assert edges(H) == (directed, bidirected)


def test_fig3_projects_to_frontdoor():
    assert GRAPHS["fig3"].latent_projection(["X", "Z", "Y"]) == GRAPHS["frontdoor"]


def test_marginalised_common_cause_becomes_bidirected():
    G = CausalDiagram(["A", "C", "Y"], [("A", "C"), ("A", "Y")])  # docs/papers/nonmanip.md#nonmanip-diagrams example
    assert edges(G.latent_projection(["C", "Y"])) == (set(), {("C", "Y")})


def test_projection_keeping_everything_is_identity():
    assert FIG2A.latent_projection(FIG2A.nodes) == FIG2A


def marginalise_one(G: CausalDiagram, w: str) -> CausalDiagram:
    """Reference: remove one node w (the step in the proof of AAAI-19 Prop. 2): pa(w) → ch(w),
    siblings of w ↔ ch(w), and ch(w) pairwise ↔."""
    children = sorted(G.children(w))
    siblings = {v for e in G.bidirected if w in e for v in e - {w}}
    directed = [e for e in G.directed if w not in e] + [(p, c) for p in G.parents(w) for c in children]
    bidirected = [tuple(e) for e in G.bidirected if w not in e] + list(combinations(children, 2))
    bidirected += [(s, c) for s in siblings for c in children if s != c]
    return CausalDiagram(set(G.nodes) - {w}, directed, bidirected)


@settings(max_examples=150, deadline=None)
@given(G=admgs(), data=st.data())
def test_projection_equals_one_node_marginalisation(G, data):
    """proj(G, V \\ N) equals marginalising the nodes of N one at a time, in any order, and keeps
    ancestral relations among the kept nodes."""
    hidden = data.draw(st.permutations([v for v in G.nodes if data.draw(st.booleans())]))
    keep = set(G.nodes) - set(hidden)
    projected = G.latent_projection(keep)
    stepwise = G
    for w in hidden:
        stepwise = marginalise_one(stepwise, w)
    assert projected == stepwise
    for v in keep:
        assert projected.ancestors(v) == G.ancestors(v) & keep


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.data())
def test_topological_order_is_networkx_lexicographical_order(n, data):
    import networkx as nx

    nodes = [f"V{i}" for i in range(n)]
    pairs = [(nodes[i], nodes[j]) for i in range(n) for j in range(i + 1, n)]
    edges = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    order = data.draw(st.permutations(nodes))  # edges point forward in a random order of the nodes
    rank = {v: k for k, v in enumerate(order)}
    edges = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in edges]
    g = nx.DiGraph(edges)
    g.add_nodes_from(nodes)
    assert CausalDiagram(nodes, edges).topological_order() == tuple(nx.lexicographical_topological_sort(g))
