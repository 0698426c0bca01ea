"""The diagrams consistent with the paper's statements about Fig. 5d (robustness experiment)."""

from itertools import combinations

import numpy as np
import pytest

from causal_bandits.causal.pomis import brute_force_sets, minimal_intervention_sets, n_arms, pomis
from causal_bandits.papers.nonmanip.graphs import GRAPHS
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.studies.consistent_graphs import FIG5D_FACTS, consistent_graphs

NODES, Y, N = FIG5D_FACTS["nodes"], FIG5D_FACTS["reward"], FIG5D_FACTS["N"]
KEPT = [v for v in NODES if v not in N]


def fits(G: CausalDiagram, max_directed: int, max_bidirected: int) -> bool:
    """The criteria, straight from the library (projection by CausalDiagram.latent_projection)."""
    if len(G.directed) > max_directed or len(G.bidirected) > max_bidirected:
        return False
    arms = (n_arms(brute_force_sets(G, Y, N)), n_arms(minimal_intervention_sets(G, Y, N)), n_arms(pomis(G, Y, N)))
    if arms != FIG5D_FACTS["arms"]:
        return False
    H = G.latent_projection(KEPT)
    return all(G.subgraph([v for v in NODES if v != x]).latent_projection(KEPT) != H for x in N)


@pytest.fixture(scope="module")
def small():
    return consistent_graphs(max_directed=7, max_bidirected=2)


def test_the_reconstruction_and_its_mirror_are_found(small):
    mirror = CausalDiagram(
        NODES, [("B", "C"), ("C", "D"), ("C", "E"), ("D", "Y"), ("E", "Y"), ("A", "Y")], [("A", "B"), ("A", "E")]
    )
    assert GRAPHS["fig5d"] in small and mirror in small
    assert len(set(small)) == len(small)
    assert all(fits(G, 7, 2) for G in small)


def test_every_single_edge_change_is_classified_like_the_library(small):
    """Local completeness: around sampled fitting graphs, a neighbour (one edge added or removed) is
    enumerated exactly when the library's own computation says it fits."""
    found = set(small)
    pairs = list(combinations(NODES, 2))
    rng = np.random.default_rng(0)
    checked = 0
    for i in rng.choice(len(small), size=min(12, len(small)), replace=False):
        G = small[i]
        for kind in ("directed", "bidirected"):
            for pair in pairs:
                d, b = set(G.directed), {tuple(sorted(e)) for e in G.bidirected}
                edges = d if kind == "directed" else b
                edges ^= {pair}
                H = CausalDiagram(NODES, sorted(d), sorted(b))
                assert (H in found) == fits(H, 7, 2), H
                checked += 1
    assert checked > 300
