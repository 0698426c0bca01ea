"""The Email Campaign experiment of Huang, Zhang & Wu (AAAI-22, §4.1, Appendix E.1).

The SCM of Lu et al. (2020) as the paper gives it: Table 4 (variables and domains), Table 5
(P(I4 | X1, X2, X3)) and the remaining conditionals

    P(I2 = 1 | A1, A2, I4) = (A1 + A2 + I4) / 12,   P(I1 = 1 | A1, A2, I2) = (A1 + A2 + I2) / 10,
    P(I3 = 1 | I2 = 1) = 0.4,   P(I3 = 1 | I2 = 2) = 0.6,   R = (I1 + I2 + I3 + A3) / 12 + N(0, sigma^2).

Read as our reading resolves it (docs/papers/fairness.md#fairness-email): Table 5's row codes are X - 1 (A1); I3 is
binary and I4 four-valued, as the CPTs require, although Table 4 lists them the other way round (A2);
the user features are independent (uniform by default, A3); the sensitive attribute is gender X1
with s+ = 2, s- = 1 (A4); the graph's edges are the CPTs' arguments plus the policy edges X -> A
(A5). The network is a pgmpy :class:`DiscreteBayesianNetwork` in which the arm features are roots
(conditioning on them is intervening); exact arm means come from variable elimination on the
mutilated network, counterfactual means from the twin network (abduction–action–prediction), the
d-separation set from brute-force enumeration — nothing is hard-coded but the paper's tables.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import networkx as nx
import numpy as np
import pandas as pd
import pyarrow as pa

# After causal.counterfactual, which silences pgmpy's own deprecation warning on import.
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

from causal_bandits import store
from causal_bandits.causal.counterfactual import counterfactual_table, cpd_table, interventional_table
from causal_bandits.causal.dseparation import min_domain_dseparator
from causal_bandits.papers.fairness.instance import assignments, cell_model, variables_document
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

EXPERIMENT = "email"
PROVENANCE = "paper-scm"
REWARD = "R"

#: Table 4 of the paper, verbatim ("Propose" is the paper's spelling of A2, "purpose" in §4.1).
TABLE4 = (
    ("Click (R)", "(0,1)"),
    ("Gender (X1)", "(1,2)"),
    ("Age (X2)", "(1,2)"),
    ("Occupation (X3)", "(1,2)"),
    ("Product (A1)", "(1,2,3)"),
    ("Propose (A2)", "(1,2,3,4)"),
    ("Send time (A3)", "(1,2,3)"),
    ("Email body template (I1)", "(1,2)"),
    ("Fitness (I2)", "(1,2)"),
    ("Subject length (I3)", "(1,2,3,4)"),
    ("User query (I4)", "(1,2)"),
)
#: Table 5 of the paper, verbatim: P(I4 = i | X1, X2, X3) for i = 1..4, rows coded 0/1.
TABLE5 = {
    (0, 0, 0): (0.4, 0.3, 0.2, 0.1),
    (0, 0, 1): (0.3, 0.4, 0.2, 0.1),
    (0, 1, 0): (0.6, 0.1, 0.2, 0.1),
    (0, 1, 1): (0.5, 0.2, 0.2, 0.1),
    (1, 0, 0): (0.1, 0.3, 0.2, 0.4),
    (1, 0, 1): (0.1, 0.4, 0.2, 0.3),
    (1, 1, 0): (0.1, 0.1, 0.2, 0.6),
    (1, 1, 1): (0.1, 0.2, 0.2, 0.5),
}
#: (name, label, domain used, role); I3 / I4 domains follow the CPTs (ambiguity A2).
VARIABLES = (
    ("X1", "Gender", (1, 2), "X"),
    ("X2", "Age", (1, 2), "X"),
    ("X3", "Occupation", (1, 2), "X"),
    ("A1", "Product", (1, 2, 3), "A"),
    ("A2", "Purpose", (1, 2, 3, 4), "A"),
    ("A3", "Send time", (1, 2, 3), "A"),
    ("I1", "Email body template", (1, 2), "I"),
    ("I2", "Fitness", (1, 2), "I"),
    ("I3", "Subject length", (1, 2), "I"),
    ("I4", "User query", (1, 2, 3, 4), "I"),
)
REWARD_COEF = {"I1": 1 / 12, "I2": 1 / 12, "I3": 1 / 12, "A3": 1 / 12}
DOMAIN = {name: domain for name, _, domain, _ in VARIABLES}
ROLE = {name: role for name, _, _, role in VARIABLES}
X_VARS = tuple(v for v, *_ in VARIABLES if ROLE[v] == "X")
A_VARS = tuple(v for v, *_ in VARIABLES if ROLE[v] == "A")
I_VARS = tuple(v for v, *_ in VARIABLES if ROLE[v] == "I")


def _cpd(name: str, parents: Sequence[str], p_first: np.ndarray | None = None, table: np.ndarray | None = None):
    """A CPD from P(name = first value | parents) (binary) or a full (card, n_configs) table."""
    if table is None:
        assert p_first is not None  # callers give p_first or table
        table = np.vstack([p_first, 1.0 - p_first])
    names = {v: list(DOMAIN[v]) for v in (name, *parents)}
    return TabularCPD(
        name,
        len(DOMAIN[name]),
        table,
        evidence=list(parents) or None,
        evidence_card=[len(DOMAIN[p]) for p in parents] or None,
        state_names=names,
    )


def _levels(*parents: str) -> list[np.ndarray]:
    """Values of ``parents`` over their configurations in pgmpy's column order (last fastest)."""
    grid = np.array(list(np.ndindex(*(len(DOMAIN[p]) for p in parents))))
    return [np.asarray(DOMAIN[p])[grid[:, k]] for k, p in enumerate(parents)]


