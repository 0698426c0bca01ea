"""z²-identification over the arm sets of an SCM-MAB, and the expression catalogue of POMIS+.

Lee & Bareinboim (AAAI-19) Algorithm 1 (z²ID) expresses P_x(y) through a family of available
experiments {P_z : Z ∈ 𝕫}; Algorithm 3 line 4 calls it for every arm set X of ℤ = ℙ^N_{G,Y} and
the other arm sets. This module implements both as docs/papers/nonmanip.md#nonmanip-z2id resolves them:

* :func:`z2id`: Alg. 1 with our clarifications (docs/papers/nonmanip.md#nonmanip-z2id) — an observational query without
  observational data is c-factorised on G[An(y)] (restricted first,
  docs/papers/nonmanip.md#nonmanip-a-z2id-restrict-first); available experiments Z ⊆ x are tried largest first, then by
  names, the first ID success wins (§5.3); leaves always name the *source* arm set, whose intervention values that no
  longer matter stay variables of the expression (free indices).
* :func:`catalogue`: for every target X ∈ ℤ and every non-empty sub-family of ℤ \\ {X} (§5.5), the
  z²ID expression, de-duplicated per target by numerical signature (value on fixed random,
  mutually inconsistent tables, docs/papers/nonmanip.md#nonmanip-catalogue). Each entry knows its free indices F_e =
  free(e) \\ (X ∪ {Y}); an estimator instance is (e, f) for an assignment f of F_e.
* :func:`validate`: every entry evaluated on the exact P_z(V) of an SCM against the exact P_x(y).

Theorem 5 of AAAI-19 (soundness) is what the validation and the tests check. Written by hand: no
maintained library implements z-identification over an arbitrary family of experiments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from causal_bandits.causal.evaluation import ArmLayout, Program
from causal_bandits.causal.expression import Expr, free_variables, from_json, prod, show, sources, sum_over, to_json
from causal_bandits.causal.identification import Experiment, NotIdentifiable, identify
from causal_bandits.rng import generator
from causal_bandits.scm.diagram import CausalDiagram

Pairs = list[tuple[tuple[str, ...], frozenset[str]]]
"""Available experiments as (source arm set, its effective intervention set in the current graph)."""

#: Two expressions for one target are the same functional when their signatures agree to this.
SIGNATURE_TOLERANCE = 1e-10


def z2id(G: CausalDiagram, y: Iterable[str], x: Iterable[str], family: Sequence[Sequence[str]]) -> Expr:
    """P_x(y) in terms of the experiments ``family`` (AAAI-19 Alg. 1); raises :class:`NotIdentifiable`.

    ``family`` lists arm sets; ``()`` is the observational arm.
    """
    y, x = frozenset(y), frozenset(x)
    order = G.topological_order()
    pairs: Pairs = [(tuple(sorted(s)), frozenset(s)) for s in family]
    if not x and () not in {p[0] for p in pairs}:  # lines 2-3
        an = G.ancestors(y)
        H = G.subgraph(an)
        restricted = [(s, z & an) for s, z in pairs]
        return sum_over(an - y, prod(*(_sub(H, S, an - S, restricted, order) for S in H.c_components())))
    return _sub(G, y, x, pairs, order)


def _sub(G: CausalDiagram, y: frozenset[str], x: frozenset[str], pairs: Pairs, order: Sequence[str]) -> Expr:
    """sub-z2ID (AAAI-19 Alg. 1, lines 5-14)."""
    V = frozenset(G.nodes)
    usable = sorted((p for p in pairs if p[1] <= x), key=lambda p: (-len(p[1]), sorted(p[1]), p[0]))
    for src, z in usable:  # lines 6-7
        H = G.without(z)
        try:
            return identify(y, x - z, Experiment(src, frozenset(H.nodes)), H, order)
        except NotIdentifiable:
            continue
    an = G.ancestors(y)
    if an != V:  # lines 8-9
        return _sub(G.subgraph(an), y, x & an, [(s, z & an) for s, z in pairs], order)
    w = (V - x) - G.do(x).ancestors(y)
    if w:  # lines 10-11
        return _sub(G, y, x | w, pairs, order)
    components = G.without(x).c_components()
    if len(components) > 1:  # lines 12-13
        return sum_over(V - (y | x), prod(*(_sub(G, S, V - S, pairs, order) for S in components)))
    raise NotIdentifiable(f"z2ID fails for P_{sorted(x)}({sorted(y)}) over {sorted(V)}")  # line 14


# ------------------------------------------------------------------------------ the catalogue
@dataclass(frozen=True)
class Entry:
    """One catalogued expression: P_x(Y) for x ∈ 𝔛_target, from the experiments of ``family``."""

    target: tuple[str, ...]
    family: tuple[tuple[str, ...], ...]
    expr: Expr
    reward: str

    @property
    def sources(self) -> list[tuple[str, ...]]:
        """The arm sets whose data the expression reads."""
        return sources(self.expr)

    @property
    def free_indices(self) -> tuple[str, ...]:
        """F_e = free(e) \\ (X ∪ {Y}), sorted: each assignment is a separate estimator instance."""
        return tuple(sorted(free_variables(self.expr) - set(self.target) - {self.reward}))

    @property
    def n_instances(self) -> int:
        return 2 ** len(self.free_indices)

    def formula(self) -> str:
        """``P_{c}(y) = Σ_{a} P_{b}(a) P_{b}(y|a,c)`` for a reader."""
        lhs = "P" + ("_{" + ",".join(v.lower() for v in self.target) + "}" if self.target else "")
        return f"{lhs}({self.reward.lower()}) = {show(self.expr)}"

    def to_json(self) -> dict:
        """The entry for readers (formula, sources, free indices) and for :meth:`from_json` (tree)."""
        return {
            "reward": self.reward,
            "target": list(self.target),
            "family": [list(s) for s in self.family],
            "sources": [list(s) for s in self.sources],
            "free_indices": list(self.free_indices),
            "n_instances": self.n_instances,
            "expr": self.formula(),
            "tree": to_json(self.expr),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Entry:
        """Inverse of :meth:`to_json`."""
        return cls(tuple(d["target"]), tuple(tuple(s) for s in d["family"]), from_json(d["tree"]), d["reward"])


def _families(others: Sequence[tuple[str, ...]]) -> list[tuple[tuple[str, ...], ...]]:
    """Every non-empty sub-family, by size, then in the order of ``others``."""
    return [f for k in range(1, len(others) + 1) for f in combinations(others, k)]


def signature_tables(layout: ArmLayout) -> np.ndarray:
    """One independent Dirichlet(1) joint per arm (zero outside the arm's intervention values):
    mutually inconsistent data on which two different functionals differ (docs/papers/nonmanip.md#nonmanip-catalogue,
    seed 0)."""
    rng = generator("z2id", "catalogue", 0, "signature")
    n = len(layout.variables)
    cells = np.array([[(c >> (n - 1 - i)) & 1 for i in range(n)] for c in range(2**n)])
    tables = np.zeros((len(layout.arms), 2**n))
    for a, (s, bits) in enumerate(layout.arms):
        cols = [layout.variables.index(v) for v in s]
        allowed = (cells[:, cols] == np.array(bits, dtype=int)).all(axis=1) if s else np.ones(2**n, bool)
        tables[a, allowed] = rng.dirichlet(np.ones(allowed.sum()))
    return tables


def _signature(e: Expr, layout: ArmLayout, tables: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    program = Program([e], layout)
    value = program.evaluate(tables)[0]
    assert value is not None  # evaluate without `which` computes every expression
    vs = program.outputs[0]
    order = sorted(vs)
    return tuple(order), value.transpose([vs.index(v) for v in order])


def catalogue(G: CausalDiagram, reward: str, sets: Sequence[Sequence[str]]) -> list[Entry]:
    """The expression catalogue of AAAI-19 Alg. 3 line 4 over the arm sets ``sets`` (ℤ).

    Entries are grouped by target in the order of ``sets``; within a target, in the order in which
    the sub-families (by size, then order) first produced a new functional.
    """
    sorted_sets = [tuple(sorted(s)) for s in sets]
    layout = ArmLayout.of_sets(G.nodes, sorted_sets)
    tables = signature_tables(layout)
    out: list[Entry] = []
    for X in sorted_sets:
        seen: list[tuple[tuple[str, ...], np.ndarray]] = []
        for family in _families([s for s in sorted_sets if s != X]):
            try:
                e = z2id(G, {reward}, X, family)
            except NotIdentifiable:
                continue
            vs, value = _signature(e, layout, tables)
            if any(vs == v and np.allclose(value, w, rtol=0, atol=SIGNATURE_TOLERANCE) for v, w in seen):
                continue
            seen.append((vs, value))
            out.append(Entry(X, family, e, reward))
    return out


# ------------------------------------------------------------------------------ validation
def validate(
    entries: Sequence[Entry], layout: ArmLayout, joint: Callable[[Mapping[str, int]], np.ndarray]
) -> list[float]:
    """Max |expression - P_x(y)| per entry over every x, y and free-index value, with every
    experiment's data replaced by its exact distribution ``joint(do)`` (arrays (2,)*|V| over
    ``layout.variables``). ``layout`` must hold the arms of every source."""
    tables = np.stack([joint(layout.arm_values(a)).reshape(-1) for a in range(len(layout.arms))])
    errors = []
    for entry in entries:
        program = Program([entry.expr], layout)
        value, vs = program.evaluate(tables)[0], program.outputs[0]
        assert value is not None  # evaluate without `which` computes every expression
        worst = 0.0
        for s, bits in layout.arms:
            if s != entry.target:
                continue
            truth = joint(dict(zip(s, bits)))
            p_y = truth.sum(axis=tuple(i for i, v in enumerate(layout.variables) if v != entry.reward))
            index = tuple(dict(zip(s, bits)).get(v, slice(None)) for v in vs)
            got = value[index]  # axes: Y and the free indices, in ``vs`` order
            y_axis = [v for v in vs if v not in s].index(entry.reward)
            got = np.moveaxis(got, y_axis, 0)
            worst = max(worst, float(np.abs(got - p_y.reshape((2,) + (1,) * (got.ndim - 1))).max()))
        errors.append(worst)
    return errors
