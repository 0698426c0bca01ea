"""Causal diagrams: acyclic directed mixed graphs (ADMGs).

A causal diagram G = (V, E_→, E_↔) has a directed edge V_i → V_j when V_i is an argument of f_j and
a bidirected edge V_i ↔ V_j when an unobserved confounder enters both f_i and f_j (Lee & Bareinboim,
"Structural Causal Bandits with Non-Manipulable Variables", AAAI-19, §Preliminaries; same notation in
their NeurIPS-18 "Structural Causal Bandits: Where to Intervene?", §2). The directed part is backed by
a frozen :class:`networkx.DiGraph`; bidirected edges are a separate set (and a frozen undirected
:class:`networkx.Graph` whose connected components are the c-components). Both graphs are built on
first use: constructing a diagram, its parents and children and its topological order need no
networkx (run jobs that only sample an SCM never import it).
"""

from __future__ import annotations

import graphlib
import heapq
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

from causal_bandits.errors import DiagramError

Nodes = str | Iterable[str]
"""One node name, or an iterable of node names."""

_DICT_KEYS = ("nodes", "directed", "bidirected")


def canonical_sets(sets: Iterable[Iterable[str]]) -> list[tuple[str, ...]]:
    """Deduplicate ``sets`` into tuples of sorted names, ordered by (size, names)."""
    return sorted({tuple(sorted(s)) for s in sets}, key=lambda s: (len(s), s))


def _checked_edge(nodes: set[str], kind: str, edge: Any) -> tuple[str, str]:
    pair = () if isinstance(edge, str) or not isinstance(edge, Iterable) else tuple(edge)
    if len(pair) != 2:
        raise DiagramError(f"{kind} edge {edge!r} is not a pair; write each edge as [a, b]")
    for v in pair:
        if not isinstance(v, str) or v not in nodes:
            raise DiagramError(f"{kind} edge {list(pair)!r} names unknown node {v!r}; add it to nodes or fix the edge")
    if pair[0] == pair[1]:
        raise DiagramError(f"{kind} edge {list(pair)!r} is a self-loop on {pair[0]!r}; remove it")
    return pair


def _checked_nodes(nodes: Iterable[str]) -> set[str]:
    if isinstance(nodes, str):
        raise DiagramError(f"nodes must be a list of names, not the string {nodes!r}; write ['A', 'B', ...]")
    seen: set[str] = set()
    for v in nodes:
        if not isinstance(v, str):
            raise DiagramError(f"node {v!r} is not a string; name every variable with a string")
        if v in seen:
            raise DiagramError(f"node {v!r} is listed twice in nodes; list each variable once")
        seen.add(v)
    return seen


def _check_acyclic(nodes: Iterable[str], arrows: Iterable[tuple[str, str]]) -> None:
    sorter = graphlib.TopologicalSorter(dict.fromkeys(nodes, ()))
    for a, b in arrows:
        sorter.add(b, a)
    try:
        sorter.prepare()
    except graphlib.CycleError:
        import networkx as nx  # the message names the cycle the way networkx walks it

        cycle = nx.find_cycle(nx.DiGraph(list(arrows)))
        path = " -> ".join([a for a, _ in cycle] + [cycle[0][0]])
        raise DiagramError(f"directed cycle {path}; remove one of its edges (a causal diagram is acyclic)") from None


