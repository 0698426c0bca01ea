"""Stages 0-2 of CN-UCB (Lu, Meisami & Tewari 2021): Alg. 1 (trees), Alg. 5 (forests), Alg. 2 (general).

Stage 0 plays do() for B rounds (R_hat). Then, for every chain component of E(D) in the chosen order
(docs/papers/unknown_graph.md#unknown_graph-forest, docs/papers/unknown_graph.md#unknown_graph-a7-component-order),
stage 1 looks for a directed subtree (Alg. 3) or sub-junction tree (Alg. 7) that holds X_R and, when one is found, stage
2 narrows it to X_R (Alg. 4) or to a clique C0 (Alg. 8). The first component that yields an answer ends the search;
stage 3 (UCB on the answer's arms, or on all arms when there is none) is the bandit policy's business
(:class:`causal_bandits.bandits.cn_ucb.CNUCB`).

:func:`cn_ucb_discovery` checks the inputs (one-line errors) and returns the generator of requests;
:func:`run_discovery` drives one generator with any answer function (exact laws, or samples).
A stage past its round cap, or Alg. 6's walk oscillating, ends the search with
``nonterminating=True`` and no answer (docs/papers/unknown_graph.md#unknown_graph-run-protocol).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from causal_bandits.cn_ucb_discovery.central_node import CentralWalkLoop
from causal_bandits.cn_ucb_discovery.essential_graph import EssentialGraph, require_tree, tree_components
from causal_bandits.cn_ucb_discovery.intervention_batches import (
    DiscoveryResult,
    Estimate,
    NonTermination,
    Reading,
    Request,
    RewardTests,
    Step,
)
from causal_bandits.cn_ucb_discovery.key_clique import find_key_clique, find_subjunction_tree, junction_trees
from causal_bandits.cn_ucb_discovery.reward_parent import find_key_node, find_subtree
from causal_bandits.errors import ConfigError

ALGORITHMS = ("tree", "forest", "general")


@dataclass(frozen=True)
class DiscoveryInputs:
    """What the algorithms are given for free (docs/papers/unknown_graph.md#unknown_graph-setting): E(D), P(Y = y), K's
    values, Delta, eps, B."""

    essential: EssentialGraph
    marginals: np.ndarray  # (n, domain)
    values: tuple[int, ...]  # the values an intervention can set
    Delta: float
    eps: float
    B: int

    @property
    def n(self) -> int:
        return self.essential.n


def _components(inputs: DiscoveryInputs, algorithm: str, reading: Reading) -> list[tuple[tuple[int, ...], nx.Graph]]:
    eg = inputs.essential
    order = eg.component_order(reading.component_order)
    if algorithm == "tree":
        skeleton = eg.undirected_graph
        if eg.directed:
            raise ConfigError(
                "the tree algorithm got an essential graph with directed edges (v-structures), "
                "so the graph is not a tree; use algorithm: forest or general"
            )
        require_tree(skeleton, "the graph given to the tree algorithm")
        return [(tuple(range(eg.n)), skeleton)]
    if algorithm == "forest":
        return list(zip(order, tree_components(eg, order)))
    if algorithm == "general":
        trees = junction_trees(eg)
        return [(c, trees[c]) for c in order]
    raise ConfigError(f"unknown CN-UCB algorithm {algorithm!r}; use one of {list(ALGORITHMS)}")


def cn_ucb_discovery(
    inputs: DiscoveryInputs, algorithm: str = "tree", reading: Reading = Reading()
) -> Generator[Request, Estimate, DiscoveryResult]:
    """Stages 0-2 as a generator of requests whose return value is the :class:`DiscoveryResult`."""
    if inputs.B < 1 or not inputs.Delta > 0 or not inputs.eps > 0:
        raise ConfigError(f"B = {inputs.B}, Delta = {inputs.Delta}, eps = {inputs.eps}: all must be positive")
    components = _components(inputs, algorithm, reading)
    return _stages(inputs, algorithm, reading, components)


def _stages(
    inputs: DiscoveryInputs, algorithm: str, reading: Reading, components: list
) -> Generator[Request, Estimate, DiscoveryResult]:
    result = DiscoveryResult(None)
    first = Request(-1, -1, (), "obs")
    result.requests.append(first)
    est = yield first
    result.steps.append(Step("obs", -1, None, [(-1, -1, est.reward_mean, False)]))
    tests = RewardTests(est.reward_mean, inputs.Delta, inputs.eps, inputs.marginals)
    stage1, stage2 = (
        (find_subjunction_tree, find_key_clique) if algorithm == "general" else (find_subtree, find_key_node)
    )
    for index, (_, graph) in enumerate(components):
        try:
            sub = yield from _recorded(stage1(graph, tests, inputs.values, reading, result.steps, index), result)
            if sub is None:
                continue
            result.stage1_subtree = tuple(sorted(sub.nodes))
            answer = yield from _recorded(stage2(sub, tests, inputs.values, reading, result.steps, index), result)
        except (NonTermination, CentralWalkLoop) as err:
            result.nonterminating = True
            result.steps.append(Step("abort", index, None, [], note=str(err) or "Alg. 6 walk oscillates"))
            return result
        if answer is not None:
            result.target = tuple(answer) if algorithm == "general" else (answer,)
            return result
    return result


def _recorded(stage: Generator[Request, Estimate, Any], result: DiscoveryResult) -> Generator[Request, Estimate, Any]:
    """Forward a stage's requests, keeping each in ``result.requests``."""
    try:
        request = next(stage)
        while True:
            result.requests.append(request)
            request = stage.send((yield request))
    except StopIteration as stop:
        return stop.value


def run_discovery(
    search: Generator[Request, Estimate, DiscoveryResult], answer: Callable[[Request], Estimate]
) -> DiscoveryResult:
    """Drive one discovery generator to the end, answering every request with ``answer``."""
    try:
        request = next(search)
        while True:
            request = search.send(answer(request))
    except StopIteration as stop:
        return stop.value
