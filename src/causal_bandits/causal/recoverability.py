"""RC* (Huang & Wu, Algorithm 2): recover a c-factor Q[E] from selection-biased data, else bound it.

RC* is the RC algorithm of Correa, Tian & Bareinboim (2019) with a [0, 1] fallback where Q[E] is
not recoverable (Algorithm 2, line 9). Given a c-component E, the current distribution P (at the
top level P(v | S=1)) and the causal diagram G over the observed variables and S:

1. (lines 4-6) marginalise the variables outside An(E) ∪ An(S) and recurse on that subgraph;
2. (line 7) C = the union of the c-components of G that contain no ancestor of S; each such Q[C_i]
   is recoverable (Bareinboim & Tian 2015, Lemma 3) and computed by Tian & Pearl's lemma
   (:func:`c_factor`) in a topological order that puts An(S) first;
3. (lines 8-10) C = ∅: Q[E] is not recoverable, bound it by [0, 1];
4. (lines 12-14) E inside some C_i: Q[E] = Identify(E, C_i, Q[C_i]) (Tian & Pearl 2003); if
   Identify fails, Q[E] is not recoverable (Correa et al. 2019) and the bound is [0, 1];
5. (line 15) otherwise recurse with P / Π Q[C_i] on G[V \\ C].

Factors are pgmpy :class:`DiscreteFactor` objects, exact on a population distribution and plug-in
estimates on a sample (0/0 = 0, pgmpy's convention). A factor's scope may hold variables that are
no longer nodes of the current graph (the "fixed" arguments of an interventional distribution);
they are never summed over.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pgmpy.factors.discrete import DiscreteFactor

from causal_bandits.scm.diagram import CausalDiagram


def _sum_out(factor: DiscreteFactor, variables) -> DiscreteFactor:
    drop = [v for v in factor.variables if v in set(variables)]
    return factor.marginalize(drop, inplace=False) if drop else factor


def _order(diagram: CausalDiagram, first: frozenset[str] = frozenset()) -> list[str]:
    """A topological order of ``diagram`` with the (ancestral) set ``first`` placed first."""
    topo = diagram.topological_order()
    return [v for v in topo if v in first] + [v for v in topo if v not in first]


def c_factor(factor: DiscreteFactor, diagram: CausalDiagram, order: Sequence[str], component) -> DiscreteFactor:
    """Q[component] from ``factor`` = Q[H] over the nodes ``order`` of ``diagram`` (Tian & Pearl 2002).

    Q[C_j] = Π_{V_i ∈ C_j} Q[H^(i)] / Q[H^(i-1)], H^(i) the first i nodes of ``order``; each ratio
    depends only on pa(T_i), T_i the c-component of G[H^(i)] that contains V_i, so the other prefix
    nodes are summed out of numerator and denominator (the ratio is then the plug-in conditional
    P̂(v_i | pa(T_i) \\ {v_i}) on a sample).
    """
    order = list(order)
    q = DiscreteFactor([], [], [1.0])
    for i, v in enumerate(order):
        if v not in component:
            continue
        prefix = diagram.subgraph(order[: i + 1])
        t_i = prefix.c_component(v)
        keep = t_i | prefix.parents(t_i)
        numerator = _sum_out(factor, [u for u in order if u not in keep or order.index(u) > i])
        denominator = _sum_out(numerator, [v])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = numerator.divide(denominator, inplace=False)
        q = q.product(ratio, inplace=False)
    return q


def identify(
    target: frozenset[str], component: frozenset[str], q: DiscreteFactor, diagram: CausalDiagram
) -> DiscreteFactor | None:
    """Identify(C, T, Q[T]) of Tian & Pearl (2003): Q[target] from Q[component], or None (FAIL)."""
    sub = diagram.subgraph(component)
    ancestors = sub.ancestors(target)
    if ancestors == target:
        return _sum_out(q, component - target)
    if ancestors == component:
        return None
    q_a = _sum_out(q, component - ancestors)
    g_a = diagram.subgraph(ancestors)
    inner = g_a.c_component(next(iter(sorted(target))))
    return identify(target, inner, c_factor(q_a, g_a, _order(g_a), inner), diagram)


def rc_star(
    target: frozenset[str], factor: DiscreteFactor, diagram: CausalDiagram, selection: str
) -> DiscreteFactor | None:
    """Algorithm 2: the recovered c-factor Q[target], or None where only [0, 1] is known.

    ``factor`` is the current distribution over the non-selection nodes of ``diagram`` (at the top
    level P(v | S=1)); ``diagram`` contains the selection node ``selection`` as a sink.
    """
    keep = diagram.ancestors(target) | diagram.ancestors(selection)
    if set(diagram.nodes) - keep:  # lines 4-6
        return rc_star(target, _sum_out(factor, set(diagram.nodes) - keep), diagram.subgraph(keep), selection)
    towards_s = diagram.ancestors(selection)
    recoverable = [c for c in diagram.c_components() if not c & towards_s]  # line 7
    if not recoverable:  # lines 8-10
        return None
    order = [v for v in _order(diagram, towards_s) if v != selection]
    factors = {c: c_factor(factor, diagram, order, c) for c in recoverable}
    for c, q in factors.items():  # lines 12-14
        if target <= c:
            return identify(target, c, q, diagram)
    rest = factor
    for q in factors.values():  # line 15
        with np.errstate(divide="ignore", invalid="ignore"):
            rest = rest.divide(q, inplace=False)
    removed = frozenset().union(*recoverable)
    return rc_star(target, rest, diagram.without(removed), selection)