def _closure(start: frozenset[str], step: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """``start`` and every node reached from it by ``step`` (parents: ancestors; children: descendants), one
    visit per node and edge."""
    seen, stack = set(start), list(start)
    while stack:
        for w in step[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return frozenset(seen)


class CausalDiagram:
    """An immutable ADMG: the causal diagram of an SCM (AAAI-19 §Preliminaries).

    Repeated edges collapse. Invalid input (duplicate or unknown node, self-loop, directed cycle) raises
    :class:`DiagramError`. Set-valued queries accept one node or an iterable of nodes and return a ``frozenset``.

    Parameters
    ----------
    nodes : iterable of str
        The node names.
    directed : iterable of (str, str), optional
        Directed edges ``(a, b)``, meaning a → b.
    bidirected : iterable of (str, str), optional
        Bidirected edges ``(a, b)``, meaning a ↔ b (an unobserved confounder of a and b).
    """

    __slots__ = ("_bidirected", "_children", "_directed", "_graphs", "_node_set", "_nodes", "_parents")
    # The slots' types (set once in __init__, _graphs on first use); annotations only, no class attributes.
    _bidirected: frozenset[frozenset[str]]
    _children: dict[str, frozenset[str]]
    _directed: frozenset[tuple[str, str]]
    _graphs: tuple[Any, Any] | None
    _node_set: frozenset[str]
    _nodes: tuple[str, ...]
    _parents: dict[str, frozenset[str]]

    def __init__(
        self, nodes: Iterable[str], directed: Iterable[Any] = (), bidirected: Iterable[Any] = (), *, _checked=False
    ) -> None:
        if _checked:  # a part of a diagram already checked (do, subgraph): valid by construction
            seen, arrows, confounded = set(nodes), set(directed), set(bidirected)
        else:
            seen = _checked_nodes(nodes)
            arrows = {_checked_edge(seen, "directed", e) for e in directed}
            confounded = {frozenset(_checked_edge(seen, "bidirected", e)) for e in bidirected}
            _check_acyclic(seen, arrows)
        set_ = object.__setattr__
        set_(self, "_nodes", tuple(sorted(seen)))
        set_(self, "_node_set", frozenset(seen))
        set_(self, "_directed", frozenset(arrows))
        set_(self, "_bidirected", frozenset(confounded))
        parents: dict[str, list[str]] = {v: [] for v in seen}
        children: dict[str, list[str]] = {v: [] for v in seen}
        for a, b in arrows:  # one pass over the edges: a 5,000-node chain builds in milliseconds
            parents[b].append(a)
            children[a].append(b)
        set_(self, "_parents", {v: frozenset(ps) for v, ps in parents.items()})
        set_(self, "_children", {v: frozenset(cs) for v, cs in children.items()})
        set_(self, "_graphs", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("CausalDiagram is immutable; derive a new diagram instead")

    def _networkx(self):
        """(frozen DiGraph of the directed edges, frozen Graph of the bidirected ones), built once."""
        if self._graphs is None:
            import networkx as nx

            dag = nx.DiGraph()
            dag.add_nodes_from(self._nodes)
            dag.add_edges_from(self._directed)
            confounding = nx.Graph()
            confounding.add_nodes_from(self._nodes)
            confounding.add_edges_from(tuple(e) for e in self._bidirected)
            object.__setattr__(self, "_graphs", (nx.freeze(dag), nx.freeze(confounding)))
        return self._graphs

    @property
    def _dag(self):
        return self._networkx()[0]

    @property
    def _confounding(self):
        return self._networkx()[1]

    # ----------------------------------------------------------------------------------- basics
    @property
    def nodes(self) -> tuple[str, ...]:
        """V, sorted by name."""
        return self._nodes

    @property
    def directed(self) -> frozenset[tuple[str, str]]:
        """Directed edges (a, b) meaning a → b."""
        return self._directed

    @property
    def bidirected(self) -> frozenset[frozenset[str]]:
        """Bidirected edges {a, b} meaning a ↔ b."""
        return self._bidirected

    def node_set(self, vs: Nodes) -> frozenset[str]:
        """``vs`` (one node or an iterable) as a frozenset; unknown names raise :class:`DiagramError`."""
        if not isinstance(vs, Iterable):
            raise DiagramError(f"expected a node name or a list of names, got {vs!r}")
        names = [vs] if isinstance(vs, str) else list(vs)
        for v in names:
            if not isinstance(v, str) or v not in self._node_set:
                raise DiagramError(f"unknown node {v!r}; use one of the diagram's nodes {list(self._nodes)}")
        return frozenset(names)

    # ---------------------------------------------------------------------------- family (§Prel.)
    def parents(self, vs: Nodes) -> frozenset[str]:
        """pa(vs) = ⋃_{v ∈ vs} pa(v) (the argument is not added, but members can be parents of others)."""
        return frozenset(p for v in self.node_set(vs) for p in self._parents[v])

    def children(self, vs: Nodes) -> frozenset[str]:
        """ch(vs) = ⋃_{v ∈ vs} ch(v)."""
        return frozenset(c for v in self.node_set(vs) for c in self._children[v])

    def ancestors(self, vs: Nodes) -> frozenset[str]:
        """An(vs): ancestors including ``vs`` itself."""
        return _closure(self.node_set(vs), self._parents)

    def descendants(self, vs: Nodes) -> frozenset[str]:
        """De(vs): descendants including ``vs`` itself."""
        return _closure(self.node_set(vs), self._children)

    def c_component(self, v: str) -> frozenset[str]:
        """CC(v): the nodes connected to ``v`` by bidirected paths (``v`` included)."""
        if not isinstance(v, str):
            raise DiagramError(f"c_component takes one node name, got {v!r}; pass a single string")
        self.node_set(v)
        import networkx as nx

        return frozenset(nx.node_connected_component(self._confounding, v))

    def c_components(self) -> list[frozenset[str]]:
        """CC(G): the partition of V by bidirected connectivity, ordered by (size, sorted names)."""
        import networkx as nx

        components = [frozenset(c) for c in nx.connected_components(self._confounding)]
        return sorted(components, key=lambda c: (len(c), sorted(c)))

    def topological_order(self) -> tuple[str, ...]:
        """Kahn's algorithm on the directed part, ties broken alphabetically
        (docs/papers/nonmanip.md#nonmanip-diagrams)."""
        indegree = {v: len(self._parents[v]) for v in self._nodes}
        ready = [v for v in self._nodes if not indegree[v]]
        heapq.heapify(ready)
        order = []
        while ready:  # Kahn's algorithm, smallest name first (networkx's lexicographical order)
            v = heapq.heappop(ready)
            order.append(v)
            for c in self._children[v]:
                indegree[c] -= 1
                if not indegree[c]:
                    heapq.heappush(ready, c)
        return tuple(order)

    # ------------------------------------------------------------------------ derived diagrams
    def do(self, xs: Nodes) -> CausalDiagram:
        """G_{\\bar X}: drop directed edges into X and bidirected edges touching X."""
        x = self.node_set(xs)
        return CausalDiagram(
            self._nodes,
            (e for e in self._directed if e[1] not in x),
            (e for e in self._bidirected if not e & x),
            _checked=True,
        )

    def subgraph(self, ws: Nodes) -> CausalDiagram:
        """G[W]: the subgraph induced by W (keeps every edge with both ends in W)."""
        w = self.node_set(ws)
        return CausalDiagram(
            w,
            (e for e in self._directed if e[0] in w and e[1] in w),
            (e for e in self._bidirected if e <= w),
            _checked=True,
        )

    def without(self, ws: Nodes) -> CausalDiagram:
        """G \\ W = G[V \\ W]."""
        return self.subgraph(set(self._nodes) - self.node_set(ws))

    def latent_projection(self, keep: Nodes) -> CausalDiagram:
        """proj(G, V'): marginalise N = V \\ V' (Verma & Pearl 1990; AAAI-19 §"Characterizing POMIS").

        The projection onto V' has
          1. A → B iff G has a directed path A → … → B whose interior nodes all lie in N;
          2. A ↔ B iff some source reaches both A and B by directed paths with interior nodes in N,
             where a source is a node of N or the implicit confounder U_e of a bidirected edge e
             (U_e → both endpoints; this covers A ↔ B already in G).
        Theorem 4 of AAAI-19 (ℙ^N_{G,Y} = ℙ_{proj(G, V\\N), Y}) is stated for this operation. No
        maintained library computes latent projections of ADMGs, so it is written here.
        """
        kept = self.node_set(keep)
        hidden = set(self._nodes) - kept

        def reach(v: str) -> set[str]:
            """Kept nodes reachable from v by a directed path of length ≥ 1 through hidden nodes."""
            import networkx as nx

            via = {v} | nx.descendants(self._dag.subgraph(hidden | {v}), v)
            return {c for u in via for c in self._dag.successors(u) if c in kept}

        def exposed(v: str) -> set[str]:
            """Kept nodes an arrow into v reaches: v itself if kept, else what v reaches."""
            return {v} if v in kept else reach(v)

        sources = [reach(n) for n in hidden] + [set().union(*map(exposed, e)) for e in self._bidirected]
        return CausalDiagram(
            kept,
            ((a, b) for a in kept for b in reach(a)),
            (pair for s in sources for pair in combinations(sorted(s), 2)),
        )

    # -------------------------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, list]:
        """``{"nodes": [...], "directed": [[a, b], ...], "bidirected": [[a, b], ...]}``, all sorted."""
        return {
            "nodes": list(self._nodes),
            "directed": [list(e) for e in sorted(self._directed)],
            "bidirected": sorted(sorted(e) for e in self._bidirected),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CausalDiagram:
        """Inverse of :meth:`to_dict`; ``directed`` and ``bidirected`` are optional."""
        if not isinstance(d, Mapping):
            raise DiagramError(f"a diagram must be a mapping with keys {list(_DICT_KEYS)}, not {type(d).__name__}")
        unknown = sorted(set(d) - set(_DICT_KEYS), key=str)
        if unknown:
            raise DiagramError(f"unknown key {unknown[0]!r} in diagram; allowed keys are {list(_DICT_KEYS)}")
        if "nodes" not in d:
            raise DiagramError('diagram has no "nodes"; add "nodes": [list of variable names]')
        for key in _DICT_KEYS:
            if not isinstance(d.get(key, []), (list, tuple)):
                kind = type(d[key]).__name__
                raise DiagramError(f'"{key}" must be a list, got {kind}; write "{key}": [...]')
        return cls(d["nodes"], d.get("directed", ()), d.get("bidirected", ()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CausalDiagram):
            return NotImplemented
        return self._key() == other._key()

    def _key(self) -> tuple:
        return self._nodes, self._directed, self._bidirected

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        d = self.to_dict()
        return f"CausalDiagram({d['nodes']!r}, directed={d['directed']!r}, bidirected={d['bidirected']!r})"
