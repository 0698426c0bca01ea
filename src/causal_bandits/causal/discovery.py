"""Causal discovery with background knowledge: PC-stable (pgmpy) plus tiers.

Huang, Zhang & Wu learn the Adult-Video graph (Figure 3) "using a causal discovery software
Tetrad" without naming the algorithm (ambiguity A20). Our resolution (docs/papers/fairness.md#fairness-a20-graph):
PC-stable with the chi-square test (:class:`pgmpy.causal_discovery.PC`) and background knowledge. The tiers
are given to PC as a temporal order: without them pgmpy's collider step can orient an edge out of
the reward and then drops edges whose orientations conflict (on the real Adult data it lost
age - R this way). The rules are then applied again to the learned pattern, independently of the
pgmpy version:

* variables come in tiers (user features < video features < reward); an edge between two tiers
  is oriented from the earlier tier to the later one (so nothing leaves the reward);
* edges between tiers listed as ``forbidden`` are removed (videos are assigned at random in the
  offline data, so no user feature can cause a video feature);
* edges left undirected inside a tier are oriented along the tier's listed order; an edge PC
  oriented inside a tier is kept unless it closes a directed cycle, in which case the whole tier
  is oriented along its order.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import networkx as nx
import pandas as pd

warnings.filterwarnings("ignore", message=".*StructureScore.*", category=FutureWarning)

from pgmpy.causal_discovery import PC, ExpertKnowledge  # noqa: E402


@dataclass(frozen=True)
class LearnedGraph:
    """A DAG learned by PC and completed with tiers; ``edges`` are (parent, child) pairs."""

    nodes: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    pc_directed: tuple[tuple[str, str], ...]
    pc_undirected: tuple[tuple[str, str], ...]
    removed: tuple[tuple[str, str], ...]
    reoriented_tiers: tuple[int, ...] = field(default=())

    def parents(self, v: str) -> list[str]:
        return sorted(a for a, b in self.edges if b == v)

    def digraph(self) -> nx.DiGraph:
        g = nx.DiGraph(self.edges)
        g.add_nodes_from(self.nodes)
        return g

    def to_document(self) -> dict[str, Any]:
        return {
            "nodes": list(self.nodes),
            "edges": [list(e) for e in self.edges],
            "pc_directed": [list(e) for e in self.pc_directed],
            "pc_undirected": [list(e) for e in self.pc_undirected],
            "removed_by_background_knowledge": [list(e) for e in self.removed],
            "tiers_reoriented_to_break_cycles": list(self.reoriented_tiers),
        }


def run_pc(
    data: pd.DataFrame, tiers: Sequence[Sequence[str]], *, alpha: float, max_cond_vars: int, ci_test: str = "chi_square"
):
    """The pattern (pgmpy PDAG) PC-stable learns from discrete ``data`` with ``tiers`` as temporal order."""
    knowledge = ExpertKnowledge(temporal_order=[list(t) for t in tiers])
    pc = PC(
        variant="stable",
        ci_test=ci_test,
        significance_level=alpha,
        max_cond_vars=max_cond_vars,
        expert_knowledge=knowledge,
        return_type="pdag",
        show_progress=False,
        n_jobs=1,
    )
    return pc.fit(data).causal_graph_


def _pattern_edges(pdag) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    directed = {tuple(e) for e in pdag.directed_edges}
    undirected = {tuple(sorted(e)) for e in pdag.undirected_edges}
    return directed, undirected - {tuple(sorted(e)) for e in directed}


def apply_tiers(
    nodes: Sequence[str],
    directed: Iterable[tuple[str, str]],
    undirected: Iterable[tuple[str, str]],
    tiers: Sequence[Sequence[str]],
    forbidden: Iterable[tuple[int, int]] = (),
) -> LearnedGraph:
    """Complete a learned pattern into a DAG with the tier rules of the module docstring."""
    tier_of = {v: i for i, tier in enumerate(tiers) for v in tier}
    order = {v: j for tier in tiers for j, v in enumerate(tier)}
    missing = sorted(set(nodes) - set(tier_of))
    if missing:
        raise ValueError(f"variables {missing} are in no tier")
    forbidden = {cast(tuple[int, int], tuple(sorted(p))) for p in forbidden}
    directed, undirected = set(directed), set(undirected)
    pairs = {tuple(sorted(e)) for e in directed} | {tuple(sorted(e)) for e in undirected}
    removed, cross, within = [], set(), {}
    for a, b in sorted(pairs):
        ta, tb = tier_of[a], tier_of[b]
        if tuple(sorted((ta, tb))) in forbidden:
            removed.append((a, b))
        elif ta != tb:
            cross.add((a, b) if ta < tb else (b, a))
        elif (a, b) in directed or (b, a) in directed:
            within[(a, b)] = (a, b) if (a, b) in directed else (b, a)
        else:
            within[(a, b)] = (a, b) if order[a] < order[b] else (b, a)
    edges = cross | set(within.values())
    reoriented: list[int] = []
    if not nx.is_directed_acyclic_graph(nx.DiGraph(list(edges))):
        reoriented = sorted({tier_of[a] for a, _ in within})
        edges = cross | {(a, b) if order[a] < order[b] else (b, a) for a, b in within}
    return LearnedGraph(
        nodes=tuple(nodes),
        edges=tuple(sorted(edges)),
        pc_directed=tuple(sorted(directed)),
        pc_undirected=tuple(sorted(undirected)),
        removed=tuple(removed),
        reoriented_tiers=tuple(sorted(reoriented)),
    )


def learn_graph(
    data: pd.DataFrame,
    tiers: Sequence[Sequence[str]],
    *,
    alpha: float,
    max_cond_vars: int,
    ci_test: str = "chi_square",
    forbidden: Iterable[tuple[int, int]] = (),
) -> LearnedGraph:
    """PC-stable on ``data`` (columns = variables), then :func:`apply_tiers`."""
    pattern = run_pc(data, tiers, alpha=alpha, max_cond_vars=max_cond_vars, ci_test=ci_test)
    directed, undirected = _pattern_edges(pattern)
    return apply_tiers(list(data.columns), directed, undirected, tiers, forbidden)
