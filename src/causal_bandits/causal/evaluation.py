"""Evaluating expressions on per-arm count tables, compiled once into numpy steps (SPEC §2.8).

Data are count tables, one per arm: ``counts[..., a, c]`` is the number of samples of arm ``a``
whose values of all variables form cell ``c`` (binary order over :attr:`ArmLayout.variables`, first
variable most significant). Any leading axes (seeds, bootstrap replicates) are batch axes. A leaf
P_src(W) is the factor over src ∪ W whose entry (z, w) is the frequency of W = w in the data of
the arm src = z; a product is a broadcast multiply (one ``einsum``, fused with an enclosing sum),
a sum an axis sum, a division elementwise (0/0 gives nan: the estimate is undefined).

:class:`Program` compiles a list of expressions once: identical sub-expressions are computed once
per call, every step's axes are fixed at compile time, and a call costs a few numpy operations per
distinct node whatever the batch size. Exact probability tables can be passed instead of counts
(the leaves normalise), which is how expressions are validated against exact SCM distributions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from string import ascii_letters

import numpy as np

from causal_bandits.causal.expression import Expr, Leaf, Prod, Sum


@dataclass(frozen=True)
class ArmLayout:
    """Arms as interventions: ``arms[a]`` = (arm set, values) over binary ``variables``.

    Arms of one set must be consecutive, values in lexicographic order over the set's sorted names
    (the canonical arm order of SPEC §2.4), so that the arms of a set form a (2,)*|set| grid.
    """

    variables: tuple[str, ...]
    arms: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]

    @classmethod
    def of_sets(cls, variables: Sequence[str], sets: Sequence[Sequence[str]]) -> ArmLayout:
        """Every arm of every set, sets in the given order, values lexicographic."""
        arms = tuple((tuple(s), bits) for s in sets for bits in product((0, 1), repeat=len(s)))
        return cls(tuple(variables), arms)

    def grid(self, src: tuple[str, ...]) -> np.ndarray:
        """Arm indices of the experiment ``src`` as a (2,)*|src| array indexed by its values."""
        index = {arm: i for i, arm in enumerate(self.arms)}
        try:
            ids = [index[(src, bits)] for bits in product((0, 1), repeat=len(src))]
        except KeyError:
            raise ValueError(f"no arms for the experiment on {list(src)}; add its set to the layout") from None
        return np.array(ids, dtype=np.int64).reshape((2,) * len(src))

    def arm_values(self, a: int) -> dict[str, int]:
        s, bits = self.arms[a]
        return dict(zip(s, bits))

    def cell_of(self, values: np.ndarray) -> np.ndarray:
        """Cell index of value rows (..., |variables|) in ``variables`` order."""
        weights = 1 << np.arange(len(self.variables))[::-1]
        return np.asarray(values, dtype=np.int64) @ weights


@dataclass(frozen=True)
class Factor:
    """A compiled node: its slot and the order of its variable axes (after the batch axes)."""

    slot: int
    vars: tuple[str, ...]


class Program:
    """The expressions ``exprs`` compiled for the data layout ``layout``.

    :meth:`evaluate` returns, per expression, an array (*batch, 2, ..., 2) over the variables
    :attr:`outputs` ``[i]``; :meth:`leaf_counts` the unnormalised count factor of every leaf.
    """

    def __init__(self, exprs: Sequence[Expr], layout: ArmLayout):
        self.layout = layout
        self._steps: list[tuple] = []
        self._slots: dict[Expr, Factor] = {}
        self._letters = {v: ascii_letters[i] for i, v in enumerate(sorted(_all_variables(exprs)))}
        self.leaves: list[Leaf] = []
        self._grids: dict[tuple[str, ...], np.ndarray] = {}
        self._plan_marginals(exprs)
        roots = [self._compile(e) for e in exprs]
        self.outputs = [f.vars for f in roots]
        self._roots = [f.slot for f in roots]
        self._deps = [self._dependencies(f.slot) for f in roots]

    def _plan_marginals(self, exprs: Sequence[Expr]) -> None:
        """Count marginals of every leaf, each summed from the smallest larger one of its
        experiment already planned (or from the experiment's full table)."""
        found: set[Leaf] = set()
        for e in exprs:
            _collect_leaves(e, found)
        self._marginals: list[tuple[Leaf, Leaf | None, tuple[int, ...]]] = []
        done: list[Leaf] = []
        for lf in sorted(found, key=lambda lf: (lf.src, -len(lf.vars), lf.vars)):
            if lf.src not in self._grids:
                self._grids[lf.src] = self.layout.grid(lf.src)
            parents = [p for p in done if p.src == lf.src and set(lf.vars) < set(p.vars)]
            parent = min(parents, key=lambda p: len(p.vars)) if parents else None
            have = parent.vars if parent else self.layout.variables
            # layout order of the variables present; the experiment's own axes come first
            present = [v for v in self.layout.variables if v in have]
            axes = tuple(len(lf.src) + i for i, v in enumerate(present) if v not in lf.vars)
            self._marginals.append((lf, parent, axes))
            done.append(lf)

    # ---------------------------------------------------------------------------- compiling
    def _new(self, step: tuple, vs: tuple[str, ...], e: Expr) -> Factor:
        f = Factor(len(self._steps), vs)
        self._steps.append(step)
        self._slots[e] = f
        return f

    def _compile(self, e: Expr) -> Factor:
        if e in self._slots:
            return self._slots[e]
        if isinstance(e, Leaf):
            self.leaves.append(e)
            order = tuple(v for v in self.layout.variables if v in e.vars)
            return self._new(("leaf", e), e.src + order, e)
        if isinstance(e, Sum) and isinstance(e.body, Prod):
            parts = [self._compile(f) for f in e.body.factors]
            return self._einsum(parts, set(e.vars), e)
        if isinstance(e, Prod):
            return self._einsum([self._compile(f) for f in e.factors], set(), e)
        if isinstance(e, Sum):
            body = self._compile(e.body)
            axes = tuple(i for i, v in enumerate(body.vars) if v in e.vars)
            return self._new(("sum", body.slot, axes), tuple(v for v in body.vars if v not in e.vars), e)
        num, den = self._compile(e.num), self._compile(e.den)
        out = num.vars + tuple(v for v in den.vars if v not in num.vars)
        return self._new(("div", num.slot, den.slot, _aligner(num.vars, out), _aligner(den.vars, out)), out, e)

    def _einsum(self, parts: list[Factor], summed: set[str], e: Expr) -> Factor:
        out = tuple(dict.fromkeys(v for p in parts for v in p.vars if v not in summed))
        spec = ",".join("..." + "".join(self._letters[v] for v in p.vars) for p in parts)
        spec += "->..." + "".join(self._letters[v] for v in out)
        return self._new(("einsum", spec, tuple(p.slot for p in parts)), out, e)

    # ---------------------------------------------------------------------------- running
    def _dependencies(self, slot: int) -> frozenset[int]:
        """The steps ``slot`` needs (itself included)."""
        step = self._steps[slot]
        inputs = {"einsum": lambda s: s[2], "sum": lambda s: (s[1],), "div": lambda s: s[1:3]}
        deps = {slot}
        if step[0] != "leaf":
            for j in inputs[step[0]](step):
                deps |= self._dependencies(j)
        return frozenset(deps)

    def _run(self, counts: np.ndarray, which: Sequence[int] | None = None) -> tuple[list, dict[Leaf, np.ndarray]]:
        counts = np.asarray(counts, dtype=float)
        nb = counts.ndim - 2
        nv = len(self.layout.variables)
        wanted = frozenset(range(len(self._steps))) if which is None else \
            frozenset().union(*(self._deps[i] for i in which))
        needed_leaves = {self._steps[i][1] for i in wanted if self._steps[i][0] == "leaf"}
        totals = counts.sum(axis=-1)
        n = {src: totals[..., grid] for src, grid in self._grids.items()}
        raw: dict[Leaf, np.ndarray] = {}
        for lf, parent, axes in reversed(self._marginals):  # mark the parents of needed leaves
            if lf in needed_leaves and parent is not None:
                needed_leaves.add(parent)
        for lf, parent, axes in self._marginals:
            if lf not in needed_leaves:
                continue
            if parent is None:
                grid = self._grids[lf.src]
                base = counts[..., grid, :].reshape(counts.shape[:nb] + grid.shape + (2,) * nv)
            else:
                base = raw[parent]
            raw[lf] = base.sum(axis=tuple(nb + a for a in axes)) if axes else base
        slots: list = [None] * len(self._steps)
        with np.errstate(divide="ignore", invalid="ignore"):
            for i, step in enumerate(self._steps):
                if i not in wanted:
                    continue
                kind = step[0]
                if kind == "leaf":
                    c = raw[step[1]]
                    total = n[step[1].src]
                    slots[i] = c / total.reshape(total.shape + (1,) * (c.ndim - total.ndim))
                elif kind == "einsum":
                    slots[i] = np.einsum(step[1], *(slots[j] for j in step[2]))
                elif kind == "sum":
                    slots[i] = slots[step[1]].sum(axis=tuple(nb + a for a in step[2]))
                else:
                    _, a, b, align_a, align_b = step
                    slots[i] = align_a(slots[a], nb) / align_b(slots[b], nb)
        return slots, raw

    def evaluate(self, counts: np.ndarray, which: Sequence[int] | None = None) -> list[np.ndarray | None]:
        """Each expression's factor on ``counts`` (*batch, n_arms, n_cells); with ``which``, only
        those expressions are computed (the others are None)."""
        slots, _ = self._run(counts, which)
        return [slots[r] for r in self._roots]

    def evaluate_with_leaf_counts(self, counts: np.ndarray) -> tuple[list[np.ndarray], dict[Leaf, np.ndarray]]:
        """:meth:`evaluate` plus, per leaf P_src(W), the count of W = w in the data of src = z,
        an array (*batch, src axes, W axes) (the support rule of SPEC §2.8 reads it)."""
        slots, raw = self._run(counts)
        return [slots[r] for r in self._roots], raw

    def leaf_vars(self, lf: Leaf) -> tuple[str, ...]:
        """Axis order of a leaf's factor: src variables, then W in layout order."""
        return self._slots[lf].vars


def _aligner(vs: tuple[str, ...], out: tuple[str, ...]):
    """A function that lays a factor over ``vs`` on the axes ``out`` (size 1 where absent)."""
    present = [v for v in out if v in vs]
    perm = [vs.index(v) for v in present]
    shape = tuple(2 if v in vs else 1 for v in out)
    identity = perm == list(range(len(vs))) and len(vs) == len(out)

    def align(arr: np.ndarray, nb: int) -> np.ndarray:
        if identity:
            return arr
        arr = arr.transpose(tuple(range(nb)) + tuple(nb + p for p in perm))
        return arr.reshape(arr.shape[:nb] + shape)

    return align


def _collect_leaves(e: Expr, out: set[Leaf]) -> None:
    if isinstance(e, Leaf):
        out.add(e)
    elif isinstance(e, Prod):
        for f in e.factors:
            _collect_leaves(f, out)
    elif isinstance(e, Sum):
        _collect_leaves(e.body, out)
    else:
        _collect_leaves(e.num, out)
        _collect_leaves(e.den, out)


def _all_variables(exprs: Sequence[Expr]) -> set[str]:
    out: set[str] = set()

    def walk(e: Expr) -> None:
        if isinstance(e, Leaf):
            out.update(e.src + e.vars)
        elif isinstance(e, Prod):
            for f in e.factors:
                walk(f)
        elif isinstance(e, Sum):
            out.update(e.vars)
            walk(e.body)
        else:
            walk(e.num)
            walk(e.den)

    for e in exprs:
        walk(e)
    if len(out) > len(ascii_letters):
        raise ValueError(f"{len(out)} variables; expressions over at most {len(ascii_letters)} are supported")
    return out

