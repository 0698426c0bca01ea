"""Observational count tables and the Eq. (10) plug-in estimate of CCPE-General (cpe §5.1).

For an arm a = do(S = s) with admissible sequence Z_1..Z_k (Definition 3), over the t
observational samples (docs/papers/cpe.md#cpe-ccpe-general, decoding the missing Eq. 11):

    T_{a,z}   = #{j : S_j = s, Z_{a,j} = z}
    r_{a,z}   = (1 / T_{a,z}) Σ_j 1{S_j = s, Z_{a,j} = z} Y_j
    p_{a,z,l} = #{j : Z_{l,j} = z_l, Z_{i,j} = z_i, S_{i,j} = s_i, i <= l−1} / n_{a,z,l},
    n_{a,z,l} = #{j : Z_{i,j} = z_i, S_{i,j} = s_i, i <= l−1}
    μ̂_{O,a}  = Σ_z r_{a,z} Π_l p_{a,z,l},       T_a = min_z T_{a,z}   (0/0 counts as T_a = 0)

Every count is a cell of a table over a tuple of columns: (S, Z_a) gives T_{a,z} and, with the
sum of Y per cell, r_{a,z}; (S_{<l}, Z_{<=l}) and (S_{<l}, Z_{<l}) give the numerator of p_{a,z,l}
and n_{a,z,l}. Arms that need the same columns share a table, and an observation increments one
cell per table. All tables of all seeds live in two integer arrays (seeds × cells), so counts are
exact and each seed's numbers never depend on the other seeds. Arms without a sequence (and any
arm not given one) get T_a = 0. The same tables with Z_a = ∅ give E[Y | S = s] and #{S = s} for
Lattimore et al.'s parallel bandit and the naive ablation.

A row's cell in every table is found in one compiled pass (:func:`_cells`, numba, cached on disk beside this module):
integer sums, the same cells whatever the order; as a matrix product they cost more per row the more rows a call
holds (the parallel bandit's blocks of rounds). Every arm's estimate is one compiled pass too (:func:`_estimates`): the
same floating-point operations as the whole-array numpy expression it replaced, in the same order (the sum over an arm's
pairs as ``np.add.reduceat`` adds them, :func:`_pairwise_sum`), so the same bits, in 40% of its time (94 against 245 µs
a call on E3's tables, which CCPE-General redoes every iteration).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numba
import numpy as np

from causal_bandits.bandits.pure_exploration import Arm, ColumnSequence


@numba.njit(cache=True)
def _cell(
    values: np.ndarray, r: int, g: int, cols: np.ndarray, widths: np.ndarray, weights: np.ndarray, offsets: np.ndarray
):
    """Table ``g``'s cell of row ``r`` of ``values`` (rows × columns): offsets[g] + Σ_j values[r, cols[g, j]] ·
    weights[g, j] over its first ``widths[g]`` columns (what :func:`_cells` and :func:`_record_block` both count)."""
    cell = offsets[g]
    for j in range(widths[g]):
        cell += values[r, cols[g, j]] * weights[g, j]
    return cell


@numba.njit(cache=True)
def _cells(values: np.ndarray, cols: np.ndarray, widths: np.ndarray, weights: np.ndarray, offsets: np.ndarray):
    """``out[r, g]``: row ``r``'s cell in table ``g`` (:func:`_cell`)."""
    out = np.empty((values.shape[0], cols.shape[0]), dtype=np.int64)
    for r in range(values.shape[0]):
        for g in range(cols.shape[0]):
            out[r, g] = _cell(values, r, g, cols, widths, weights, offsets)
    return out


@numba.njit(cache=True, inline="always")
def record_row(counts, ysum, s, values, r, hit, cols, widths, weights, offsets):
    """counts[s, c] += 1, and ysum[s, c] += 1 if ``hit`` (the reward is 1), for every table's cell c (:func:`_cell`)
    of row ``r`` of ``values``, in place (inlined where it is called)."""
    for g in range(cols.shape[0]):
        cell = _cell(values, r, g, cols, widths, weights, offsets)
        counts[s, cell] += 1
        if hit:
            ysum[s, cell] += 1


@numba.njit(cache=True)
def _record_block(counts, ysum, values, rewards, cols, widths, weights, offsets):
    """:func:`record_row` for every row of seed s's block (values (n, L, columns), rewards (n, L)), in place: the cells
    are never stored."""
    for s in range(values.shape[0]):
        block = values[s]
        for r in range(values.shape[1]):
            record_row(counts, ysum, s, block, r, rewards[s, r] == 1.0, cols, widths, weights, offsets)


