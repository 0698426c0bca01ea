"""Exact interventional and counterfactual queries on discrete pgmpy networks.

A discrete Bayesian network is read as the SCM whose structural equations are inverse CDFs:

    V = f_V(pa, U_V) = #{ j : U_V >= P(V <= v_j | pa) },   U_V ~ Uniform(0, 1) independent,

which is also how the bandit environments draw their variables
(:class:`~causal_bandits.bandits.causal_environment.IntermediateNode`). Only the interval of the
common refinement of all of V's CDF breakpoints that U_V falls in matters, so U_V becomes a
discrete exogenous variable over those intervals ("response-function" states) with
probabilities equal to their lengths, and f_V a deterministic CPD.

Counterfactuals follow Pearl's abduction–action–prediction, done exactly with the twin network
(Balke & Pearl 1994): a factual copy of every variable carries the evidence (abduction: the
exogenous states are conditioned on it), a counterfactual copy of every descendant of the
intervened variables shares the factual copy's U_V but has the intervened variables cut from
their parents (action), and variable elimination on the twin network gives the counterfactual
distribution of the targets (prediction). Intervened variables are roots of the twin network
with a uniform prior, so conditioning on their value is the intervention; one query returns the
whole table over their values.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence

import networkx as nx
import numpy as np

warnings.filterwarnings("ignore", message=".*StructureScore.*", category=FutureWarning)

from pgmpy.factors.discrete import DiscreteFactor, TabularCPD  # noqa: E402
from pgmpy.inference import VariableElimination  # noqa: E402
from pgmpy.models import DiscreteBayesianNetwork  # noqa: E402

BREAKPOINT_TOLERANCE = 1e-12


def cpd_table(bn: DiscreteBayesianNetwork, v: str) -> tuple[list[str], np.ndarray]:
    """(parents in the CPD's order, P(v | parents) as (n_parent_configs, card)); last parent fastest."""
    cpd = bn.get_cpds(v)
    parents = list(cpd.variables[1:])
    return parents, cpd.get_values().T.copy()


def response_functions(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(probabilities of U's states, value index f[config, state]) of the inverse-CDF equation."""
    cumulative = np.cumsum(table, axis=1)[:, :-1]
    points = np.unique(np.concatenate([[0.0, 1.0], np.clip(cumulative.ravel(), 0.0, 1.0)]))
    points = points[np.r_[True, np.diff(points) > BREAKPOINT_TOLERANCE]]
    points[-1] = 1.0
    lengths = np.diff(points)
    mids = (points[:-1] + points[1:]) / 2.0
    values = (mids[None, :, None] >= cumulative[:, None, :]).sum(axis=2)
    return lengths, values


def _state_names(bn: DiscreteBayesianNetwork, v: str) -> list:
    return list(bn.get_cpds(v).state_names[v])


def _deterministic_cpd(
    name: str, states: list, parents: Sequence[str], parent_states: Sequence[list], u: str, n_u: int, values: np.ndarray
) -> TabularCPD:
    n_configs = values.shape[0]
    table = np.zeros((len(states), n_configs * n_u))
    table[values.ravel(), np.arange(n_configs * n_u)] = 1.0
    names = {name: states, **dict(zip(parents, parent_states)), u: list(range(n_u))}
    return TabularCPD(
        name,
        len(states),
        table,
        evidence=[*parents, u],
        evidence_card=[*(len(s) for s in parent_states), n_u],
        state_names=names,
    )


def twin_network(
    bn: DiscreteBayesianNetwork, do_vars: Iterable[str], targets: Iterable[str] = ()
) -> tuple[DiscreteBayesianNetwork, dict[str, str]]:
    """The twin network of ``bn`` for an intervention on ``do_vars``.

    Returns the network and the map from each variable to the node that carries its
    counterfactual value: ``V'`` for the intervened variables, their descendants and the
    ``targets``; ``V`` itself for the other variables (their counterfactual equals the factual).
    """
    graph = nx.DiGraph(bn.edges())
    graph.add_nodes_from(bn.nodes())
    do_vars = set(do_vars)
    copied = set(do_vars) | set(targets)
    for v in do_vars:
        copied |= nx.descendants(graph, v)
    cf = {v: (f"{v}'" if v in copied else v) for v in graph.nodes}
    twin = DiscreteBayesianNetwork()
    cpds = []
    for v in nx.lexicographical_topological_sort(graph):
        parents, table = cpd_table(bn, v)
        states = _state_names(bn, v)
        parent_states = [_state_names(bn, p) for p in parents]
        lengths, values = response_functions(table)
        u = f"U[{v}]"
        twin.add_node(u)
        cpds.append(TabularCPD(u, lengths.size, lengths[:, None], state_names={u: list(range(lengths.size))}))
        twin.add_edges_from((p, v) for p in [*parents, u])
        cpds.append(_deterministic_cpd(v, states, parents, parent_states, u, lengths.size, values))
        if v in do_vars:  # action: a root whose value is set by conditioning on it
            twin.add_node(cf[v])
            cpds.append(
                TabularCPD(
                    cf[v], len(states), np.full((len(states), 1), 1.0 / len(states)), state_names={cf[v]: states}
                )
            )
        elif cf[v] != v:
            cf_parents = [cf[p] for p in parents]
            twin.add_edges_from((p, cf[v]) for p in [*cf_parents, u])
            cpds.append(_deterministic_cpd(cf[v], states, cf_parents, parent_states, u, lengths.size, values))
    twin.add_cpds(*cpds)
    twin.check_model()
    return twin, cf


def _ordered(factor: DiscreteFactor, order: Sequence[str]) -> np.ndarray:
    return np.transpose(factor.values, [factor.variables.index(v) for v in order])


def _per_setting(joint: np.ndarray, n_do: int) -> np.ndarray:
    """Normalise a joint over (do values..., target values...) within each do setting."""
    axes = tuple(range(n_do, joint.ndim))
    total = joint.sum(axis=axes, keepdims=True)
    if np.any(total <= 0):
        raise ValueError("an intervention setting has probability zero given the evidence")
    return joint / total


def counterfactual_table(
    bn: DiscreteBayesianNetwork, targets: Sequence[str], evidence: Mapping[str, object], do_vars: Sequence[str]
) -> np.ndarray:
    """P(targets_{do_vars = d} | evidence) for every d: abduction–action–prediction, exactly.

    Axes: one per variable of ``do_vars`` then one per target, each over the variable's states
    in the network's order.
    """
    twin, cf = twin_network(bn, do_vars, targets)
    query = [cf[d] for d in do_vars] + [cf[t] for t in targets]
    factor = VariableElimination(twin).query(query, evidence=dict(evidence), joint=True, show_progress=False)
    return _per_setting(_ordered(factor, query), len(do_vars))


def interventional_table(
    bn: DiscreteBayesianNetwork, targets: Sequence[str], do_vars: Sequence[str], evidence: Mapping[str, object]
) -> np.ndarray:
    """P(targets | do(do_vars = d), evidence) for every d, by variable elimination on the mutilated network.

    ``evidence`` may only name non-descendants of ``do_vars`` (pre-intervention covariates such as
    the user context), for which conditioning and intervening commute. Axes as in
    :func:`counterfactual_table`.
    """
    cut = bn.do(list(do_vars))
    for d in do_vars:
        states = _state_names(bn, d)
        cut.remove_cpds(cut.get_cpds(d))
        cut.add_cpds(TabularCPD(d, len(states), np.full((len(states), 1), 1.0 / len(states)), state_names={d: states}))
    query = [*do_vars, *targets]
    factor = VariableElimination(cut).query(query, evidence=dict(evidence), joint=True, show_progress=False)
    return _per_setting(_ordered(factor, query), len(do_vars))
