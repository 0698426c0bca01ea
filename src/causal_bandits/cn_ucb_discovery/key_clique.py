"""Finding a clique that holds X_R in a chordal chain component: Algorithms 7, 8 and 9 of Lu, Meisami
& Tewari (2021, §5).

The junction tree T_G of a chain component G (:func:`clique_tree`) has the maximal cliques as nodes;
the search moves over it as the tree algorithms move over nodes. :func:`clique_intervention` is
Alg. 9 (every do(Z = z), Z in the clique ascending, B rounds each); :func:`find_subjunction_tree`
is Alg. 7 (stage 1: a directed sub-junction tree holding X_R), :func:`find_key_clique` is Alg. 8
(stage 2: the clique C0 whose arms stage 3 plays).

The printed Alg. 7/8 test the reward on every variable of the central clique, so a separator
variable shared with the parent clique fires when X_R lies upstream, and Alg. 8's "up" case keeps
the central clique, which can loop. ``Reading.clique_rules = "corrected"`` (the default) uses the
docs/papers/unknown_graph.md#unknown_graph-general residual rules instead; ``"literal"`` keeps the printed ones.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import lru_cache
from typing import cast

import networkx as nx

from causal_bandits.cn_ucb_discovery.central_node import branch, central_node
from causal_bandits.cn_ucb_discovery.essential_graph import EssentialGraph
from causal_bandits.cn_ucb_discovery.intervention_batches import (
    Estimate,
    NonTermination,
    Reading,
    Request,
    RewardTests,
    Step,
    round_cap,
    support,
    update_weights,
)
from causal_bandits.cn_ucb_discovery.reward_parent import weighted_search
from causal_bandits.errors import ConfigError

Clique = tuple[int, ...]


def clique_tree(component: nx.Graph) -> nx.Graph:
    """A junction tree of a chordal graph: the maximum-weight spanning tree of the clique-intersection
    graph, weights |C_i & C_j| (networkx), cliques as sorted tuples inserted in sorted order so that
    ties resolve the same way every time (docs/papers/unknown_graph.md#unknown_graph-general,
    docs/papers/unknown_graph.md#unknown_graph-a19-clique-tree)."""
    if component.number_of_nodes() == 1:
        tree = nx.Graph()
        tree.add_node((next(iter(component.nodes)),))
        return tree
    if not nx.is_chordal(component):
        raise ConfigError(
            "a chain component is not chordal, so it has no junction tree; the essential "
            "graph is wrong (chain components of a CPDAG are chordal)"
        )
    cliques = sorted(tuple(sorted(c)) for c in nx.chordal_graph_cliques(component))
    inter = nx.Graph()
    inter.add_nodes_from(cliques)
    for i, a in enumerate(cliques):
        for b in cliques[i + 1 :]:
            if w := len(set(a) & set(b)):
                inter.add_edge(a, b, weight=w)
    return nx.maximum_spanning_tree(inter, algorithm="kruskal")


@lru_cache(maxsize=256)
def junction_trees(essential: EssentialGraph) -> dict[tuple[int, ...], nx.Graph]:
    """T_G (:func:`clique_tree`) of every chain component G of E(D), by component; computed once per E(D) and frozen
    (``nx.freeze``: the searches only read them; path_power's E(D), its skeleton, is the same for every MCS start
    and X_R)."""
    g = essential.undirected_graph
    return {c: nx.freeze(clique_tree(nx.Graph(g.subgraph(c)))) for c in essential.chain_components()}


def clique_intervention(
    clique: Sequence[int], values: Sequence[int], observe: tuple[int, ...], stage: str, results: dict
) -> Generator[Request, Estimate, None]:
    """Alg. 9: Intervene(do(Z = z), B) for Z in the clique (ascending) and every value z."""
    for Z in sorted(clique):
        for z in values:
            results[(Z, z)] = yield Request(Z, z, observe, stage)


def find_subjunction_tree(
    junction: nx.Graph,
    tests: RewardTests,
    values: Sequence[int],
    reading: Reading,
    steps: list[Step],
    component: int = 0,
) -> Generator[Request, Estimate, nx.DiGraph | None]:
    """Alg. 7: a directed sub-junction tree rooted at the found clique, or None (X_R not in G)."""
    corrected = reading.clique_rules == "corrected"

    def probe(cc, nbrs):
        observe = tuple(sorted(set().union(*(set(c) - set(cc) for c in nbrs))))
        results = {}  # (Z, z) -> Estimate
        yield from clique_intervention(cc, values, observe, "s1_clique", results)
        down = set()
        for cy in nbrs:  # Cc -> C_Y (Def. 8) iff every separator variable moves every residual variable
            sep, res = set(cc) & set(cy), set(cy) - set(cc)
            if all(any(tests.effect(results[(Z, z)], observe.index(Y), Y) for z in values) for Z in sep for Y in res):
                down.add(cy)
        s_up = set().union(*(set(cc) & set(cy) for cy in nbrs if cy not in down)) if corrected else set()
        hits = [(Z, z, est.reward_mean, tests.reward(est)) for (Z, z), est in results.items()]
        return hits, down, any(fired for Z, _, _, fired in hits if Z not in s_up)

    return (yield from weighted_search(junction, reading, steps, component, "s1_clique", "stage 1 (cliques)", probe))


def find_key_clique(
    subtree: nx.DiGraph,
    tests: RewardTests,
    values: Sequence[int],
    reading: Reading,
    steps: list[Step],
    component: int = 0,
) -> Generator[Request, Estimate, Clique | None]:
    """Alg. 8: the clique C0 that holds X_R, or None."""
    corrected = reading.clique_rules == "corrected"
    skeleton = subtree.to_undirected()  # a copy: a view's adjacency is slow to walk, every round
    q: dict = dict.fromkeys(subtree.nodes, 1)
    cap = round_cap(subtree.number_of_nodes())
    rounds = 0
    while len(cand := support(q)) > 1:
        rounds += 1
        if rounds > cap:
            raise NonTermination(f"stage 2 (cliques) ran past {cap} rounds")
        cc = cast(tuple[int, ...], central_node(skeleton, q, reading.central))  # a clique of the junction tree
        results: dict = {}
        yield from clique_intervention(cc, values, (), "s2_clique", results)
        parent = next(iter(subtree.predecessors(cc)), None)
        residual = set(cc) - set(parent) if corrected and parent is not None else set(cc)
        hits = [(Z, z, est.reward_mean, tests.reward(est)) for (Z, z), est in results.items()]
        step = Step("s2_clique", component, cc, hits, (), tuple(sorted(cand)))
        steps.append(step)
        if not any(fired for Z, _, _, fired in hits if Z in residual):
            below = set(nx.descendants(subtree, cc)) | ({cc} if corrected else set())
            q = update_weights(q, set(subtree.nodes) - below, reading)
        else:
            reward_branch = None
            for cy in sorted(subtree.successors(cc)):
                child_results: dict = {}
                targets = sorted(set(cy) - set(cc)) if corrected else sorted(cy)
                yield from clique_intervention(targets, values, (), "s2_child_clique", child_results)
                child_hits = [(Y, y, est.reward_mean, tests.reward(est)) for (Y, y), est in child_results.items()]
                hits += child_hits
                if any(fired for *_, fired in child_hits):
                    reward_branch = branch(skeleton, cc, cy)
                    step.down = (cy,)
                    if reading.break_alg8:
                        break
            if reward_branch is None:
                step.cand_after = (cc,)
                return cc
            q = update_weights(q, set(reward_branch), reading)
        step.cand_after = tuple(sorted(support(q)))
    left = sorted(support(q))
    return left[0] if reading.final_return and left else None