@numba.njit(cache=True)
def _record(counts, ysum, cells, rewards):
    """counts[r, c] += 1 and ysum[r, c] += int(rewards[r]) for every cell c = cells[r, g] of seed r, in place (integer
    sums: the counts of the flat fancy-indexed increments it replaced)."""
    for r in range(cells.shape[0]):
        y = np.int64(rewards[r])
        for g in range(cells.shape[1]):
            counts[r, cells[r, g]] += 1
            ysum[r, cells[r, g]] += y


@numba.njit(cache=True)
def _pairwise_sum(x: np.ndarray, start: int, n: int) -> float:
    """Σ x[start : start + n] in the order of numpy's pairwise summation (the loop numpy's ``add`` reduces float64
    with): below 8 terms one after another from −0.0, up to 128 in eight interleaved partial sums added pairwise,
    the rest one after another, and longer runs split in two halves (the first a multiple of 8 long)."""
    if n < 8:
        total = -0.0
        for i in range(start, start + n):
            total += x[i]
        return total
    if n <= 128:
        r0, r1, r2, r3 = x[start], x[start + 1], x[start + 2], x[start + 3]
        r4, r5, r6, r7 = x[start + 4], x[start + 5], x[start + 6], x[start + 7]
        i = start + 8
        whole = start + n - n % 8
        while i < whole:
            r0, r1, r2, r3 = r0 + x[i], r1 + x[i + 1], r2 + x[i + 2], r3 + x[i + 3]
            r4, r5, r6, r7 = r4 + x[i + 4], r5 + x[i + 5], r6 + x[i + 6], r7 + x[i + 7]
            i += 8
        total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for j in range(i, start + n):
            total += x[j]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(x, start, half) + _pairwise_sum(x, start + half, n - half)


@numba.njit(cache=True, error_model="numpy")
def _estimates(counts, ysum, pair_cell, ratios, factors, n_factors, arms, starts, n_arms):
    """Eq. (10) per seed and arm, ``(mu, T)`` (seeds × ``n_arms``, zero for arms without pairs), bit for bit the array
    expression it replaced. Per seed, ratio q = counts[ratios[q, 0]] / counts[ratios[q, 1]] (float division, inf or
    NaN on a zero count; computed once however many pairs share it); per pair p (cell c), term = ysum[c] / counts[c]
    times ratio factors[p, f] for f = 0 .. n_factors[p] − 1 in that order (the array expression multiplied a pair's
    missing factors by 1.0: the same bits); per arm i (pairs starts[i] .. starts[i + 1] − 1), T = the least count of
    its pairs' cells and μ̂ = the sum of its terms as ``np.add.reduceat`` adds a segment (the first term plus the
    pairwise sum of the others, :func:`_pairwise_sum`), 0 where T = 0. Segments of up to 8 terms are summed in place,
    longer ones in a loop of their own: a call (even inlined by numba) in the loop over arms made every arm slower."""
    n_seeds, n_pairs = counts.shape[0], pair_cell.shape[0]
    mu = np.zeros((n_seeds, n_arms))
    T = np.zeros((n_seeds, n_arms), dtype=np.int64)
    ratio, term = np.empty(ratios.shape[0]), np.empty(n_pairs)
    for r in range(n_seeds):
        count, y = counts[r], ysum[r]
        for q in range(ratios.shape[0]):
            ratio[q] = count[ratios[q, 0]] / count[ratios[q, 1]]
        for p in range(n_pairs):
            value = y[pair_cell[p]] / count[pair_cell[p]]
            for f in range(n_factors[p]):
                value = value * ratio[factors[p, f]]
            term[p] = value
        for i in range(arms.shape[0]):
            start = starts[i]
            end = starts[i + 1] if i + 1 < arms.shape[0] else n_pairs
            least = count[pair_cell[start]]
            for p in range(start + 1, end):
                least = min(least, count[pair_cell[p]])
            T[r, arms[i]] = least
            if least > 0 and end - start <= 8:  # numpy's pairwise sum of the others: one after another from −0.0
                total = term[start]
                if end - start > 1:
                    rest = term[start + 1]  # −0.0 + x is x
                    for p in range(start + 2, end):
                        rest += term[p]
                    total += rest
                mu[r, arms[i]] = total
        for i in range(arms.shape[0]):
            start = starts[i]
            end = starts[i + 1] if i + 1 < arms.shape[0] else n_pairs
            if end - start > 8 and T[r, arms[i]] > 0:
                mu[r, arms[i]] = term[start] + _pairwise_sum(term, start + 1, end - start - 1)
    return mu, T


