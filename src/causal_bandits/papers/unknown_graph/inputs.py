"""What CN-UCB is given about an instance (SPEC §1 "Inputs", §2.5 oracle mode), and exact answers.

``discovery_inputs`` builds the free inputs from the true SCM: E(D) from the true DAG, the exact
observational marginals, and Delta, eps either exact (``assumption_constants: exact``, SPEC §3.0)
or given (the lower-bound families get the construction's Delta and a nominal eps). ``exact_answer``
answers a discovery request with the exact laws instead of B samples: the noise-free tests of
SPEC §4.2 items 6-7 and V6.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.causal.cn_ucb_discovery import DiscoveryInputs
from causal_bandits.causal.essential_graph import essential_graph
from causal_bandits.causal.intervention_batches import Estimate, Request
from causal_bandits.papers.unknown_graph.instance import Instance, batch_size


def discovery_inputs(instance: Instance, delta: float = 0.1, c_B: float = 1.0, Delta: float | None = None,
                     eps: float | None = None) -> DiscoveryInputs:
    """Oracle inputs; Delta and eps default to the instance's exact constants."""
    Delta = instance.Delta_true if Delta is None else Delta
    eps = instance.eps_true if eps is None else eps
    if not np.isfinite(eps):  # no edge at all: the effect test never matters
        eps = 1.0
    return DiscoveryInputs(
        essential=essential_graph(instance.dag), marginals=instance.observational_marginals,
        values=instance.action_values, Delta=Delta, eps=eps,
        B=batch_size(Delta, eps, instance.n, instance.n_values, delta, c_B))


def exact_answer(instance: Instance) -> Callable[[Request], Estimate]:
    """Answer a request with mu_a and P(Y | a) exactly (an infinite batch)."""

    def answer(request: Request) -> Estimate:
        do = None if request.node < 0 else (request.node, request.value)
        mean = float(instance.arm_means[instance.arm(request.node, request.value)])
        freqs = np.array([instance.marginal(y, do) for y in request.observe]).reshape(len(request.observe),
                                                                                       instance.domain)
        return Estimate(mean, freqs)

    return answer
