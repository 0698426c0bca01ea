"""BCE (Huang & Wu, Algorithm 1): bounds on the conditional causal effect P_x(y | c) from
confounded, selection-biased offline data.

Two bounds are derived and the tighter ends kept (lines 16-18), then clipped to [0, 1]:

* c-component factorisation (lines 5-10, Eq. 7 / Theorem 3): D = An({Y} ∪ C) in G[V \\ X], its
  c-components D_1..D_l, each c-factor recovered or bounded by RC* (Algorithm 2,
  :mod:`causal_bandits.causal.recoverability`), and
  L_q = Σ_{D \\ {Y, C}} Π_i L_{Q[D_i]} / P(c),   U_q = Σ_{D \\ {Y, C}} Π_i U_{Q[D_i]} / P(c);
* substitute interventions (lines 11-15, Eq. 8-10 / Theorem 4): for every set W that FindRSI
  (Algorithm 3, :mod:`causal_bandits.causal.substitute`) returns,
  L_w = max_W min_w P̂(y | x, c, w, S=1),   U_w = min_W max_w P̂(y | x, c, w, S=1);
  a cell (x, c, w) with fewer than ``min_count`` selected rows is unknown and contributes 0 to the
  min and 1 to the max.

Everything is computed for all (context, arm) cells at once, as arrays of shape
(n_contexts, n_arms) indexed by binary configurations (first variable most significant). The
same code runs on a sample (counts) and on the population distribution P(v | S=1) (exact).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import networkx as nx
import numpy as np
from pgmpy.factors.discrete import DiscreteFactor

from causal_bandits.causal.joint import Joint
from causal_bandits.causal.recoverability import rc_star
from causal_bandits.causal.substitute import find_rsi
from causal_bandits.errors import DataError
from causal_bandits.scm.diagram import CausalDiagram


class BanditGraph(Protocol):
    """The graph and roles BCE needs (a :class:`~causal_bandits.scm.cpt.CPTModel` is one)."""

    selection: str
    context: tuple[str, ...]
    treatment: tuple[str, ...]
    outcome: str

    # Read-only, so that CPTModel's (cached) properties qualify.
    @property
    def dag(self) -> nx.DiGraph:
        """Latent variables explicit, selection node included."""

    @property
    def diagram(self) -> CausalDiagram:
        """Observed variables and S, latents projected to bidirected edges."""

    @property
    def observed(self) -> tuple[str, ...]:
        """The variables recorded in the offline data."""


@dataclass(frozen=True)
class Plan:
    """What Algorithm 1 derives from the graph alone: D and its c-components (line 6), FindRSI's D (line 12)."""

    D: frozenset[str]
    components: tuple[frozenset[str], ...]
    substitutes: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Bounds:
    """Algorithm 1's output per (context, arm) cell, with both intermediate bounds."""

    lq: np.ndarray
    uq: np.ndarray
    substitute: SubstituteBounds  # L_w, U_w
    lower: np.ndarray
    upper: np.ndarray
    recovered: tuple[bool, ...]  # per c-component of D: was Q[D_i] recovered (else [0, 1])


def plan(graph: BanditGraph) -> Plan:
    g = graph.diagram.without(graph.treatment)
    d = g.ancestors({graph.outcome, *graph.context})
    return Plan(
        D=d,
        components=tuple(g.subgraph(d).c_components()),
        substitutes=find_rsi(
            graph.dag,
            observed=graph.observed,
            treatment=graph.treatment,
            context=graph.context,
            outcome=graph.outcome,
            selection=graph.selection,
        ),
    )


def cells(values: np.ndarray, n_treatment: int, n_context: int) -> np.ndarray:
    """An array with axes (X..., C...) as shape (n_contexts, n_arms)."""
    values = np.asarray(values).reshape(2**n_treatment, 2**n_context)
    return values.T


@dataclass(frozen=True)
class SubstituteBounds:
    """(L_w, U_w) per cell, with the selected-row count of the cell (x, c, w) attaining each."""

    lower: np.ndarray
    upper: np.ndarray
    n_lower: np.ndarray
    n_upper: np.ndarray