@numba.njit(cache=True, error_model="numpy")
def _refresh(counts, ysum, cells, arm_of_cell, mu, T):
    """For every (seed r, table g) whose cell c = cells[r, g] is an arm's (a = arm_of_cell[c] >= 0), in place:
    T[r, a] = counts[r, c] and mu[r, a] = ysum[r, c] / counts[r, c], 0 where the count is 0. Element by element the
    array expression it replaced (the same division; distinct tables' cells are distinct arms', so the order of the
    writes is free), without its ten temporaries per observation."""
    for r in range(cells.shape[0]):
        for g in range(cells.shape[1]):
            c = cells[r, g]
            a = arm_of_cell[c]
            if a >= 0:
                T[r, a] = counts[r, c]
                mu[r, a] = ysum[r, c] / counts[r, c] if counts[r, c] > 0 else 0.0


class Strata:
    """Tables over {0,1}^|C| for column sets C_1, C_2, ..., laid end to end in one flat axis.

    ``cells(values)`` gives, per value row, the flat cell of each table (first column most
    significant), so one fancy-indexed increment records an observation in every table.
    """

    def __init__(self, columns: Sequence[tuple[int, ...]]):
        sizes = [2 ** len(c) for c in columns]
        self.offsets = np.cumsum([0, *sizes])[:-1].astype(np.int64)
        self.n_cells = int(sum(sizes))
        width = max((len(c) for c in columns), default=0)
        self._cols = np.zeros((len(columns), max(width, 1)), dtype=np.int64)
        self._weights = np.zeros_like(self._cols)
        self._widths = np.array([len(c) for c in columns], dtype=np.int64)
        for g, cols in enumerate(columns):
            self._cols[g, : len(cols)] = cols
            self._weights[g, : len(cols)] = 1 << np.arange(len(cols))[::-1]

    def cells(self, values: np.ndarray) -> np.ndarray:
        """Flat cell of every table for each row of ``values`` (rows × columns of 0/1), shape (rows, tables)."""
        values = np.ascontiguousarray(values, dtype=np.int64)
        return _cells(values, self._cols, self._widths, self._weights, self.offsets)

    def kernel(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The tables as :func:`record_row` reads them, for rows whose observed variable k is in column ``columns[k]``
        (whole rows of an environment's node program, counted where they are drawn: the parallel bandit's windows)."""
        return np.asarray(columns, dtype=np.int64)[self._cols], self._widths, self._weights, self.offsets

    def record_block(self, counts: np.ndarray, ysum: np.ndarray, values: np.ndarray, rewards: np.ndarray) -> None:
        """Count every block row (values (n, L, columns), 0/1 rewards (n, L)) in its cell of every table, per seed, in
        place: ``counts`` (n, n_cells) and ``ysum`` (the rows with reward 1) gain what the rows' :meth:`cells` index."""
        values = np.ascontiguousarray(values, dtype=np.int64)
        _record_block(
            counts,
            ysum,
            values,
            np.asarray(rewards, dtype=np.float64),
            self._cols,
            self._widths,
            self._weights,
            self.offsets,
        )


class CountTables:
    """The tables every arm's Eq. (10) estimate needs, and the estimate per arm.

    For an arm with sequence (S, Z_1..Z_k) three kinds of table are needed, each a table over a
    tuple of columns: (S, Z_a) for T_{a,z} and r_{a,z}; (S_{<l}, Z_{<=l}) and (S_{<l}, Z_{<l})
    for the numerator and n_{a,z,l} of p_{a,z,l} (the table over no column counts every sample).
    Equal column tuples share one table. A (seed, table) pair gets one increment per observation.
    """

    def __init__(self, arms: Sequence[Arm], sequences: Sequence[ColumnSequence | None]):
        if len(arms) != len(sequences):
            raise ValueError("give one sequence (or None) per arm")
        self.n_arms = len(arms)
        tables: dict[tuple[int, ...], int] = {}
        self.Z_size = np.zeros(self.n_arms, dtype=np.int64)
        self.identified = np.zeros(self.n_arms, dtype=bool)
        pairs: list[tuple[int, tuple, list, list]] = []  # (arm, full cell, numerator cells, denominator cells)

        def table(columns: tuple[int, ...]) -> int:
            return tables.setdefault(columns, len(tables))

        for a, (arm, seq) in enumerate(zip(arms, sequences)):
            if seq is None:
                continue
            order, blocks = seq
            values = dict(arm)
            if sorted(order) != sorted(values):
                raise ValueError(f"arm {a}: sequence order {order} does not match the intervened columns")
            Zs = tuple(z for b in blocks for z in b)
            self.identified[a] = True
            self.Z_size[a] = len(Zs)
            s = tuple(values[c] for c in order)
            full = table(tuple(order) + Zs)
            for z in product((0, 1), repeat=len(Zs)):
                num, den = [], []
                start = 0  # position of block l's first variable in Z_a
                for l, block in enumerate(blocks):
                    if block:
                        head = tuple(order[:l]) + Zs[:start]
                        den.append((table(head), s[:l] + z[:start]))
                        num.append((table(head + tuple(block)), s[:l] + z[: start + len(block)]))
                    start += len(block)
                pairs.append((a, (full, s + z), num, den))

        self.strata = Strata(list(tables))
        self.n_cells = self.strata.n_cells

        def cell(ref: tuple[int, tuple[int, ...]]) -> int:
            t, bits = ref
            return int(self.strata.offsets[t]) + int("".join(map(str, bits)) or "0", 2)

        n_fac = max((len(num) for *_, num, _ in pairs), default=0)
        self._pair_cell = np.array([cell(full) for _, full, _, _ in pairs], dtype=np.int64)
        ratios: dict[tuple[int, int], int] = {}  # (numerator cell, denominator cell) of each distinct p_{a,z,l}
        self._factors = np.zeros((len(pairs), n_fac), dtype=np.int64)  # the ratios of a pair's factors, in order
        self._n_factors = np.array([len(num) for *_, num, _ in pairs], dtype=np.int64)
        for p, (_, _, num, den) in enumerate(pairs):
            for f, refs in enumerate(zip(num, den)):
                self._factors[p, f] = ratios.setdefault((cell(refs[0]), cell(refs[1])), len(ratios))
        self._ratios = np.array(list(ratios), dtype=np.int64).reshape(-1, 2)
        pair_arm = np.array([a for a, *_ in pairs], dtype=np.int64)
        self._arms_with_pairs = np.unique(pair_arm)
        self._starts = np.searchsorted(pair_arm, self._arms_with_pairs)
        #: Every estimated arm reads one cell of one table (Z_a = ∅ for all: parallel graphs, the BGLM, the naive
        #: ablation): an observation then changes the estimate of one arm per table, which :meth:`refresh` redoes.
        self.whole_arms = n_fac == 0
        self._arm_of_cell = np.full(self.n_cells, -1, dtype=np.int64)
        self._arm_of_cell[self._pair_cell] = pair_arm

    def empty(self, n_seeds: int) -> tuple[np.ndarray, np.ndarray]:
        """Fresh (counts, reward sums), both int64 of shape (n_seeds, n_cells)."""
        return np.zeros((n_seeds, self.n_cells), dtype=np.int64), np.zeros((n_seeds, self.n_cells), dtype=np.int64)

    def add(self, counts: np.ndarray, ysum: np.ndarray, values: np.ndarray, rewards: np.ndarray) -> np.ndarray | None:
        """Record one observation per seed (value rows (n, n_vars), 0/1 rewards (n,)) in place; returns the cells
        it incremented, (n, tables) (None without tables), for :meth:`refresh`."""
        if not self.n_cells:
            return None
        cells = self.strata.cells(values)
        _record(counts, ysum, cells, rewards)
        return cells

    def add_block(self, counts: np.ndarray, ysum: np.ndarray, values: np.ndarray, rewards: np.ndarray) -> None:
        """Record L observations per seed (value rows (n, L, n_vars), 0/1 rewards (n, L)) in place: the counts
        :meth:`add` would leave after L calls (integer sums, so their order does not matter)."""
        if not self.n_cells:
            return
        self.strata.record_block(counts, ysum, values, rewards)

    def refresh(
        self, counts: np.ndarray, ysum: np.ndarray, mu: np.ndarray, T: np.ndarray, cells: np.ndarray | None
    ) -> None:
        """:meth:`estimates` ``(mu, T)`` brought up to date in place after one :meth:`add` that incremented ``cells``,
        where every arm reads a single cell (``whole_arms``): only the arms whose cell changed are recomputed, with
        the same arithmetic, so the numbers are those of :meth:`estimates` bit for bit."""
        if not self.whole_arms:
            raise ValueError("refresh needs whole arms (no arm with an adjustment set); use estimates")
        if cells is not None:
            _refresh(counts, ysum, cells, self._arm_of_cell, mu, T)

    def estimates(self, counts: np.ndarray, ysum: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(μ̂_O, T_a), each (n_seeds, n_arms); μ̂_O = 0 where T_a = 0 (including unidentified arms)."""
        pairs = (self._pair_cell, self._ratios, self._factors, self._n_factors)
        return _estimates(counts, ysum, *pairs, self._arms_with_pairs, self._starts, self.n_arms)
