"""What CN-UCB is given about an instance (docs/papers/unknown_graph.md#unknown_graph-inputs), and exact answers.

``instance_document`` writes an instance out as data: its graph and SCM
(:meth:`Instance.to_document`), the exact mean reward of every arm, do(X = x) for every single node
and value and do(), and the ``derived`` constants (B, Delta, eps, the discovery bound).

``discovery_inputs`` builds the free inputs from the true SCM: E(D) from the true DAG, the exact
observational marginals, and Delta, eps either exact (``assumption_constants: exact``,
docs/papers/unknown_graph.md#unknown_graph-simulation) or given (the lower-bound families get the construction's Delta
and a nominal eps). ``exact_answer`` answers a discovery request with the exact laws instead of B samples: the
noise-free tests of docs/papers/unknown_graph.md#unknown_graph-ref-exact, docs/papers/unknown_graph.md#unknown_graph-v6.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from causal_bandits.cn_ucb_discovery.intervention_batches import Estimate, Request
from causal_bandits.cn_ucb_discovery.key_clique import junction_trees
from causal_bandits.cn_ucb_discovery.stages import DiscoveryInputs
from causal_bandits.papers.unknown_graph.instance import Instance, batch_size


def discovery_inputs(
    instance: Instance, delta: float = 0.1, c_B: float = 1.0, Delta: float | None = None, eps: float | None = None
) -> DiscoveryInputs:
    """Oracle inputs; Delta and eps default to the instance's exact constants."""
    Delta = instance.Delta_true if Delta is None else Delta
    eps = instance.eps_true if eps is None else eps
    if not np.isfinite(eps):  # no edge at all: the effect test never matters
        eps = 1.0
    return DiscoveryInputs(
        essential=instance.essential,
        marginals=instance.observational_marginals,
        values=instance.action_values,
        Delta=Delta,
        eps=eps,
        B=batch_size(Delta, eps, instance.n, instance.n_values, delta, c_B),
    )


def exact_answer(instance: Instance) -> Callable[[Request], Estimate]:
    """Answer a request with mu_a and P(Y | a) exactly (an infinite batch)."""

    def answer(request: Request) -> Estimate:
        do = None if request.node < 0 else (request.node, request.value)
        mean = float(instance.arm_means[instance.arm(request.node, request.value)])
        freqs = np.array([instance.marginal(y, do) for y in request.observe]).reshape(
            len(request.observe), instance.domain
        )
        return Estimate(mean, freqs)

    return answer


def discovery_bound(instance: Instance, algorithm: str, B: int) -> float:
    """The paper's bound on the rounds before stage 3 (docs/papers/unknown_graph.md#unknown_graph-constants), including
    stage 0's B.

    trees (Lemma 1): K B (2 + d) log2 n + B, d the skeleton's maximum degree;
    forests (Thm 2): 2 K B (d + C(D)) log2 n + B;
    general (Thm 3): B + K B log2 n (omega(G_R) + d(T_{G_R}) omega(G_R) + sum_G omega(G)).
    """
    K, n = instance.n_values, instance.n
    eg = instance.essential
    log_n = math.log2(max(n, 2))
    if algorithm in ("tree", "forest"):
        d = max((deg for _, deg in eg.undirected_graph.degree), default=0)
        if algorithm == "tree":
            return K * B * (2 + d) * log_n + B
        return 2 * K * B * (d + len(eg.chain_components())) * log_n + B
    trees = junction_trees(eg)
    omega = {c: max(len(q) for q in t.nodes) for c, t in trees.items()}
    home = next(c for c in trees if instance.reward_node in c)
    d = max((deg for _, deg in trees[home].degree), default=0)
    return B + K * B * log_n * (omega[home] + d * omega[home] + sum(omega.values()))


def derived(instance: Instance, delta: float = 0.1, c_B: float = 1.0, algorithm: str = "tree") -> dict[str, Any]:
    """docs/papers/unknown_graph.md#unknown_graph-documents ``derived`` block of an instance document (exact, from the
    SCM)."""
    eg = instance.essential
    B = (
        batch_size(instance.Delta_true, instance.eps_true, instance.n, instance.n_values, delta, c_B)
        if instance.Delta_true > 0 and instance.eps_true > 0
        else None
    )
    means = instance.arm_means
    best = np.flatnonzero(np.isclose(means, means.max(), rtol=0.0, atol=1e-12))
    return {
        "mu_obs": instance.mu_obs,
        "mu": means[:-1].reshape(instance.n, instance.n_values).tolist(),
        "mu_star": instance.mu_star,
        "best_arms": [list(instance.arm_intervention(int(a))) for a in best],
        "ancestors_of_XR": list(instance.reward_ancestors),
        "Delta_true": instance.Delta_true,
        "eps_true": instance.eps_true if math.isfinite(instance.eps_true) else None,
        "d_max": max((deg for _, deg in eg.undirected_graph.degree), default=0),
        "C_D": len(eg.chain_components()),
        "essential_graph": eg.to_document(),
        "chain_components": [list(c) for c in eg.component_order()],
        "B": B,
        "T1_bound": None if B is None else discovery_bound(instance, algorithm, B),
    }


def instance_document(
    instance: Instance, delta: float = 0.1, c_B: float = 1.0, algorithm: str = "tree"
) -> dict[str, Any]:
    """An instance as one JSON-ready document: graph and SCM, the exact mean reward of every arm
    (``arms``: each single-node intervention do(X = x) by name and value, then do()), and the
    :func:`derived` constants for the batch size's ``delta`` and ``c_B``; CN-UCB's ``algorithm``
    (tree, forest, general) picks the discovery bound. :meth:`Instance.from_document` reads it back."""
    means = instance.arm_means
    arms = []
    for arm in range(instance.n_arms):
        node, value = instance.arm_intervention(arm)
        do = {} if node < 0 else {instance.node_names[node]: value}
        arms.append({"arm": arm, "do": do, "mean": float(means[arm])})
    return {**instance.to_document(), "arms": arms, "derived": derived(instance, delta, c_B, algorithm)}