def substitute_bounds(
    joint: Joint,
    *,
    outcome: str,
    treatment: Sequence[str],
    context: Sequence[str],
    substitutes: Sequence[Sequence[str]],
    min_count: int = 1,
) -> SubstituteBounds:
    """L_w, U_w of Eq. 10 in its conditional form (docs/papers/bounds.md#bounds-bce); [0, 1] (count 0) when no W is
    given."""
    n_x, n_c = len(treatment), len(context)
    shape = (2**n_c, 2**n_x)
    out = SubstituteBounds(np.zeros(shape), np.ones(shape), np.zeros(shape), np.zeros(shape))
    for w in substitutes:
        p, n = joint.conditional(outcome, [*treatment, *context, *w], min_count)
        p, n = p.reshape(2**n_x, 2**n_c, -1), n.reshape(2**n_x, 2**n_c, -1)
        n = np.where(np.isnan(p), 0.0, n)  # an unknown branch carries no evidence
        for value, count, fill, pick, better in (
            (out.lower, out.n_lower, 0.0, np.argmin, np.greater),
            (out.upper, out.n_upper, 1.0, np.argmax, np.less),
        ):
            q = np.where(np.isnan(p), fill, p)
            k = pick(q, axis=2)[..., None]
            new = cells(np.take_along_axis(q, k, 2), n_x, n_c)
            new_n = cells(np.take_along_axis(n, k, 2), n_x, n_c)
            improve = better(new, value)
            value[improve], count[improve] = new[improve], new_n[improve]
    return out


def _array(factor: DiscreteFactor, variables: Sequence[str]) -> np.ndarray:
    """``factor`` as an array over ``variables`` (constant along the ones not in its scope)."""
    values, names = factor.values, list(factor.variables)
    extra = [v for v in variables if v not in names]
    values = values.reshape(values.shape + (1,) * len(extra))
    values = np.transpose(values, [(names + extra).index(v) for v in variables])
    return np.broadcast_to(values, (2,) * len(variables))


def _constant(variables, value: float) -> DiscreteFactor:
    variables = sorted(variables)
    return DiscreteFactor(variables, [2] * len(variables), np.full(2 ** len(variables), value))


def factorisation_bounds(
    graph: BanditGraph, joint: Joint, p_context: np.ndarray, the_plan: Plan
) -> tuple[np.ndarray, np.ndarray, tuple[bool, ...]]:
    """(L_q, U_q, recovered) of Eq. 7 for Y = 1: RC* on each c-component of D."""
    observed = joint.marginal(graph.observed)
    factor = observed.factor()
    recovered = [rc_star(e, factor, graph.diagram, graph.selection) for e in the_plan.components]
    keep = the_plan.D | set(graph.treatment)
    summed = the_plan.D - {graph.outcome, *graph.context}
    out = []
    for fallback in (0.0, 1.0):
        product = DiscreteFactor([], [], [1.0])
        for e, q in zip(the_plan.components, recovered):
            product = product.product(_constant(e, fallback) if q is None else q, inplace=False)
        extra = [v for v in product.variables if v not in keep]
        if extra:  # arguments Q[D_i] does not depend on: average them out (exact in the population)
            weights = observed.marginal(extra)
            product = product.product(
                DiscreteFactor(extra, [2] * len(extra), weights.weights / weights.total), inplace=False
            ).marginalize(extra, inplace=False)
        values = _array(product, [*graph.treatment, *graph.context, graph.outcome, *sorted(summed)])
        values = values[(slice(None),) * (len(graph.treatment) + len(graph.context)) + (1,)]
        values = values.sum(axis=tuple(range(values.ndim - len(summed), values.ndim)))
        out.append(cells(values, len(graph.treatment), len(graph.context)) / np.asarray(p_context)[:, None])
    return out[0], out[1], tuple(q is not None for q in recovered)


def bce(
    graph: BanditGraph,
    joint: Joint,
    p_context: np.ndarray,
    *,
    min_count: int = 1,
    the_plan: Plan | None = None,
) -> Bounds:
    """Algorithm 1 for Y = 1 and every (context, arm) cell.

    ``joint`` holds the selected data (or P(v | S=1)) over at least the observed variables;
    ``p_context`` is P(c) per context configuration (the paper's P_x(c) = P(c),
    docs/papers/bounds.md#bounds-a-cfactor-set).
    """
    p_context = np.asarray(p_context, dtype=float)
    if p_context.shape != (2 ** len(graph.context),) or (p_context <= 0).any():
        raise DataError(
            f"P(c) must be positive for each of the {2 ** len(graph.context)} contexts, "
            f"got {p_context.tolist()}; estimate it from a sample that covers every context"
        )
    the_plan = plan(graph) if the_plan is None else the_plan
    lq, uq, recovered = factorisation_bounds(graph, joint, p_context, the_plan)
    w = substitute_bounds(
        joint,
        outcome=graph.outcome,
        treatment=graph.treatment,
        context=graph.context,
        substitutes=the_plan.substitutes,
        min_count=min_count,
    )
    lower = np.clip(np.maximum(lq, w.lower), 0.0, 1.0)
    upper = np.clip(np.minimum(uq, w.upper), 0.0, 1.0)
    return Bounds(lq, uq, w, lower, upper, recovered)
