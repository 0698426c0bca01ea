"""Finding the reward's parent X_R on a causal tree: Algorithms 3 and 4 of Lu, Meisami & Tewari (2021).

Stage 1, :func:`find_subtree` (Alg. 3, "Find Sub-tree"): intervene on the central node v of the
candidates; if some do(v = z) moves the reward, v is an ancestor of X_R (or X_R) and the subtree
made of v and the branches v points into (by the effect test) contains X_R; otherwise v and every
branch v points into are eliminated. Stage 2, :func:`find_key_node` (Alg. 4, "Find Key Node"):
on that directed subtree, intervene on the central node; if the reward does not move, X_R is
upstream (keep the parent's branch); if it does, intervene on each child: the child branch that
moves the reward holds X_R, and if none does, v is X_R.

Both are generators of :class:`~causal_bandits.cn_ucb_discovery.intervention_batches.Request` (see that
module); each appends its rounds to ``steps``. Our pseudo-code (docs/papers/unknown_graph.md#unknown_graph-tree) is the
corrected reading; :class:`~causal_bandits.cn_ucb_discovery.intervention_batches.Reading` switches to the printed one.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import cast

import networkx as nx

from causal_bandits.cn_ucb_discovery.central_node import branch, central_node
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


def weighted_search(
    graph: nx.Graph, reading: Reading, steps: list[Step], component: int, kind: str, label: str, probe
) -> Generator[Request, Estimate, nx.DiGraph | None]:
    """Stage 1's weighted central-node search, shared by Alg. 3 (over a tree's nodes) and Alg. 7 (over a
    junction tree's cliques): each round probes the central node of the candidates' weights q, keeps
    the branches the probe found downstream if it fired on the reward, otherwise lowers the weights of
    the upstream branches. ``probe(center, neighbours)`` is a generator of requests returning
    (hits, downstream neighbours, fired). Returns the directed subtree rooted at the found node, or
    None when every node is eliminated (X_R is not there, docs/papers/unknown_graph.md#unknown_graph-a6-empty)."""
    q: dict = dict.fromkeys(graph.nodes, 1)
    cap = round_cap(graph.number_of_nodes())
    for rounds in range(1, cap + 2):
        cand = support(q)
        if not cand:
            return None
        if rounds > cap:
            raise NonTermination(f"{label} ran past {cap} rounds")
        center = central_node(graph, q, reading.central)
        nbrs = tuple(sorted(graph[center]))
        hits, down, found = yield from probe(center, nbrs)
        branches = {y: branch(graph, center, y) for y in nbrs}
        step = Step(kind, component, center, hits, tuple(sorted(down)), tuple(sorted(cand)))
        steps.append(step)
        if found:
            nodes = {center}.union(*(branches[y] for y in down))
            step.cand_after = tuple(sorted(nodes))
            return nx.bfs_tree(graph.subgraph(nodes), center)
        up = set().union(*(branches[y] for y in nbrs if y not in down))
        q = update_weights(q, up, reading, untouched=frozenset() if down else frozenset({center}))
        step.cand_after = tuple(sorted(support(q)))
    raise AssertionError("unreachable")


def find_subtree(
    tree: nx.Graph, tests: RewardTests, values: Sequence[int], reading: Reading, steps: list[Step], component: int = 0
) -> Generator[Request, Estimate, nx.DiGraph | None]:
    """Alg. 3: a directed subtree (rooted at the found ancestor, edges away from it) that holds X_R,
    or None when every node is eliminated (X_R is not in this tree,
    docs/papers/unknown_graph.md#unknown_graph-a6-empty)."""

    def probe(v, nbrs):
        found, down, hits = False, set(), []
        for z in values:
            est = yield Request(v, z, nbrs, "s1")
            fired = tests.reward(est)
            found |= fired
            hits.append((v, z, est.reward_mean, fired))
            down |= {y for row, y in enumerate(nbrs) if tests.effect(est, row, y)}
        return hits, down, found

    return (yield from weighted_search(tree, reading, steps, component, "s1", "stage 1", probe))


def find_key_node(
    subtree: nx.DiGraph,
    tests: RewardTests,
    values: Sequence[int],
    reading: Reading,
    steps: list[Step],
    component: int = 0,
) -> Generator[Request, Estimate, int | None]:
    """Alg. 4: X_R within the directed subtree from stage 1, or None (nothing left / no final return)."""
    skeleton = subtree.to_undirected()  # a copy: a view's adjacency is slow to walk, every round
    q: dict = dict.fromkeys(subtree.nodes, 1)
    cap = round_cap(subtree.number_of_nodes())
    rounds = 0
    while len(cand := support(q)) > 1:
        rounds += 1
        if rounds > cap:
            raise NonTermination(f"stage 2 ran past {cap} rounds")
        v = cast(int, central_node(skeleton, q, reading.central))  # a variable of the subtree
        hits, moved = [], False
        for z in values:
            est = yield Request(v, z, (), "s2_center")
            fired = tests.reward(est)
            moved |= fired
            hits.append((v, z, est.reward_mean, fired))
        step = Step("s2", component, v, hits, (), tuple(sorted(cand)))
        steps.append(step)
        if not moved:  # X_R is upstream of v: keep the parent's branch (empty at the root)
            parent = next(iter(subtree.predecessors(v)), None)
            keep = set(branch(skeleton, v, parent)) if parent is not None else set()
            q = update_weights(q, keep, reading)
        else:
            reward_branch = None
            for y in sorted(subtree.successors(v)):
                hit = False
                for value in values:
                    est = yield Request(y, value, (), "s2_child")
                    fired = tests.reward(est)
                    hits.append((y, value, est.reward_mean, fired))
                    if fired:
                        reward_branch, hit = branch(skeleton, v, y), True
                if hit and reading.break_alg4:
                    break
            if reward_branch is None:
                step.cand_after = (v,)
                return v
            step.down = (min(reward_branch & set(subtree.successors(v))),)
            q = update_weights(q, set(reward_branch), reading)
        step.cand_after = tuple(sorted(support(q)))
    left = sorted(support(q))
    return left[0] if reading.final_return and left else None
