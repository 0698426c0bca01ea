"""The bootstrap resamples of z²-TS and z²-KL-UCB, drawn lazily by groups of cells
(docs/papers/nonmanip.md#nonmanip-bmvwa).

The bMVWA bootstrap (AAAI-19 Alg. 2 lines 2-5) needs B multinomial resamples of every arm's count table, but
a refresh reads a table only through the leaf-count columns that its used instances read
(:attr:`~causal_bandits.causal.estimators.InstanceEstimators.reads_cells`). :class:`LazyResamples` draws
just that much, with the law of the full draw:

* **grouped draw.** The cells of a table whose patterns over the wanted columns agree form one group; the
  group totals of a multinomial resample are multinomial with the groups' probabilities, and the wanted
  columns are sums of group totals. So one multinomial over the groups gives the wanted columns exactly as
  the projection of a full multinomial resample would.
* **refinement.** While the table is unchanged its resample is reused (as a full draw would be). A later
  refresh that wants more of its columns splits every group by the finer pattern: given the group totals,
  the cells of each group are multinomial with the group's renormalised probabilities, independently across
  groups (the chain rule of the multinomial), so a multinomial of each group's total over its sub-groups
  reveals the new columns with the joint law of the full draw, the old columns unchanged.

Cells whose projections agree on every column never need telling apart: they are merged once per arm into
*classes* (rows of the arm's projection matrix), and groups are unions of classes. Empty cells cost nothing.
The multinomials are conditional binomials (:mod:`causal_bandits.bandits.multinomial`), groups in decreasing
order of mass, drawn from the seed's own PCG64 stream, so values never depend on which other seeds share the job.
One compiled call per refresh does the grouping, the draws and the projection for every seed it refreshes.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from causal_bandits.bandits.multinomial import conditional_binomials
from causal_bandits.causal.evaluation import Program


class LazyResamples:
    """B resamples of every arm's count table per seed, kept as the replicate leaf counts of ``program``
    (:attr:`replicates`, (seeds, n_leaf_cells, B) exact integers), revealed column by column as refreshes
    want them (:meth:`reveal`)."""

    def __init__(self, program: Program, B: int):
        self.B = int(B)
        self.n_leaf_cells = program.n_leaf_cells
        columns = [cols for cols, _ in program.projections]
        self.n_arms = len(columns)
        # Per arm: its leaf columns (flat, from column_start[a]), the class of each cell (distinct rows of its
        # projection matrix) and each class's pattern over its columns (rows from class_start[a]).
        self.columns = np.concatenate([np.asarray(c, dtype=np.int64) for c in columns])
        self.column_start = np.cumsum([0, *(c.size for c in columns)]).astype(np.int64)
        class_of, patterns = [], []
        for _, matrix in program.projections:
            rows, inverse = np.unique(matrix.astype(bool), axis=0, return_inverse=True)
            class_of.append(inverse.ravel())
            patterns.append(rows)
        self.class_of = np.stack(class_of).astype(np.int64)  # (arms, cells)
        self.class_start = np.cumsum([0, *(p.shape[0] for p in patterns)]).astype(np.int64)
        width = max(1, max(p.shape[1] for p in patterns))
        self.patterns = np.zeros((int(self.class_start[-1]), width), dtype=np.bool_)
        for a, p in enumerate(patterns):
            self.patterns[self.class_start[a] : self.class_start[a + 1], : p.shape[1]] = p
        self.multinomial_seconds = 0.0

    def reset(self, n_seeds: int) -> None:
        n_classes = int(self.class_start[-1])
        self.replicates = np.zeros((n_seeds, self.n_leaf_cells, self.B), dtype=np.int32)
        self.revealed = np.zeros((n_seeds, self.n_leaf_cells), dtype=np.bool_)
        self.drawn_at = np.zeros((n_seeds, self.n_arms))  # each table's size when its resample was drawn
        # per seed and class: its group in the arm's current resample (-1: empty), and per group (numbered within
        # the arm's block of classes) its B replicate totals
        self.labels = np.full((n_seeds, n_classes), -1, dtype=np.int64)
        self.groups = np.zeros((n_seeds, n_classes, self.B), dtype=np.int32)
        self.multinomial_seconds = 0.0

    def reveal(
        self, seeds: np.ndarray, streams: np.ndarray, counts: np.ndarray, n: np.ndarray, want: np.ndarray
    ) -> np.ndarray:
        """Make the replicate columns ``want[i]`` (bool, n_leaf_cells) of seed ``seeds[i]`` resamples of its current
        count tables ``counts[seeds[i]]`` (arms, cells) of sizes ``n[seeds[i]]``, drawn from its PCG64 stream
        ``streams[seeds[i]]`` (:func:`~causal_bandits.bandits.multinomial.pcg64_state`, advanced in place): a table
        whose size changed since its resample was drawn is drawn anew (grouped by the wanted columns), an unchanged
        one is refined if it lacks some. Returns (len(seeds), arms) bool: the tables drawn anew (the others'
        revealed columns keep their values)."""
        start = time.process_time()
        fresh = np.zeros((seeds.size, self.n_arms), dtype=np.bool_)
        static = (self.columns, self.column_start, self.class_of, self.class_start, self.patterns)
        state = (self.replicates, self.revealed, self.drawn_at, self.labels, self.groups)
        _reveal_seeds(seeds, streams, counts, n, want, state, static, fresh)
        self.multinomial_seconds += time.process_time() - start
        return fresh


@numba.njit(cache=True)
def _label(patterns, mass, cols, keep) -> tuple[np.ndarray, np.ndarray]:
    """(group of each class, -1 if empty; each group's first class): classes with mass, grouped by their patterns
    over the arm's columns ``cols`` where ``keep``."""
    k = mass.size
    label = np.full(k, -1, dtype=np.int64)
    first = np.empty(k, dtype=np.int64)
    n_groups = 0
    for i in range(k):
        if mass[i] == 0:
            continue
        for g in range(n_groups):
            same = True
            for j in range(cols):
                if keep[j] and patterns[i, j] != patterns[first[g], j]:
                    same = False
                    break
            if same:
                label[i] = g
                break
        if label[i] < 0:
            label[i] = n_groups
            first[n_groups] = i
            n_groups += 1
    return label, first[:n_groups]


@numba.njit(cache=True)
def _split(stream, label, first, mass, old, old_totals, fresh, total, B) -> np.ndarray:
    """The B totals of each group: a new multinomial of ``total`` over the groups (``fresh``), or each old group's
    totals spread over its sub-groups; groups in decreasing order of mass. (One call site of the sampler: with a second
    one, inlined with it, a replay of a Fig. 5a run's reveals took 1.44 CPU-s instead of 1.04.)"""
    n_groups = first.size
    gmass = np.zeros(n_groups)
    for i in range(mass.size):
        if label[i] >= 0:
            gmass[label[i]] += mass[i]
    totals = np.zeros((n_groups, B), dtype=np.int32)
    for g in range(1 if fresh else old.max() + 1):
        if fresh:
            subs, source = np.arange(n_groups), np.full(B, total, dtype=np.int32)
        else:
            seen = np.zeros(n_groups, dtype=np.bool_)
            for i in range(mass.size):
                if old[i] == g and label[i] >= 0:
                    seen[label[i]] = True
            subs, source = np.flatnonzero(seen), old_totals[g]
            if subs.size == 1:
                totals[subs[0]] = source
                continue
        conditional_binomials(stream, source, subs[np.argsort(-gmass[subs], kind="mergesort")], gmass, totals)
    return totals


@numba.njit(cache=True)
def _reveal_seeds(seeds, streams, counts, n, want, state, static, fresh) -> None:
    """:meth:`LazyResamples.reveal`: seed by seed, each from its own stream."""
    replicates, revealed, drawn_at, labels, groups = state
    for i in range(seeds.size):
        s = seeds[i]
        _reveal(
            streams[s],
            counts[s],
            n[s],
            want[i],
            replicates[s],
            revealed[s],
            drawn_at[s],
            labels[s],
            groups[s],
            static,
            fresh[i],
        )


@numba.njit(cache=True)
def _reveal(stream, counts, n, want, replicates, revealed, drawn_at, labels, groups, static, fresh_out) -> None:
    """One seed's reveal, arm by arm (its state arrays are updated in place)."""
    columns, column_start, class_of, class_start, patterns = static
    B = replicates.shape[1]
    for a in range(column_start.size - 1):
        cols = columns[column_start[a] : column_start[a + 1]]
        wanted = np.zeros(cols.size, dtype=np.bool_)
        missing = False
        for j in range(cols.size):
            wanted[j] = want[cols[j]]
            missing = missing or (wanted[j] and not revealed[cols[j]])
        if not wanted.any():
            continue
        fresh = n[a] != drawn_at[a]
        if not (fresh or missing):
            continue
        if not fresh:
            for j in range(cols.size):
                wanted[j] = wanted[j] or revealed[cols[j]]
        k0, k1 = class_start[a], class_start[a + 1]
        mass = np.zeros(k1 - k0)
        for c in range(class_of.shape[1]):
            mass[class_of[a, c]] += counts[a, c]
        label, first = _label(patterns[k0:k1], mass, cols.size, wanted)
        totals = _split(stream, label, first, mass, labels[k0:k1], groups[k0:k1], fresh, int(n[a]), B)
        labels[k0:k1] = label
        groups[k0 : k0 + first.size] = totals
        for j in range(cols.size):
            revealed[cols[j]] = wanted[j]
            if wanted[j]:
                replicates[cols[j]] = 0
        for g in range(first.size):  # each wanted column: the sum of the groups it counts
            for j in range(cols.size):
                if wanted[j] and patterns[k0 + first[g], j]:
                    row = replicates[cols[j]]
                    for b in range(B):
                        row[b] += totals[g, b]
        if fresh:
            drawn_at[a] = n[a]
            fresh_out[a] = True
