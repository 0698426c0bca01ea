"""A :class:`~causal_bandits.causal.evaluation.Program` evaluated batch-last in compiled passes
(docs/performance.md#compiled-evaluation).

numpy runs a programme one step at a time, a few calls a step (Fig. 5c's catalogue is 136 steps, evaluated on a
seed's 500 bootstrap replicates at every refresh). :class:`CompiledSteps` lays every factor out as rows of one
workspace (a row per cell, the batch along it) and runs consecutive steps in one compiled call:

* a **leaf** divides its block of leaf counts by the sample size of each cell's arm;
* a **product** (an ``einsum`` step, or a sum over axes) sets each output cell to 0 and adds, term by term, the
  products of its operands' cells over the summed variables (one operand: the cells themselves);
* a **division** divides the aligned cells of its two operands.

The bytes of the archive were made by numpy, so each value must be numpy's bit for bit. Multiplications and divisions
are single roundings either way; what can differ is the order of a product's additions, which numpy chooses from its
operands' memory layout. So each product step's way of adding is found when the programme is first run
(:meth:`CompiledSteps._choose_orders`): every order of its summed variables, one term at a time or in the groups
numpy's inner loops add (the steps numpy runs batch-first, :meth:`Program._batch_first_steps`, add that way), tried on
random operands laid out as numpy's for three batch shapes, the first that gives numpy's bits kept. A step no way
reproduces runs in numpy between the compiled calls. Checked, not assumed: a numpy build that orders its sums
otherwise makes more steps numpy's, and a programme that still differs as a whole (:attr:`CompiledSteps.agrees`) is
evaluated on numpy's own path, with a warning: never other numbers.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from itertools import permutations, product
from math import prod
from typing import TYPE_CHECKING

import numba
import numpy as np

from causal_bandits.causal.batch_axes import batch_first, batch_last

if TYPE_CHECKING:
    from causal_bandits.causal.evaluation import Program

LEAF, PRODUCT, DIVIDE, NUMPY = 0, 1, 2, 3
#: How a product's terms are added (numpy's inner loops): one by one into the output; or in groups, the terms of one
#: value of the innermost summed variable, whose sum is added to the output; or in groups whose first or second operand
#: is one cell throughout, that cell times the group's sum of the other operand.
ONE_BY_ONE, GROUP_SUM, FIRST_TIMES_SUM, SECOND_TIMES_SUM = 0, 1, 2, 3


class CompiledSteps:
    """The steps of ``program`` as tables for :func:`_run` (built once per programme; the orders are checked then)."""

    def __init__(self, program: Program):
        self.program = program
        steps = program._steps
        self.letters = _factor_letters(program)
        n = len(steps)
        self.cells = np.array([2 ** len(v) for v in self.letters], dtype=np.int64)
        self.row = np.concatenate([[0], np.cumsum(self.cells)[:-1]]).astype(np.int64)
        self.kind = np.full(n, NUMPY, dtype=np.int64)
        self.operands = np.full((n, 2), -1, dtype=np.int64)
        self.terms = np.zeros(n, dtype=np.int64)  # per output cell, for products
        self.adding = np.zeros(n, dtype=np.int64)  # ONE_BY_ONE, ... (a group: the last summed variable's two values)
        self.leaf_start = np.zeros(n, dtype=np.int64)
        self._tables: list[np.ndarray] = [np.zeros((0, 2), dtype=np.int64)] * n
        for i, step in enumerate(steps):
            if step[0] == "leaf":
                start, _, shape, grid, _ = program._blocks[step[1]]
                self.kind[i], self.leaf_start[i] = LEAF, start
                arms = np.repeat(grid.ravel(), 2 ** (len(shape) - grid.ndim))  # the arm of each cell
                self._tables[i] = np.stack([arms, arms], axis=1)
            elif step[0] == "div":
                self.kind[i] = DIVIDE
                self.operands[i] = step[1:3]
                self._tables[i] = self._division_table(i)
            else:
                self.kind[i] = PRODUCT
                inputs = step[2] if step[0] == "einsum" else (step[1],)
                self.operands[i, : len(inputs)] = inputs
                self._set_order(i, None)
        self._finish()
        #: Whether the whole programme gives numpy's bits (checked on random counts; :meth:`_choose_orders`).
        self.agrees = True
        self._choose_orders()

    # ------------------------------------------------------------------------------------------------ tables
    def _division_table(self, i: int) -> np.ndarray:
        out, (a, b) = self.letters[i], (self.letters[j] for j in self.operands[i])
        return np.array([[_cell(a, v), _cell(b, v)] for v in _assignments(out)], dtype=np.int64)

    def _set_order(self, i: int, order: Sequence[str] | None, adding: int = ONE_BY_ONE) -> None:
        """Step ``i``'s product table with its summed variables in ``order`` (None: alphabetical, as the letters), the
        last one innermost, added as ``adding`` says."""
        out = self.letters[i]
        ops = [self.letters[j] for j in self.operands[i] if j >= 0]
        summed = sorted({c for o in ops for c in o} - set(out)) if order is None else list(order)
        rows = []
        for v in _assignments(out):
            for w in _assignments(summed):
                both = {**v, **w}
                cells = [_cell(o, both) for o in ops]
                rows.append(cells + cells[:1] * (2 - len(cells)))
        self._tables[i] = np.array(rows, dtype=np.int64).reshape(-1, 2)
        self.terms[i], self.adding[i] = 2 ** len(summed), adding

    def _additions(self, i: int) -> list[tuple[tuple[str, ...], int]]:
        """The ways step ``i`` may add its terms: every order of its summed variables, one by one, and where one is
        innermost, by groups (the group's sum of products, or a cell of the operand without that variable times the
        sum of the other's)."""
        ops = [self.letters[j] for j in self.operands[i] if j >= 0]
        summed = sorted({c for o in ops for c in o} - set(self.letters[i]))
        ways = []
        for order in permutations(summed):
            ways.append((order, ONE_BY_ONE))
            if order:
                ways.append((order, GROUP_SUM))
                without = [k for k, o in enumerate(ops) if order[-1] not in o]
                if len(ops) == 2 and len(without) == 1:
                    ways.append((order, FIRST_TIMES_SUM if without[0] == 0 else SECOND_TIMES_SUM))
        return ways

    def _finish(self) -> None:
        """The tables as :func:`_run` reads them: a row of ``steps`` per step (kind, operands, first workspace row,
        cells, where its terms start in ``table``, terms per cell, way of adding, first leaf-count row) and the
        operand cells of every term, ``table``."""
        self.table = np.concatenate(self._tables)
        table_start = np.concatenate([[0], np.cumsum([t.shape[0] for t in self._tables])[:-1]])
        columns = (self.kind, *self.operands.T, self.row, self.cells, table_start, self.terms, self.adding)
        self.steps = np.stack([*columns, self.leaf_start], axis=1).astype(np.int64)
        self.n_rows = int(self.cells.sum())
        self._work = np.empty(0)
        self._segments: dict[tuple[int, ...], list[np.ndarray | int]] = {}
        # the cells each step computes, by step (cells[todo_at[i]:todo_at[i + 1]]): every cell, or what some rows need
        self._every_cell = (
            np.concatenate([np.arange(c) for c in self.cells]).astype(np.int64),
            np.concatenate([[0], np.cumsum(self.cells)]).astype(np.int64),
        )

    def _choose_orders(self) -> None:
        """Each product step's additions: the first way (:meth:`_additions`) that gives numpy's bits, batch-last or,
        for the steps numpy runs batch-first, batch-first; numpy's own step where none does. Tried on random operands
        of full-precision values, laid out in memory as numpy's evaluation lays them out (which is what numpy's choice
        of order follows), for the batch shapes of a single seed's replicates, of several seeds' and of a flat batch;
        then the whole programme is checked on random counts."""
        program = self.program
        rng = np.random.default_rng(0)
        every = range(len(program._steps))
        first = program._batch_first_steps()
        cases = []
        for batch in ((1, 64), (3, 40), (120,)):  # one seed's replicates, several seeds', a flat batch
            counts = rng.integers(0, 40, (program.n_leaf_cells, *batch)).astype(float)
            counts[rng.random(counts.shape) < 0.1] = 0  # empty cells: 0/0 where a leaf's arm has no samples
            totals = rng.integers(40, 400, (len(program.layout.arms), *batch)).astype(float)
            cases.append((counts, totals, program._evaluate_steps(counts, totals, every, True, first)))
        for i in every:
            if self.kind[i] != PRODUCT:
                continue
            trials = [self._trial(i, ref, rng, i in first) for _, _, ref in cases]
            for order, adding in self._additions(i):
                self._set_order(i, order, adding)
                self._finish()
                if all(self._step_agrees(i, *trial) for trial in trials):
                    break
            else:
                self.kind[i] = NUMPY
        self._finish()
        for counts, totals, ref in cases:  # the whole programme, compiled and numpy steps together
            got = self.run(counts, totals, every)
            if not all(np.array_equal(got[i], ref[i], equal_nan=True) for i in every):
                # A step left to numpy runs here on the workspace's layout, not on numpy's own, so on another build
                # it may add otherwise: then the programme is evaluated on numpy's path (slower, the same numbers).
                warnings.warn(
                    "the compiled POMIS+ evaluation differs from numpy's on this build; evaluating with numpy",
                    RuntimeWarning,
                    stacklevel=2,
                )
                self.agrees = False
        self._work = np.empty(0)

    def _trial(self, i: int, ref: list, rng: np.random.Generator, first: bool) -> tuple[list[np.ndarray], np.ndarray]:
        """Random operands of step ``i`` laid out in memory as numpy's (``ref``), and numpy's value of the step, as
        :meth:`_numpy_step` computes it."""
        operands = []
        for j in self._inputs(i):
            value = np.empty_like(ref[j])  # the same strides
            value[...] = rng.uniform(0.5, 1.0, value.shape) * 2.0 ** rng.integers(-20, 20, value.shape)
            operands.append(value)
        nb = ref[i].ndim - len(self.letters[i])
        return operands, self._numpy_value(i, operands, nb, first)

    def _step_agrees(self, i: int, operands: list[np.ndarray], expected: np.ndarray) -> bool:
        """Whether the compiled step ``i`` on ``operands`` gives numpy's bits, ``expected``."""
        X = expected.size // self.cells[i]
        work = np.zeros((self.n_rows, X))
        for j, value in zip(self.operands[i], operands):
            self._rows(work, j)[:] = value.reshape(self.cells[j], X)
        empty = np.zeros((0, X))
        _run(np.array([i]), self.steps, self.table, self._every_cell[0], self._every_cell[1], empty, empty, work)
        return bool(np.array_equal(self._rows(work, i), expected.reshape(self.cells[i], X)))

    # ------------------------------------------------------------------------------------------------ running
    def run(
        self, leaf_counts: np.ndarray, totals: np.ndarray, plan: Sequence[int], keep: Sequence[int] | None = None
    ) -> list:
        """Every step of ``plan`` on leaf counts (n_leaf_cells, *batch) and sample sizes (n_arms, *batch or
        broadcastable): the factors (2, ..., 2, *batch) of the slots ``keep`` of ``plan`` (default: all of it) by
        slot, None elsewhere, as :meth:`Program._evaluate_steps` returns them batch-last."""
        work, batch = self._fill(leaf_counts, totals, plan)
        slots: list = [None] * len(self.kind)
        for i in set(plan).intersection(plan if keep is None else keep):
            slots[i] = self._rows(work, i).reshape((2,) * len(self.letters[i]) + batch).copy()
        return slots

    def gather(
        self,
        leaf_counts: np.ndarray,
        totals: np.ndarray,
        plan: Sequence[int],
        rows: np.ndarray,
        todo: tuple[np.ndarray, np.ndarray],
    ) -> np.ndarray:
        """The workspace ``rows`` (slot i's cell c is row ``row[i] + c``), (len(rows), *batch), after the steps of
        ``plan``, each computing only the cells ``todo`` (:meth:`demand`) that these rows need: a few cells of a few
        factors, each with the bits :meth:`run` gives it."""
        work, batch = self._fill(leaf_counts, totals, plan, todo)
        return work[rows].reshape((rows.size, *batch))

    def demand(self, plan: Sequence[int], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cells each step of ``plan`` must compute for the workspace ``rows``, as :func:`_run` reads them (by
        step, ``cells[at[i]:at[i + 1]]``), from the last step back: a division needs its two operand cells, a product
        the operand cells of its terms, a step left to numpy every cell of its operands. A cell is computed as in a
        full pass, so its bits do not depend on which other cells are."""
        need = np.zeros(self.n_rows, dtype=bool)
        need[rows] = True
        for i in reversed(plan):
            kind, first, second, row, cells, t0, k = self.steps[i, :7]
            mine = np.flatnonzero(need[row : row + cells])
            if not mine.size or kind == LEAF:
                continue
            if kind == NUMPY:
                for j in self._inputs(i):
                    need[self.row[j] : self.row[j] + self.cells[j]] = True
                continue
            terms = t0 + mine if kind == DIVIDE else (t0 + mine[:, None] * k + np.arange(k)).ravel()
            need[self.row[first] + self.table[terms, 0]] = True
            if second >= 0:
                need[self.row[second] + self.table[terms, 1]] = True
        cells = [np.flatnonzero(need[r : r + c]) for r, c in zip(self.row, self.cells)]
        return (
            np.concatenate(cells).astype(np.int64),
            np.concatenate([[0], np.cumsum([c.size for c in cells])]).astype(np.int64),
        )

    def _fill(
        self,
        leaf_counts: np.ndarray,
        totals: np.ndarray,
        plan: Sequence[int],
        todo: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, tuple]:
        """The workspace (n_rows, X) after every step of ``plan`` (the cells ``todo`` of each, :meth:`demand`;
        default every cell), and the batch shape. Sample sizes that are constant along trailing batch axes (a seed's
        replicates share its tables' sizes) go to :func:`_run` once per value, not broadcast along them."""
        batch = leaf_counts.shape[1:]
        X = prod(batch)
        counts = np.ascontiguousarray(leaf_counts).reshape(leaf_counts.shape[0], X)
        shape = totals.shape[1:]
        lead = len(shape)
        while lead and shape[lead - 1] == 1:
            lead -= 1
        if len(shape) == len(batch) and shape[:lead] == batch[:lead]:
            sizes = np.ascontiguousarray(totals, dtype=float).reshape(totals.shape[0], prod(batch[:lead]))
        else:
            sizes = np.ascontiguousarray(np.broadcast_to(totals, (totals.shape[0], *batch)), dtype=float)
            sizes = sizes.reshape(totals.shape[0], X)
        if self._work.size < self.n_rows * X:
            self._work = np.empty(self.n_rows * X)
        work = self._work[: self.n_rows * X].reshape(self.n_rows, X)
        cells, at = todo or self._every_cell
        for part in self._segments_of(tuple(plan)):
            if isinstance(part, int):
                self._numpy_step(part, work, batch)
            else:
                _run(part, self.steps, self.table, cells, at, counts, sizes, work)
        return work, batch

    def _segments_of(self, plan: tuple[int, ...]) -> list[np.ndarray | int]:
        """``plan`` as runs of compiled steps (arrays) between the steps numpy runs (ints), remembered per plan."""
        if plan not in self._segments:
            parts: list[np.ndarray | int] = []
            run: list[int] = []
            for i in plan:
                if self.kind[i] == NUMPY:
                    parts += [np.array(run, dtype=np.int64), i] if run else [i]
                    run = []
                else:
                    run.append(i)
            self._segments[plan] = parts + ([np.array(run, dtype=np.int64)] if run else [])
        return self._segments[plan]

    def _numpy_step(self, i: int, work: np.ndarray, batch: tuple[int, ...]) -> None:
        """Step ``i`` run by numpy (batch-first where :meth:`Program._batch_first_steps` says), into ``work``."""
        operands = [self._rows(work, j).reshape((2,) * len(self.letters[j]) + batch) for j in self._inputs(i)]
        value = self._numpy_value(i, operands, len(batch), i in self.program._batch_first_steps())
        self._rows(work, i)[:] = value.reshape(self.cells[i], -1)

    def _numpy_value(self, i: int, operands: list[np.ndarray], nb: int, first: bool) -> np.ndarray:
        """numpy's value of step ``i`` on batch-last ``operands``, batch-first with ``first`` (as
        :meth:`Program._evaluate_steps` computes it)."""
        step = self.program._steps[i]
        with np.errstate(divide="ignore", invalid="ignore"):
            if first:
                firsts = [np.ascontiguousarray(batch_first(o, nb)) for o in operands]
                return batch_last(self.program._step(step, firsts, nb, False), nb)
            return self.program._step(step, operands, nb, True)

    def _inputs(self, i: int) -> list[int]:
        return [int(j) for j in self.operands[i] if j >= 0]

    def _rows(self, work: np.ndarray, i: int) -> np.ndarray:
        """Slot ``i``'s rows of the workspace, (cells, X)."""
        return work[self.row[i] : self.row[i] + self.cells[i]]


def _factor_letters(program: Program) -> list[str]:
    """Each slot's variables as the letters of the programme's einsum specs, in its axis order."""
    letters: list[str] = []
    for step in program._steps:
        if step[0] == "leaf":
            letters.append("".join(program._letters[v] for v in program.leaf_vars(step[1])))
        elif step[0] == "einsum":
            letters.append(step[1].split("->")[1].removeprefix("..."))
        elif step[0] == "sum":
            letters.append("".join(c for k, c in enumerate(letters[step[1]]) if k not in step[2]))
        else:
            num, den = letters[step[1]], letters[step[2]]
            letters.append(num + "".join(c for c in den if c not in num))
    return letters


def _assignments(letters: Sequence[str]) -> list[dict[str, int]]:
    """Every assignment of 0/1 to ``letters``, in C order (the first letter most significant)."""
    return [dict(zip(letters, bits)) for bits in product((0, 1), repeat=len(letters))]


def _cell(letters: str, values: dict[str, int]) -> int:
    """The cell of a factor over ``letters`` (C order) at ``values``."""
    index = 0
    for c in letters:
        index = 2 * index + values[c]
    return index


@numba.njit(cache=True, error_model="numpy")
def _run(run, steps, table, todo, todo_at, counts, sizes, work) -> None:
    """The compiled steps ``run`` in order (see the module docstring): step i's row of ``steps`` holds its kind, its
    operands (-1: none), its first row of ``work`` and its cells, where its terms start in ``table`` and how many an
    output cell has, how they are added, and (a leaf) its first leaf-count row; slot i's cell c is row ``row + c`` of
    ``work``, its batch along it; step i computes the cells ``todo[todo_at[i]:todo_at[i + 1]]``. ``sizes`` (arms,
    X / r): each sample size holds for r consecutive batch positions."""
    X = work.shape[1]
    repeat = X // max(sizes.shape[1], 1)  # batch positions that share a sample size (consecutive)
    group = np.empty(X)
    for i in run:
        kind, first, second, row, _, t0, k, how, leaf = steps[i]
        for c in todo[todo_at[i] : todo_at[i + 1]]:
            out = work[row + c]
            if kind == LEAF:
                n, size = counts[leaf + c], sizes[table[t0 + c, 0]]
                for j in range(size.size):
                    for x in range(j * repeat, (j + 1) * repeat):
                        out[x] = n[x] / size[j]
            elif kind == DIVIDE:
                num, den = work[steps[first, 3] + table[t0 + c, 0]], work[steps[second, 3] + table[t0 + c, 1]]
                for x in range(X):
                    out[x] = num[x] / den[x]
            elif kind == PRODUCT:
                out[:] = 0.0
                width = 1 if how == ONE_BY_ONE else 2
                for r0 in range(t0 + c * k, t0 + (c + 1) * k, width):
                    into = out if how == ONE_BY_ONE else group
                    if how != ONE_BY_ONE:
                        group[:] = 0.0
                    for r in range(r0, r0 + width):
                        a = work[steps[first, 3] + table[r, 0]]
                        b = a if second < 0 else work[steps[second, 3] + table[r, 1]]
                        if second < 0 or how == SECOND_TIMES_SUM:
                            for x in range(X):
                                into[x] += a[x]
                        elif how == FIRST_TIMES_SUM:
                            for x in range(X):
                                into[x] += b[x]
                        else:
                            for x in range(X):
                                into[x] += a[x] * b[x]
                    if how == GROUP_SUM:
                        for x in range(X):
                            out[x] += group[x]
                    elif how != ONE_BY_ONE:
                        held = first if how == FIRST_TIMES_SUM else second
                        factor = work[steps[held, 3] + table[r0, 0 if how == FIRST_TIMES_SUM else 1]]
                        for x in range(X):
                            out[x] += factor[x] * group[x]
