"""Symbolic identification of interventional distributions: the ID algorithm.

Shpitser & Pearl (AAAI-06), "Identification of joint interventional distributions in recursive
semi-Markovian causal models", algorithm ID (their Fig. 3, lines 1-7), as written in nonmanip
docs/papers/nonmanip.md#nonmanip-z2id. :func:`identify` returns P_x(y) as an :mod:`expression
<causal_bandits.causal.expression>` over a distribution ``P`` that is either an experiment (:class:`Experiment`: data of
one arm set, treated as the observational distribution of the graph without that arm set) or a distribution
built on the way (:class:`Derived`, line 7). It raises :class:`NotIdentifiable` where ID fails
(line 5, a hedge). Written by hand: no maintained Python library returns ID's expressions over
experiments in a form that can be evaluated on per-arm count tables.

Conditionals keep full predecessor sets, P(v | v_π^(i-1)) with π the topological order of the
*original* graph (alphabetical ties, docs/papers/nonmanip.md#nonmanip-diagrams); no d-separation simplification is made
(equal values, longer formulas: docs/papers/nonmanip.md#nonmanip-a-expression-count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from causal_bandits.causal.expression import Expr, div, leaf, prod, sum_over
from causal_bandits.scm.diagram import CausalDiagram


class NotIdentifiable(Exception):
    """ID (or z²ID) cannot express the query from the given distributions (a hedge was found)."""


class Distribution:
    """A distribution over ``domain`` that can return expressions for its marginals."""

    domain: frozenset[str]

    def marg(self, w: frozenset[str]) -> Expr:
        raise NotImplementedError

    def cond(self, a: frozenset[str], b: frozenset[str]) -> Expr:
        """P(a | b) = P(a ∪ b) / P(b) (just P(a) when b = ∅)."""
        return self.marg(a | b) if not b else div(self.marg(a | b), self.marg(b))

    def restrict(self, domain: frozenset[str]) -> Distribution:
        """The marginal distribution over ``domain`` ⊆ this domain (ID line 2)."""
        return Restricted(self, domain)


@dataclass(frozen=True)
class Experiment(Distribution):
    """The data of the experiment on arm set ``src`` over ``domain``: marg(W) = P_src(W)."""

    src: tuple[str, ...]
    domain: frozenset[str]

    def marg(self, w: frozenset[str]) -> Expr:
        return leaf(self.src, w)


@dataclass(frozen=True)
class Derived(Distribution):
    """A distribution over ``domain`` given by an expression (ID line 7): marg(W) = Σ_{D\\W} expr."""

    domain: frozenset[str]
    expr: Expr

    def marg(self, w: frozenset[str]) -> Expr:
        return sum_over(self.domain - w, self.expr)


@dataclass(frozen=True)
class Restricted(Distribution):
    """``parent`` marginalised to ``domain``: its marginals are the parent's."""

    parent: Distribution
    domain: frozenset[str]

    def marg(self, w: frozenset[str]) -> Expr:
        return self.parent.marg(w)


def _factors(P: Distribution, S: frozenset[str], order: Sequence[str]) -> list[Expr]:
    """Π_{v ∈ S} P(v | v_π^(i-1)) in π order, π = ``order`` (the current vertices, topological)."""
    return [P.cond(frozenset({v}), frozenset(order[:i])) for i, v in enumerate(order) if v in S]


def identify(y: frozenset[str], x: frozenset[str], P: Distribution, G: CausalDiagram, order: Sequence[str]) -> Expr:
    """ID(y, x, P, G) (Shpitser & Pearl 2006, lines 1-7); ``order`` is a topological order of a
    graph containing G (only G's vertices are used). Raises :class:`NotIdentifiable`."""
    V = frozenset(G.nodes)
    if not x:  # line 1
        return P.marg(y)
    an = G.ancestors(y)
    if an != V:  # line 2
        return identify(y, x & an, P.restrict(an), G.subgraph(an), order)
    w = (V - x) - G.do(x).ancestors(y)
    if w:  # line 3
        return identify(y, x | w, P, G, order)
    components = G.without(x).c_components()
    if len(components) > 1:  # line 4
        return sum_over(V - (y | x), prod(*(identify(S, V - S, P, G, order) for S in components)))
    (S,) = components
    whole = G.c_components()
    if whole == [V]:  # line 5
        raise NotIdentifiable(f"hedge for P_{sorted(x)}({sorted(y)}) over {sorted(V)}")
    pi = [v for v in order if v in V]
    if S in whole:  # line 6
        return sum_over(S - y, prod(*_factors(P, S, pi)))
    (S2,) = [c for c in whole if c > S]  # line 7
    return identify(y, x & S2, Derived(S2, prod(*_factors(P, S2, pi))), G.subgraph(S2), order)
