"""Every diagram consistent with what Lee & Bareinboim (AAAI-19) state about the graph of Fig. 5d.

The paper draws the graph of Fig. 5c/5d but does not list it; our reading reconstructs one
(docs/papers/nonmanip.md#nonmanip-r-fig5d-graph). The stated facts are: variables A, B, C, D, E and the reward Y,
binary; N = {A, C}; BF 27, MIS 19 and POMIS 15 arms. Our criteria add (docs/papers/nonmanip.md#nonmanip-r-fig5d-graph):
edges point forward in alphabetical order; A and C both change the projection (marginalising each of them adds an edge
that deleting it would not); at most ``max_directed`` directed and ``max_bidirected`` bidirected edges
(docs/papers/nonmanip.md#nonmanip-robustness: 9 and 3).
:func:`consistent_graphs` enumerates them all, exactly; the robustness experiment runs them.

The enumeration rests on two facts. (1) The arm counts depend only on the projection H of G onto
V \\ N (POMIS: AAAI-19 Theorem 4; MIS: X ⊆ an(Y) in G_{\\bar X} holds in G iff it holds in H, since
a directed path through N is an edge of H; BF: the subsets of V \\ N \\ {Y}). (2) H is the union of
G's edges among V \\ N (the kept part K) and the edges that G's edges touching N (the hidden part P)
add, which do not depend on K. So the fitting graphs are found by listing the projections H with
the stated counts once, then, for every hidden part P, the kept parts K with H \\ add(P) ⊆ K ⊆ H.
Every graph returned is checked again with the library's own projection and arm-set functions.
Written by hand: no library enumerates ADMGs under projection constraints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, cast

from causal_bandits.causal.pomis import brute_force_sets, minimal_intervention_sets, n_arms, pomis
from causal_bandits.scm.diagram import CausalDiagram

Edge = tuple[str, str]

#: What the paper states of Fig. 5d (§5): variables in alphabetical order, N and the arm counts.
FIG5D_FACTS: dict[str, Any] = {
    "nodes": ("A", "B", "C", "D", "E", "Y"),
    "reward": "Y",
    "N": ("A", "C"),
    "arms": (27, 19, 15),
}


@dataclass(frozen=True)
class Edges:
    """Directed and bidirected edges (each a sorted pair) of a diagram or of a part of one."""

    directed: frozenset[Edge]
    bidirected: frozenset[Edge]

    def __or__(self, other: Edges) -> Edges:
        return Edges(self.directed | other.directed, self.bidirected | other.bidirected)

    def diagram(self, nodes: Sequence[str]) -> CausalDiagram:
        return CausalDiagram(nodes, sorted(self.directed), sorted(self.bidirected))


def _pairs(nodes: Sequence[str]) -> list[Edge]:
    return list(combinations(nodes, 2))  # forward in the given (topological) order


def added_edges(part: Edges, kept: Sequence[str], hidden: Iterable[str]) -> Edges:
    """The edges among ``kept`` that marginalising ``hidden`` creates from ``part`` (latent projection,
    :meth:`CausalDiagram.latent_projection`): a → b for a directed path a → h … → b through hidden
    nodes, a ↔ b when a hidden node or the confounder of a bidirected edge reaches both."""
    hidden = set(hidden)
    children: dict[str, set[str]] = {}
    for a, b in part.directed:
        children.setdefault(a, set()).add(b)

    def reach(v: str) -> set[str]:
        found, todo, seen = set(), list(children.get(v, ())), set()
        while todo:
            u = todo.pop()
            if u in seen:
                continue
            seen.add(u)
            if u in hidden:
                todo.extend(children.get(u, ()))
            else:
                found.add(u)
        return found

    directed = {(a, b) for a in kept for b in reach(a)}
    sources = [reach(h) for h in hidden]
    sources += [set().union(*({v} if v not in hidden else reach(v) for v in e)) for e in part.bidirected]
    bidirected = {tuple(sorted(p)) for s in sources for p in combinations(s, 2)}
    order = {v: i for i, v in enumerate(kept)}
    bidirected = {p for p in bidirected if p[0] != p[1]}
    rank = cast(Callable[[str], int], order.get)
    return Edges(frozenset(directed), frozenset(cast(Edge, tuple(sorted(p, key=rank))) for p in bidirected))


def _counts(G: CausalDiagram, reward: str, N: Sequence[str]) -> tuple[int, int, int]:
    return (
        n_arms(brute_force_sets(G, reward, N)),
        n_arms(minimal_intervention_sets(G, reward, N)),
        n_arms(pomis(G, reward, N)),
    )


def consistent_graphs(facts: dict = FIG5D_FACTS, max_directed: int = 9, max_bidirected: int = 3) -> list[CausalDiagram]:
    """Every ADMG over ``facts["nodes"]`` (edges forward in that order) with the stated arm counts
    under N, in which every variable of N changes the projection, with at most ``max_directed`` /
    ``max_bidirected`` edges; sorted by (number of edges, edges)."""
    nodes, reward, N, arms = facts["nodes"], facts["reward"], tuple(facts["N"]), tuple(facts["arms"])
    kept = [v for v in nodes if v not in N]
    hidden_pairs = [p for p in _pairs(nodes) if set(p) & set(N)]
    projections = _projections(tuple(kept), reward, arms)
    # Hidden parts P and the kept parts K that complete them to a fitting projection.
    found = set()
    for d in range(min(len(hidden_pairs), max_directed) + 1):
        for p_dir in combinations(hidden_pairs, d):
            for b in range(max_bidirected + 1):
                for p_bi in combinations(hidden_pairs, b):
                    P = Edges(frozenset(p_dir), frozenset(p_bi))
                    add = added_edges(P, kept, N)
                    without = {x: added_edges(_drop(P, x), kept, set(N) - {x}) for x in N}
                    for H in projections:
                        if not (add.directed <= H.directed and add.bidirected <= H.bidirected):
                            continue
                        for K in _between(Edges(H.directed - add.directed, H.bidirected - add.bidirected), H):
                            if (
                                len(K.directed) + d > max_directed
                                or len(K.bidirected) + b > max_bidirected
                                or any(K | without[x] == H for x in N)
                            ):
                                continue
                            found.add(K | P)
    graphs = [
        e.diagram(nodes)
        for e in sorted(
            found, key=lambda e: (len(e.directed) + len(e.bidirected), sorted(e.directed), sorted(e.bidirected))
        )
    ]
    for G in graphs:  # the library's own computation on G agrees
        if _counts(G, reward, N) != arms:
            raise AssertionError(f"enumeration bug: {G!r} has arm counts {_counts(G, reward, N)}")
    return graphs


@cache
def _projections(kept: tuple[str, ...], reward: str, arms: tuple[int, int, int]) -> list[Edges]:
    """Every ADMG over ``kept`` (edges forward) with the arm counts ``arms`` (N = ∅). A projection may
    have more edges than G (marginalising adds some), so its edges are not limited."""
    pairs = _pairs(kept)
    found = []
    for d in range(len(pairs) + 1):
        for directed in combinations(pairs, d):
            for b in range(len(pairs) + 1):
                for bidirected in combinations(pairs, b):
                    H = Edges(frozenset(directed), frozenset(bidirected))
                    if _counts(H.diagram(kept), reward, ()) == arms:
                        found.append(H)
    return found


def _drop(part: Edges, x: str) -> Edges:
    """``part`` with the node ``x`` deleted."""
    return Edges(frozenset(e for e in part.directed if x not in e), frozenset(e for e in part.bidirected if x not in e))


def _between(low: Edges, high: Edges) -> Iterable[Edges]:
    """Every edge set K with low ⊆ K ⊆ high."""
    free_d, free_b = sorted(high.directed - low.directed), sorted(high.bidirected - low.bidirected)
    for i in range(len(free_d) + 1):
        for extra_d in combinations(free_d, i):
            for j in range(len(free_b) + 1):
                for extra_b in combinations(free_b, j):
                    yield Edges(low.directed | frozenset(extra_d), low.bidirected | frozenset(extra_b))