def email_network(config: Mapping[str, Any]) -> DiscreteBayesianNetwork:
    """The Email SCM as a pgmpy network (arm features are uniform roots: do(A) = conditioning)."""
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from([v for v, *_ in VARIABLES])
    cpds = []
    for x in X_VARS:
        p2 = float(config["p_x_equals_2"][x])
        cpds.append(_cpd(x, (), table=np.array([[1.0 - p2], [p2]])))
    for a in A_VARS:
        k = len(DOMAIN[a])
        cpds.append(_cpd(a, (), table=np.full((k, 1), 1.0 / k)))
    rows = [
        TABLE5[cast(tuple[int, int, int], tuple(int(v) - 1 for v in config_x))] for config_x in zip(*_levels(*X_VARS))
    ]  # A1: code = X - 1
    cpds.append(_cpd("I4", X_VARS, table=np.array(rows).T))
    a1, a2, i4 = _levels("A1", "A2", "I4")
    cpds.append(_cpd("I2", ("A1", "A2", "I4"), (a1 + a2 + i4) / 12.0))
    a1, a2, i2 = _levels("A1", "A2", "I2")
    cpds.append(_cpd("I1", ("A1", "A2", "I2"), (a1 + a2 + i2) / 10.0))
    (i2,) = _levels("I2")
    cpds.append(_cpd("I3", ("I2",), np.where(i2 == 1, 0.4, 0.6)))
    for cpd in cpds:
        bn.add_edges_from((p, cpd.variable) for p in cpd.variables[1:])
    bn.add_cpds(*cpds)
    bn.check_model()
    return bn


def policy_edges() -> list[tuple[str, str]]:
    """X -> A: the arm-selection mechanism (soft intervention target, Figure 1)."""
    return [(x, a) for x in X_VARS for a in A_VARS]


def email_diagram(bn: DiscreteBayesianNetwork, with_policy: bool = True) -> CausalDiagram:
    """Figure 2(a): the network's edges, the reward's parents and (optionally) the policy edges."""
    edges = list(bn.edges()) + [(v, REWARD) for v in REWARD_COEF] + (policy_edges() if with_policy else [])
    return CausalDiagram([*bn.nodes(), REWARD], edges)


def _reward_grid(axes: Sequence[str]) -> np.ndarray:
    """The reward's mean as an array over the domains of ``axes`` (variables absent from R add 0)."""
    grid = np.zeros([len(DOMAIN[v]) for v in axes])
    for k, v in enumerate(axes):
        if v in REWARD_COEF:
            shape = [1] * len(axes)
            shape[k] = len(DOMAIN[v])
            grid = grid + REWARD_COEF[v] * np.asarray(DOMAIN[v], dtype=float).reshape(shape)
    return grid


def _evidence(context: np.ndarray) -> dict[str, int]:
    return {x: DOMAIN[x][int(i)] for x, i in zip(X_VARS, context)}


