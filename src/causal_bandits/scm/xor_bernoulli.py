"""Binary "XOR-Bernoulli" structural causal models over a causal diagram.

Every endogenous V has its own exogenous U_V ~ Bern(q_V); every bidirected edge a <-> b (a < b)
stands for a shared U_ab ~ Bern(q_ab). The structural function is

    f_V = c_V xor U_V xor (xor of V's endogenous parents) xor (xor of U_e over bidirected e at V)

This family is our reading (documented on the paper's page in docs/papers/) of an ambiguity
(docs/papers/nonmanip.md#nonmanip-r-scm-parameters [R]): the paper does not publish its SCMs. Exact interventional
quantities come from pgmpy's variable elimination on the explicit Bayesian network over U and V (with do() applied by
pgmpy); sampling is vectorised numpy on uniforms from the keyed environment stream.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import product

import numpy as np

from causal_bandits.errors import ConfigError
from causal_bandits.scm.diagram import CausalDiagram


def _pgmpy():
    """pgmpy's TabularCPD, DiscreteBayesianNetwork and VariableElimination, imported on first use.

    pgmpy takes about two seconds to import; the run jobs, which only sample, never need it.
    """
    with warnings.catch_warnings():  # pgmpy 1.1 warns about its own deprecated StructureScore
        warnings.simplefilter("ignore", FutureWarning)
        from pgmpy.factors.discrete import TabularCPD
        from pgmpy.inference import VariableElimination
        from pgmpy.models import DiscreteBayesianNetwork
    return TabularCPD, DiscreteBayesianNetwork, VariableElimination


def exogenous_names(diagram: CausalDiagram) -> tuple[str, ...]:
    """Canonical order of the exogenous variables: ``U_<V>`` for V sorted, then ``U_<ab>`` sorted."""
    own = [f"U_{v}" for v in sorted(diagram.nodes)]
    shared = sorted(f"U_{''.join(sorted(e))}" for e in diagram.bidirected)
    return tuple(own + shared)


@dataclass(frozen=True)
class XorBernoulliSCM:
    """An XOR-Bernoulli SCM: ``q`` maps each exogenous name to P(U = 1), ``c`` each V to c_V.

    Parameters
    ----------
    diagram : CausalDiagram
        The causal diagram (one exogenous U_V per node and U_AB per bidirected edge).
    q : mapping of str to float
        P(U = 1) of every exogenous variable, each in [0, 1].
    c : mapping of str to int
        The constant c_V (0 or 1) of every node.
    """

    diagram: CausalDiagram
    q: Mapping[str, float]
    c: Mapping[str, int]

    def __post_init__(self) -> None:
        expected = set(exogenous_names(self.diagram))
        if set(self.q) != expected:
            missing, extra = sorted(expected - set(self.q)), sorted(set(self.q) - expected)
            raise ConfigError(
                f"SCM q must give exactly the exogenous variables {sorted(expected)}: "
                f"missing {missing}, unexpected {extra}"
            )
        if set(self.c) != set(self.diagram.nodes):
            raise ConfigError(f"SCM c must give one constant (0 or 1) for each of {list(self.diagram.nodes)}")
        for name, p in self.q.items():
            if not 0.0 <= p <= 1.0:
                raise ConfigError(f"SCM q[{name}] = {p} is not a probability; use a value in [0, 1]")
        for name, bit in self.c.items():
            if bit not in (0, 1):
                raise ConfigError(f"SCM c[{name}] = {bit}; constants must be 0 or 1")

    @cached_property
    def exogenous(self) -> tuple[str, ...]:
        return exogenous_names(self.diagram)

    def _inputs(self, v: str) -> tuple[list[str], list[str]]:
        """(endogenous parents, exogenous inputs) of f_v, each in canonical order."""
        parents = sorted(self.diagram.parents(v))
        shared = sorted(f"U_{''.join(sorted(e))}" for e in self.diagram.bidirected if v in e)
        return parents, [f"U_{v}", *shared]

    @cached_property
    def bayesian_network(self):
        """The SCM as a pgmpy DiscreteBayesianNetwork over U and V with deterministic CPDs for V."""
        TabularCPD, DiscreteBayesianNetwork, _ = _pgmpy()
        model = DiscreteBayesianNetwork()
        model.add_nodes_from([*self.exogenous, *self.diagram.nodes])
        cpds = [TabularCPD(u, 2, [[1 - self.q[u]], [self.q[u]]]) for u in self.exogenous]
        for v in self.diagram.nodes:
            parents, exo = self._inputs(v)
            evidence = parents + exo
            model.add_edges_from((p, v) for p in evidence)
            ones = [self.c[v] ^ (sum(bits) % 2) for bits in product((0, 1), repeat=len(evidence))]
            table = np.array([[1 - b for b in ones], ones], dtype=float)
            cpds.append(TabularCPD(v, 2, table, evidence=evidence, evidence_card=[2] * len(evidence)))
        model.add_cpds(*cpds)
        model.check_model()
        return model

    def interventional_mean(self, target: str, do: Mapping[str, int]) -> float:
        """E[target | do(do)], exactly, by variable elimination on the mutilated network."""
        *_, VariableElimination = _pgmpy()
        model = self.bayesian_network.do(list(do)) if do else self.bayesian_network
        query = VariableElimination(model).query([target], evidence=dict(do), show_progress=False)
        return float(query.values[1])

    @cached_property
    def _sampling_plan(self) -> tuple[np.ndarray, tuple[tuple[int, bool, tuple[int, ...], tuple[int, ...]], ...]]:
        """What :meth:`sample_values` computes, fixed by the diagram: P(U = 1) per exogenous column, and per node in
        topological order (its column, c_V, its parents' columns, its exogenous inputs' columns)."""
        col_u = {name: i for i, name in enumerate(self.exogenous)}
        col_v = {name: i for i, name in enumerate(self.diagram.nodes)}
        plan = []
        for v in self.diagram.topological_order():
            parents, exo = self._inputs(v)
            plan.append((col_v[v], bool(self.c[v]), tuple(col_v[p] for p in parents), tuple(col_u[e] for e in exo)))
        return np.array([self.q[name] for name in self.exogenous]), tuple(plan)

    def sample_values(self, noise: np.ndarray, intervened: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Vectorised draws of every node, (n, n_nodes) bool in ``diagram.nodes`` order.

        ``noise`` holds uniforms (n, n_exogenous); ``intervened`` and ``values`` have shape
        (n, n_nodes): where ``intervened`` is true the node is set to ``values`` (do()),
        otherwise computed by f_V.
        """
        q, plan = self._sampling_plan
        u = noise < q
        state = np.zeros((noise.shape[0], len(plan)), dtype=bool)
        for j, c, parents, exo in plan:
            x = np.full(noise.shape[0], c)
            for p in parents:
                x ^= state[:, p]
            for e in exo:
                x ^= u[:, e]
            state[:, j] = np.where(intervened[:, j], values[:, j], x)
        return state
