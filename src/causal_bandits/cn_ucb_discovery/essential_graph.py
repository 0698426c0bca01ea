"""The essential graph E(D) of a DAG, its chain components, and the order CN-UCB visits them.

Lu, Meisami & Tewari (2021) give their algorithms E(D) (the CPDAG) as input (§3, "oracle" inputs of
docs/papers/unknown_graph.md#unknown_graph-inputs). A DAG without v-structures has every edge reversible, so E(D) is its
skeleton (trees, disjoint trees, path_power); otherwise pgmpy's ``DAG.to_pdag`` (Chickering 2002) completes
it. Chain components are the connected components left after deleting the directed edges (Def. 4
and §5); Alg. 2 and Alg. 5 loop over them in an order the paper leaves open
(docs/papers/unknown_graph.md#unknown_graph-a7-component-order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import cast

import networkx as nx

from causal_bandits.errors import ConfigError

COMPONENT_ORDERS = ("reverse_topological", "index")


@dataclass(frozen=True)
class EssentialGraph:
    """E(D) over nodes 0..n-1: directed edges (u, v) and undirected edges (u < v), sorted."""

    n: int
    directed: tuple[tuple[int, int], ...]
    undirected: tuple[tuple[int, int], ...]

    @cached_property
    def undirected_graph(self) -> nx.Graph:
        """The undirected part over all n nodes, built once and frozen (``nx.freeze``): every caller only reads it."""
        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(self.undirected)
        return nx.freeze(g)

    def chain_components(self) -> list[tuple[int, ...]]:
        """CC(E(D)): components of the undirected part, each sorted, listed by smallest node."""
        return sorted(tuple(sorted(c)) for c in nx.connected_components(self.undirected_graph))

    def component_order(self, rule: str = "reverse_topological") -> list[tuple[int, ...]]:
        """The chain components in the order Alg. 2 / Alg. 5 visit them
        (docs/papers/unknown_graph.md#unknown_graph-forest,
        docs/papers/unknown_graph.md#unknown_graph-a7-component-order).

        ``reverse_topological`` (default): sinks of the component DAG first (edge G -> G' when E(D)
        has a directed edge from G into G'), ties to the smallest node index. A component holding
        only ancestors of X_R passes the reward test, so visiting it before X_R's component would
        make stage 2 answer wrongly. ``index``: by smallest node index, the order a reader of the
        paper's "for G in CC(E(D))" would take.
        """
        components = self.chain_components()
        if rule == "index":
            return components
        if rule != "reverse_topological":
            raise ConfigError(f"component order {rule!r}; use one of {list(COMPONENT_ORDERS)}")
        where = {v: i for i, c in enumerate(components) for v in c}
        reverse = nx.DiGraph()
        reverse.add_nodes_from(range(len(components)))
        reverse.add_edges_from((where[v], where[u]) for u, v in self.directed if where[u] != where[v])
        return [components[i] for i in nx.lexicographical_topological_sort(reverse, key=lambda i: components[i][0])]

    def to_document(self) -> dict[str, list[list[int]]]:
        return {"directed": [list(e) for e in self.directed], "undirected": [list(e) for e in self.undirected]}


def has_v_structure(dag: nx.DiGraph) -> bool:
    """Whether some a -> c <- b has a, b non-adjacent."""
    for c in dag.nodes:
        pa = sorted(dag.predecessors(c))
        for i, a in enumerate(pa):
            if any(not dag.has_edge(a, b) and not dag.has_edge(b, a) for b in pa[i + 1 :]):
                return True
    return False


def essential_graph(dag: nx.DiGraph) -> EssentialGraph:
    """E(D) of a DAG on nodes 0..n-1 (the skeleton when D has no v-structure, else pgmpy's CPDAG)."""
    if not nx.is_directed_acyclic_graph(dag):
        raise ConfigError("the graph has a directed cycle; the essential graph is defined for DAGs only")
    n = dag.number_of_nodes()
    if not has_v_structure(dag):
        return EssentialGraph(n, (), tuple(sorted(tuple(sorted(e)) for e in dag.edges)))
    from pgmpy.base import DAG  # slow import (~2 s), only for graphs with v-structures

    pdag = DAG(dag.edges)
    pdag.add_nodes_from(dag.nodes)
    cpdag = pdag.to_pdag()
    directed = tuple(sorted((int(u), int(v)) for u, v in cpdag.directed_edges))
    undirected = tuple(sorted({tuple(sorted((int(u), int(v)))) for u, v in cpdag.undirected_edges}))
    return EssentialGraph(n, directed, cast(tuple[tuple[int, int], ...], undirected))  # sorted pairs


def require_tree(graph: nx.Graph, what: str) -> None:
    """One-line error unless ``graph`` is a tree (connected, acyclic, undirected)."""
    if graph.number_of_nodes() == 0 or not nx.is_tree(graph):
        raise ConfigError(
            f"{what} is not a tree ({graph.number_of_nodes()} nodes, {graph.number_of_edges()} "
            "edges); use the forest or general-graph CN-UCB (algorithm: forest | general)"
        )


def tree_components(eg: EssentialGraph, components: Sequence[tuple[int, ...]]) -> list[nx.Graph]:
    """The undirected subgraph of every chain component, each required to be a tree (causal forest, Def. 4)."""
    g = eg.undirected_graph
    out = []
    for c in components:
        sub = nx.Graph(g.subgraph(c))
        require_tree(sub, f"chain component {list(c)[:6]}{'...' if len(c) > 6 else ''}")
        out.append(sub)
    return out