def exact_means(bn: DiscreteBayesianNetwork, contexts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mu[c, a] = E[R | do(a), x_c], P(I | do(a), x_c) as (n_ctx, *A cards, *I cards))."""
    tables = np.stack([interventional_table(bn, I_VARS, A_VARS, _evidence(x)) for x in contexts])
    reward = _reward_grid((*A_VARS, *I_VARS))
    axes = tuple(range(1 + len(A_VARS), tables.ndim))
    return (tables * reward).sum(axis=axes).reshape(len(contexts), -1), tables


def counterfactual_means(
    bn: DiscreteBayesianNetwork, contexts: np.ndarray, sensitive: str, s_values: tuple[int, int]
) -> np.ndarray:
    """mu_cf[c, a, s] = E[R(a, S := s*) | x_c] for s* = (s+, s-), by abduction–action–prediction."""
    reward = _reward_grid((sensitive, *A_VARS, *I_VARS))
    out = []
    for x in contexts:
        table = counterfactual_table(bn, I_VARS, _evidence(x), (sensitive, *A_VARS))
        means = (table * reward).sum(axis=tuple(range(1 + len(A_VARS), table.ndim)))  # (S, *A)
        out.append(np.stack([means[DOMAIN[sensitive].index(s)].ravel() for s in s_values], axis=1))
    return np.stack(out)


def _p_z(tables: np.ndarray, Z: Sequence[str]) -> np.ndarray:
    """P(z | x, a) over Z's assignments from the joint of I given (x, do(a))."""
    drop = tuple(1 + len(A_VARS) + I_VARS.index(v) for v in I_VARS if v not in Z)
    marg = tables.sum(axis=drop)
    return marg.reshape(tables.shape[0], -1, int(np.prod([len(DOMAIN[v]) for v in Z], dtype=int)))


def _context_probs(config: Mapping[str, Any], contexts: np.ndarray) -> np.ndarray:
    """P(context): the user features independent, each 2 with its configured probability."""
    p2 = np.array([float(config["p_x_equals_2"][x]) for x in X_VARS])
    return np.prod(np.where(contexts == 1, p2, 1.0 - p2), axis=1)


def _graph_document(diagram) -> dict[str, Any]:
    """The causal graph and the policy's edges, as the instance document lists them."""
    return {
        "nodes": list(diagram.nodes),
        "edges": sorted(map(list, diagram.directed)),
        "policy_edges": [list(e) for e in policy_edges()],
    }


def _intermediate(bn) -> list[dict[str, Any]]:
    """The intermediate variables' CPTs, in topological order (ties by name)."""
    out = []
    for v in nx.lexicographical_topological_sort(nx.DiGraph(bn.edges())):
        if ROLE[v] == "I":
            parents, table = cpd_table(bn, v)
            out.append({"name": v, "parents": parents, "cpt": table.tolist()})
    return out


def instance_document(config: Mapping[str, Any], dsep_criterion: str = "W_then_Z") -> dict[str, Any]:
    """Everything the Email runs, tables and claims need (see ``papers/fairness/instance``)."""
    bn = email_network(config)
    diagram = email_diagram(bn)
    graph = nx.DiGraph(sorted(diagram.directed))
    cards = {v: len(d) for v, d in DOMAIN.items()}
    columns = {v: i for i, (v, *_) in enumerate(VARIABLES)}
    order = [v for v, *_ in VARIABLES]
    dsep = min_domain_dseparator(graph, REWARD, order, [*X_VARS, *A_VARS], cards, dsep_criterion)
    pa_r = tuple(v for v in order if v in diagram.parents(REWARD))
    contexts, arms = assignments([cards[v] for v in X_VARS]), assignments([cards[v] for v in A_VARS])
    sensitive = config["sensitive"]
    s_values = (int(config["s_plus"]), int(config["s_minus"]))
    mu, tables = exact_means(bn, contexts)
    mu_cf = counterfactual_means(bn, contexts, sensitive, s_values)
    b_vars = sorted(set(diagram.descendants(sensitive)) & set(X_VARS) - {sensitive})
    models = {}
    for name, W in (("ducb", dsep.W), ("cucb", pa_r)):
        Z = tuple(v for v in W if ROLE[v] == "I")
        models[name] = cell_model(
            cards=cards,
            columns=columns,
            W=W,
            Z=Z,
            x_vars=X_VARS,
            a_vars=A_VARS,
            contexts=contexts,
            arms=arms,
            p_z=_p_z(tables, Z),
            sensitive=sensitive,
            s_values=cast(tuple[int, int], tuple(DOMAIN[sensitive].index(s) for s in s_values)),
            b_vars=b_vars,
            cf_mode="bounds" if b_vars else "identifiable",
        ).to_document()
    return {
        "experiment": EXPERIMENT,
        "data_provenance": PROVENANCE,
        "variables": variables_document(VARIABLES),
        "user_features": list(X_VARS),
        "arm_features": list(A_VARS),
        "contexts": contexts.tolist(),
        "context_probs": _context_probs(config, contexts).tolist(),
        "arms": arms.tolist(),
        "intermediate": _intermediate(bn),
        "reward": {"name": REWARD, "coef": REWARD_COEF, "sigma": float(config["sigma"])},
        "mu": mu.tolist(),
        "mu_cf": mu_cf.tolist(),
        "delta_true": (mu_cf[:, :, 0] - mu_cf[:, :, 1]).tolist(),
        "optimal_arms": [np.flatnonzero(np.isclose(m, m.max(), rtol=0, atol=1e-12)).tolist() for m in mu],
        "sensitive": {"name": sensitive, "s_plus": s_values[0], "s_minus": s_values[1], "descendants_in_X": b_vars},
        "graph": _graph_document(diagram),
        "dsep": {
            **{k: list(getattr(dsep, k)) for k in ("W", "Z")},
            **{k: getattr(dsep, k) for k in ("domain_W", "domain_Z", "n_valid")},
            "criterion": dsep_criterion,
        },
        "pa_R": list(pa_r),
        "models": models,
    }


