"""Evaluating expressions on per-arm count tables, compiled once into numpy steps
(docs/papers/nonmanip.md#nonmanip-a-enough-samples).

Data are count tables, one per arm: ``counts[..., a, c]`` is the number of samples of arm ``a``
whose values of all variables form cell ``c`` (binary order over :attr:`ArmLayout.variables`, first
variable most significant). Any leading axes (seeds, bootstrap replicates) are batch axes. A leaf
P_src(W) is the factor over src ∪ W whose entry (z, w) is the frequency of W = w in the data of
the arm src = z; a product is a broadcast multiply (one ``einsum``, fused with an enclosing sum),
a sum an axis sum, a division elementwise (0/0 gives nan: the estimate is undefined).

:class:`Program` compiles a list of expressions once: identical sub-expressions are computed once
per call, every step's axes are fixed at compile time, and a call costs a few numpy operations per
distinct node whatever the batch size (batch-last, the steps run in compiled passes that give numpy's bits:
:mod:`causal_bandits.causal.compiled_program`). Leaves are read from *leaf counts*, one flat vector per
batch element holding the count of W = w in the data of src = z for every leaf, cell and source
arm: they are linear in the count tables (:meth:`Program.leaf_counts`, one small matrix product
per arm), so a learner can keep them up to date one sample at a time (:attr:`Program.feeds`) and
a bootstrap can resample an arm's table and project it straight onto them. Exact probability
tables can be passed instead of counts (the leaves normalise), which is how expressions are
validated against exact SCM distributions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from string import ascii_letters
from typing import TYPE_CHECKING, cast

import numpy as np

from causal_bandits.causal.batch_axes import batch_first, batch_last
from causal_bandits.causal.expression import Expr, Leaf, Prod, Sum

if TYPE_CHECKING:  # imported where first used: a job that builds or checks a catalogue loads no numba
    from causal_bandits.causal.compiled_program import CompiledSteps


@dataclass(frozen=True)
class ArmLayout:
    """Arms as interventions: ``arms[a]`` = (arm set, values) over binary ``variables``.

    Arms of one set must be consecutive, values in lexicographic order over the set's sorted names
    (the canonical arm order of docs/papers/nonmanip.md#nonmanip-pomis), so that the arms of a set form a (2,)*|set|
    grid.
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


@dataclass(frozen=True)
class Selection:
    """Cells of some expressions' factors (:meth:`Program.select`): ``cells[j]`` of expression ``which[j]``, the
    steps they need, and on the compiled path (``workspace``) their workspace rows and the cells each step computes
    for them."""

    which: tuple[int, ...]
    cells: tuple[np.ndarray, ...]
    plan: tuple[int, ...]
    workspace: tuple[np.ndarray, tuple[np.ndarray, np.ndarray]] | None = None


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
        roots = [self._compile(e) for e in exprs]
        self.outputs = [f.vars for f in roots]
        self._roots = [f.slot for f in roots]
        self._deps = [self._dependencies(f.slot) for f in roots]
        self._plan_leaf_counts()

    def _plan_leaf_counts(self) -> None:
        """The flat leaf-count layout and, per arm, where each of its cells is counted.

        Leaf ``lf`` occupies ``leaf_offsets[i]`` onwards: a (2,)*|src| × (2,)*|W| block in C order
        (src values, then W in layout order). A sample of arm a in cell c adds one to one position
        of every leaf whose experiment contains a: :attr:`feeds` ``[a]`` = (those positions for
        every cell, (C, m_a)); the matrix form is :attr:`projections`.
        """
        layout, n_vars = self.layout, len(self.layout.variables)
        cells = (np.arange(2**n_vars)[:, None] >> np.arange(n_vars)[::-1]) & 1  # (C, n_vars)
        sizes = [2 ** len(self.leaf_vars(lf)) for lf in self.leaves]
        self.leaf_offsets = np.cumsum([0, *sizes])[:-1].astype(np.int64)
        self.n_leaf_cells = int(sum(sizes))
        self._grids = {lf.src: layout.grid(lf.src) for lf in self.leaves}
        # per leaf: its block of the leaf counts, its factor's shape, the arms of its experiment and
        # the trailing axes (one per W variable) that divide by those arms' sample sizes
        self._blocks = {
            lf: (
                int(o),
                int(o) + size,
                (2,) * len(self.leaf_vars(lf)),
                self._grids[lf.src],
                (1,) * (len(self.leaf_vars(lf)) - len(lf.src)),
            )
            for lf, o, size in zip(self.leaves, self.leaf_offsets, sizes)
        }
        self._plans: dict[tuple[int, ...] | None, tuple[int, ...]] = {}
        self._first: frozenset[int] | None = None
        self._compiled: CompiledSteps | None = None
        positions: list[list[np.ndarray]] = [[] for _ in layout.arms]
        for lf, offset in zip(self.leaves, self.leaf_offsets):
            w = [layout.variables.index(v) for v in self.leaf_vars(lf)[len(lf.src) :]]
            w_index = cells[:, w] @ (1 << np.arange(len(w))[::-1]) if w else np.zeros(len(cells), np.int64)
            for g, a in enumerate(self._grids[lf.src].ravel()):
                positions[a].append(offset + g * 2 ** len(w) + w_index)
        #: feeds[a]: (C, m_a) leaf-count positions that a sample of arm a in cell c adds one to.
        self.feeds = [np.stack(p, axis=1) if p else np.empty((len(cells), 0), np.int64) for p in positions]
        #: projections[a] = (columns, 0/1 matrix (C, columns)): arm a's table times the matrix is its
        #: contribution to the leaf counts at those columns (no other arm contributes there).
        self.projections = []
        for feed in self.feeds:
            columns = np.unique(feed)
            self.projections.append((columns, (feed[:, :, None] == columns).any(axis=1).astype(float)))

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
        """A product of ``parts`` summed over ``summed``, as pairwise contractions in the order numpy's
        greedy path finder picks for binary axes (fixed at compile time, so every batch size runs the
        same arithmetic); each pair sums out the variables no later factor or the result needs."""
        out = tuple(dict.fromkeys(v for p in parts for v in p.vars if v not in summed))
        if len(parts) > 2:
            spec = ",".join("".join(self._letters[v] for v in p.vars) for p in parts)
            spec += "->" + "".join(self._letters[v] for v in out)
            path = np.einsum_path(spec, *(np.ones((2,) * len(p.vars)) for p in parts), optimize="greedy")[0][1:]
            parts = list(parts)
            for pair in path[:-1]:
                a, b = (parts[i] for i in pair)
                for i in sorted(pair, reverse=True):
                    del parts[i]
                later = {v for p in parts for v in p.vars} | set(out)
                vs = tuple(dict.fromkeys(v for v in a.vars + b.vars if v in later))
                parts.append(self._contract([a, b], vs))
        f = self._contract(parts, out)
        self._slots[e] = f
        return f

    def _contract(self, parts: list[Factor], out: tuple[str, ...]) -> Factor:
        spec = ",".join("..." + "".join(self._letters[v] for v in p.vars) for p in parts)
        spec += "->..." + "".join(self._letters[v] for v in out)
        f = Factor(len(self._steps), out)
        self._steps.append(("einsum", spec, tuple(p.slot for p in parts), _batch_last(spec)))
        return f

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

    def leaf_counts(self, counts: np.ndarray) -> np.ndarray:
        """The leaf counts (*batch, n_leaf_cells) of count tables ``counts`` (*batch, n_arms, n_cells)."""
        counts = np.asarray(counts, dtype=float)
        out = np.zeros((*counts.shape[:-2], self.n_leaf_cells))
        for a, (columns, matrix) in enumerate(self.projections):
            if columns.size:
                out[..., columns] = counts[..., a, :] @ matrix
        return out

    def evaluate(self, counts: np.ndarray, which: Sequence[int] | None = None) -> list[np.ndarray | None]:
        """Each expression's factor on ``counts`` (*batch, n_arms, n_cells); with ``which``, only
        those expressions are computed (the others are None)."""
        counts = np.asarray(counts, dtype=float)
        return self.evaluate_leaves(self.leaf_counts(counts), counts.sum(axis=-1), which)

    def evaluate_leaves(
        self, leaf_counts: np.ndarray, totals: np.ndarray, which: Sequence[int] | None = None
    ) -> list[np.ndarray | None]:
        """:meth:`evaluate` from leaf counts (*batch, n_leaf_cells) and the arms' sample sizes
        ``totals`` (*batch, n_arms) (batch axes broadcast, e.g. bootstrap replicates share totals)."""
        return self._run(leaf_counts, totals, which, last=False)

    def evaluate_last(
        self, leaf_counts: np.ndarray, totals: np.ndarray, which: Sequence[int] | None = None
    ) -> list[np.ndarray | None]:
        """:meth:`evaluate_leaves` with the batch axes last: leaf counts (n_leaf_cells, *batch), totals
        (n_arms, *batch), factors (2, ..., 2, *batch), run in compiled passes along the batch
        (:class:`~causal_bandits.causal.compiled_program.CompiledSteps`). The numbers are the same bit for bit:
        each step adds its terms as numpy does batch-last, or batch-first for a step whose additions numpy orders
        differently batch-last (:meth:`_batch_first_steps`)."""
        return self._run(leaf_counts, totals, which, last=True)

    def select(self, which: Sequence[int], cells: Sequence[np.ndarray]) -> Selection:
        """The cells ``cells[j]`` (flat, C order) of expression ``which[j]``'s factor, for :meth:`cells_last`."""
        plan = self._plan(which)
        compiled = self._compiled_steps()
        if not compiled.agrees:
            return Selection(tuple(which), tuple(cells), plan)
        rows = np.concatenate([compiled.row[self._roots[e]] + c for e, c in zip(which, cells)]).astype(np.int64)
        return Selection(tuple(which), tuple(cells), plan, (rows, compiled.demand(plan, rows)))

    def cells_last(self, leaf_counts: np.ndarray, totals: np.ndarray, selection: Selection) -> np.ndarray:
        """The ``selection``'s cells, stacked (their number, *batch), from :meth:`evaluate_last`'s inputs: the same
        numbers bit for bit, each step computing only the cells they need (a bootstrap refresh reads a cell or two of
        a few factors: :meth:`CompiledSteps.gather`)."""
        if selection.workspace is not None:
            return self._compiled_steps().gather(leaf_counts, totals, selection.plan, *selection.workspace)
        batch = leaf_counts.shape[1:]
        factors = self.evaluate_last(leaf_counts, totals, selection.which)
        return np.concatenate(
            [cast(np.ndarray, factors[e]).reshape((-1, *batch))[c] for e, c in zip(selection.which, selection.cells)]
        )

    def _plan(self, which: Sequence[int] | None) -> tuple[int, ...]:
        """The steps the expressions ``which`` (None: all) need, in order (remembered per ``which``)."""
        key = None if which is None else tuple(which)
        if key not in self._plans:
            wanted = range(len(self._steps)) if key is None else frozenset().union(*(self._deps[i] for i in key))
            self._plans[key] = tuple(sorted(wanted))
        return self._plans[key]

    def _run(
        self, leaf_counts: np.ndarray, totals: np.ndarray, which: Sequence[int] | None, last: bool
    ) -> list[np.ndarray | None]:
        plan = self._plan(which)
        if last and self._compiled_steps().agrees:
            slots = self._compiled_steps().run(leaf_counts, totals, plan, self._roots)
        elif last:  # the compiled passes differ from numpy's on this build (a warning said so): numpy's own path
            slots = self._evaluate_steps(leaf_counts, totals, plan, True, self._batch_first_steps())
        else:
            slots = self._evaluate_steps(leaf_counts, totals, plan, False, frozenset())
        return [slots[r] for r in self._roots]

    def _compiled_steps(self) -> CompiledSteps:
        """The programme as compiled passes, built (and checked against numpy) on first use."""
        if self._compiled is None:
            from causal_bandits.causal.compiled_program import CompiledSteps

            self._compiled = CompiledSteps(self)
        return self._compiled

    def _evaluate_steps(
        self, leaf_counts: np.ndarray, totals: np.ndarray, plan: Sequence[int], last: bool, first: frozenset[int]
    ) -> list:
        """Every step of ``plan`` in numpy, in order, batch axes last with ``last`` (but the steps in ``first``): the
        evaluation, batch-first, and the reference the compiled batch-last passes are checked against."""
        nb = leaf_counts.ndim - 1
        slots: list = [None] * len(self._steps)
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in plan:
                step = self._steps[i]
                kind = step[0]
                if kind == "leaf":
                    slots[i] = self._leaf(step[1], leaf_counts, totals, last)
                elif i in first:  # batch-first arithmetic on batch-last operands
                    operands = [np.ascontiguousarray(batch_first(slots[j], nb)) for j in _inputs(step)]
                    slots[i] = batch_last(self._step(step, operands, nb, False), nb)
                elif kind in ("einsum", "sum"):
                    slots[i] = self._step(step, [slots[j] for j in _inputs(step)], nb, last)
                else:
                    _, a, b, align_a, align_b = step
                    slots[i] = align_a(slots[a], nb, last) / align_b(slots[b], nb, last)
        return slots

    @staticmethod
    def _step(step: tuple, operands: list[np.ndarray], nb: int, last: bool) -> np.ndarray:
        """An einsum or sum step on its operands, the ``nb`` batch axes first or last."""
        if step[0] == "einsum":
            return np.einsum(step[3] if last else step[1], *operands)
        return operands[0].sum(axis=tuple(a if last else nb + a for a in step[2]))

    def _leaf(self, lf: Leaf, leaf_counts: np.ndarray, totals: np.ndarray, last: bool) -> np.ndarray:
        """A leaf's factor: its block of the leaf counts divided by the sample sizes of its experiment's arms."""
        start, stop, shape, grid, tail = self._blocks[lf]
        if last:
            total = totals[grid]  # (*grid, *batch)
            counts = np.ascontiguousarray(leaf_counts[start:stop])  # C order, as the operands checked
            return counts.reshape(shape + counts.shape[1:]) / total.reshape(
                grid.shape + tail + total.shape[grid.ndim :]
            )
        total = totals[..., grid]
        counts = leaf_counts[..., start:stop]
        return counts.reshape(counts.shape[:-1] + shape) / total.reshape(total.shape + tail)

    def _batch_first_steps(self) -> frozenset[int]:
        """The einsum and sum steps that must run batch-first for :meth:`evaluate_last` to give the same bits:
        those whose additions numpy orders differently with the batch last (or with the memory layout the batch
        last gives their operands). Found once, by running the whole programme both ways on random counts and
        moving the first step that differs to batch-first until none does: a property of the numpy build,
        checked rather than assumed."""
        if self._first is None:
            rng = np.random.default_rng(0)
            first: set[int] = set()
            every = range(len(self._steps))
            for batch in ((5,), (3, 16)):
                counts = rng.integers(0, 40, (*batch, self.n_leaf_cells)).astype(float)
                totals = rng.integers(40, 400, (*batch, len(self.layout.arms))).astype(float)
                ref = self._evaluate_steps(counts, totals, every, False, frozenset())
                nb = len(batch)
                while True:
                    got = self._evaluate_steps(
                        batch_last(counts, nb), batch_last(totals, nb), every, True, frozenset(first)
                    )
                    bad = [i for i in every if not np.array_equal(batch_first(got[i], nb), ref[i], equal_nan=True)]
                    if not bad:
                        break
                    if bad[0] in first or self._steps[bad[0]][0] not in ("einsum", "sum"):
                        raise RuntimeError(f"step {bad[0]} differs batch-last and batch-first: {self._steps[bad[0]]}")
                    first.add(bad[0])
            self._first = frozenset(first)
        return self._first

    def leaf_vars(self, lf: Leaf) -> tuple[str, ...]:
        """Axis order of a leaf's factor: src variables, then W in layout order."""
        return self._slots[lf].vars


def _aligner(vs: tuple[str, ...], out: tuple[str, ...]):
    """A function that lays a factor over ``vs`` on the axes ``out`` (size 1 where absent), its ``nb`` batch
    axes first, or last with ``last``."""
    present = [v for v in out if v in vs]
    perm = [vs.index(v) for v in present]
    shape = tuple(2 if v in vs else 1 for v in out)
    identity = perm == list(range(len(vs))) and len(vs) == len(out)

    def align(arr: np.ndarray, nb: int, last: bool = False) -> np.ndarray:
        if identity:
            return arr
        if last:
            k = arr.ndim - nb
            arr = arr.transpose(tuple(perm) + tuple(range(k, arr.ndim)))
            return arr.reshape(shape + arr.shape[len(perm) :])
        arr = arr.transpose(tuple(range(nb)) + tuple(nb + p for p in perm))
        return arr.reshape(arr.shape[:nb] + shape)

    return align


def _inputs(step: tuple) -> tuple[int, ...]:
    """The slots an einsum or sum step reads."""
    return step[2] if step[0] == "einsum" else (step[1],)


def _batch_last(spec: str) -> str:
    """An einsum spec with its batch axes (``...``) moved from first to last in every term."""
    inputs, output = spec.split("->")
    return (
        ",".join(t.removeprefix("...") + "..." for t in inputs.split(",")) + "->" + output.removeprefix("...") + "..."
    )


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
