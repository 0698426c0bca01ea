"""Central nodes of a weighted tree: Definition 2 and Algorithm 6 of Lu, Meisami & Tewari (2021).

Definition 2 (after Greenewald et al. 2019): v is central for a distribution q over the nodes of an
undirected tree T when every branch B^{v:Y} (the nodes reachable from a neighbour Y once the edge
v - Y is cut) has q(B^{v:Y}) <= 1/2. One always exists. The same definition applies to a junction
tree whose nodes are cliques (§5).

Weights are any non-negative numbers (ints for the uniform weights of our candidate sets
(docs/papers/unknown_graph.md#unknown_graph-a3-central), Fractions for the literal weight updates); "<= 1/2" is read as
"<= total / 2", which needs no normalisation. Nodes must be sortable: "lowest index" is the smallest node in sorted
order.

Rules (docs/papers/unknown_graph.md#unknown_graph-primitives, docs/papers/unknown_graph.md#unknown_graph-a3-central):

* ``lowest_index`` (default): the smallest node meeting Definition 2, over all nodes of T.
* ``walk_strict``: Alg. 6's walk from the smallest node, moving to the heaviest branch (ties to the
  smallest neighbour) while its weight is > 1/2.
* ``walk_literal``: the same walk with Alg. 6's ">= 1/2", which oscillates between two nodes on an
  exact tie; the oscillation raises :class:`CentralWalkLoop` instead of hanging.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from fractions import Fraction

    Weight = float | Fraction  # ints count as floats

CENTRAL_RULES = ("lowest_index", "walk_strict", "walk_literal")


class CentralWalkLoop(RuntimeError):
    """Alg. 6's walk came back to a node it had left: with ">= 1/2" it never stops."""


def branch(tree: nx.Graph, v: Hashable, y: Hashable) -> frozenset:
    """B^{v:Y}_T: the nodes reachable from Y once the edge v - Y is removed (Y included)."""
    seen, stack = {y}, [y]
    while stack:
        u = stack.pop()
        for w in tree[u]:
            if w != v and w not in seen:
                seen.add(w)
                stack.append(w)
    return frozenset(seen)


def _rooted(tree: nx.Graph, weights: Mapping[Any, Weight]) -> tuple[list, dict, dict]:
    """T rooted at its smallest node: networkx's depth-first preorder (neighbours in adjacency order), each node's
    parent (the tree edges networkx walks) and its subtree's weight s(u), summed children first in reverse preorder;
    :func:`branch_weights` and the lowest-index rule read it."""
    root = min(tree.adj)
    order, parent = [root], {root: None}
    for u, v in nx.dfs_edges(tree, root):
        order.append(v)
        parent[v] = u
    sub = {v: weights.get(v, 0) for v in order}
    for v in reversed(order[1:]):
        sub[parent[v]] += sub[v]
    return order, parent, sub


def branch_weights(tree: nx.Graph, weights: Mapping[Any, Weight]) -> dict[Any, dict[Any, Weight]]:
    """q(B^{v:Y}) for every node v and neighbour Y, in O(|T|).

    Root T at its smallest node and take subtree sums s(u): the branches of v weigh s(c) for each
    child c and total - s(v) on the parent's side.
    """
    order, parent, sub = _rooted(tree, weights)
    total = sub[order[0]]
    out: dict[Any, dict[Any, Weight]] = {}
    for v in order:
        out[v] = {c: sub[c] for c in tree[v] if c != parent[v]}
        if parent[v] is not None:
            out[v][parent[v]] = total - sub[v]
    return out


def central_node(tree: nx.Graph, weights: Mapping[Any, Weight], rule: str = "lowest_index") -> Hashable:
    """A central node of ``tree`` for ``weights`` (Definition 2 / Alg. 6; see the module docstring)."""
    if rule not in CENTRAL_RULES:
        raise ValueError(f"unknown central-node rule {rule!r}; use one of {list(CENTRAL_RULES)}")
    if rule == "lowest_index":  # v's heaviest branch: its parent's side or its heaviest child's subtree
        order, parent, sub = _rooted(tree, weights)
        total = sub[order[0]]
        largest = {v: 0 if parent[v] is None else total - sub[v] for v in order}
        for v in order[1:]:
            largest[parent[v]] = max(largest[parent[v]], sub[v])
        return min(v for v in tree.nodes if 2 * largest[v] <= total)
    bw = branch_weights(tree, weights)
    total = sum(weights.get(v, 0) for v in tree.nodes)
    v, seen = min(tree.nodes), set()
    while bw[v]:
        heaviest = max(bw[v].values())
        moves = heaviest * 2 >= total if rule == "walk_literal" else heaviest * 2 > total
        if not moves:
            break
        seen.add(v)
        v = min(y for y, w in bw[v].items() if w == heaviest)
        if v in seen:
            raise CentralWalkLoop(f"Alg. 6 walk revisits {v!r}")
    return v