def truth_frame(doc: Mapping[str, Any]) -> pd.DataFrame:
    """One row per (context, arm): features, exact mean, counterfactual means, discrepancy, optimality."""
    contexts, arms = np.asarray(doc["contexts"]), np.asarray(doc["arms"])
    mu, mu_cf = np.asarray(doc["mu"]), np.asarray(doc["mu_cf"])
    c: np.ndarray
    a: np.ndarray
    c, a = np.meshgrid(np.arange(len(contexts)), np.arange(len(arms)), indexing="ij")
    c, a = c.ravel(), a.ravel()
    frame = {"context_id": c.astype(np.int16)}
    for k, x in enumerate(X_VARS):
        frame[x.lower()] = (contexts[c, k] + 1).astype(np.int8)
    frame["arm_id"] = a.astype(np.int16)
    for k, v in enumerate(A_VARS):
        frame[v.lower()] = (arms[a, k] + 1).astype(np.int8)
    frame.update(
        {
            "mu": mu[c, a],
            "mu_cf_splus": mu_cf[c, a, 0],
            "mu_cf_sminus": mu_cf[c, a, 1],
            "delta_true": mu_cf[c, a, 0] - mu_cf[c, a, 1],
            "is_optimal": np.isclose(mu[c, a], mu.max(axis=1)[c], rtol=0, atol=1e-12),
        }
    )
    return pd.DataFrame(frame)


def table4_frame(bn: DiscreteBayesianNetwork) -> pd.DataFrame:
    """Table 4 re-emitted: the paper's domains verbatim beside the domains of the network."""
    used = {v: "(" + ",".join(map(str, bn.get_cpds(v).state_names[v])) + ")" for v in bn.nodes()}
    rows = []
    for label, domain in TABLE4:
        name = label[label.index("(") + 1 : -1]
        ours = used.get(name, "continuous: (I1+I2+I3+A3)/12 + N(0, sigma^2), not a network node")
        rows.append({"variable": label, "domain_paper": domain, "domain_used": ours, "same": ours == domain})
    return pd.DataFrame(rows)


def table5_frame(bn: DiscreteBayesianNetwork) -> pd.DataFrame:
    """Table 5 re-emitted from the network's CPD of I4 (row codes X - 1, as in the paper)."""
    parents, table = cpd_table(bn, "I4")
    states = [bn.get_cpds(p).state_names[p] for p in parents]
    rows = []
    for config, probs in zip(np.ndindex(*(len(s) for s in states)), table):
        code = "(" + ",".join(str(states[k][i] - 1) for k, i in enumerate(config)) + ")"
        rows.append({"(X1,X2,X3)": code, **{f"i={i + 1}": float(p) for i, p in enumerate(probs)}})
    return pd.DataFrame(rows)


def instance_step(job: Job) -> None:
    """Rule fairness_email_instance: the Email SCM's exact quantities, d-separation set and cell models
    (:func:`instance_document`), and its truth table."""
    p = job.params
    doc = instance_document(p.email, p.dsep_criterion)
    store.write_json(job.output.instance, doc)
    truth = pa.Table.from_pandas(truth_frame(doc), preserve_index=False)
    store.write_table(job.output.truth, truth, {**store.provenance(p.email), "data_provenance": PROVENANCE})
    log.info(
        "W = %s (|W| = %d), Pa(R) = %s, optimal arms %s",
        doc["dsep"]["W"],
        doc["dsep"]["domain_W"],
        doc["pa_R"],
        doc["optimal_arms"],
    )
