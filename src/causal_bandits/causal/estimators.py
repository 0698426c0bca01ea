"""Estimator instances of the POMIS+ catalogue, compiled once per panel (docs/papers/nonmanip.md#nonmanip-catalogue).

For arm x of target set X, every catalogue expression e targeting X gives one estimator per
assignment f of its free indices F_e: θ̂_(e,f)(D) = e evaluated at (x, f, Y = 1) on the arms'
count tables D. :class:`InstanceEstimators` compiles every expression of a catalogue into one
:class:`~causal_bandits.causal.evaluation.Program` and evaluates all instances of all arms at once,
with any leading batch axes (seeds, bootstrap replicates). It also decides which instances are
*active* (docs/papers/nonmanip.md#nonmanip-a-enough-samples): the paper's support rule — every cell that a leaf P_src(W)
reads, with X ∪ F_e at (x, f) and the summed variables and Y ranging over their values, has a positive count — plus at
least ``n_min`` samples in every source arm the instance reads ([R], docs/papers/nonmanip.md#nonmanip-a-enough-samples).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, cast

import numpy as np

from causal_bandits.causal.evaluation import ArmLayout, Program, Selection
from causal_bandits.causal.expression import Div, Expr, Leaf, Prod, Sum
from causal_bandits.causal.pomis import pomis
from causal_bandits.causal.z2id import Entry, catalogue
from causal_bandits.scm.diagram import CausalDiagram


@dataclass(frozen=True)
class Instance:
    """Estimator (e, f) of arm ``arm``: catalogue entry ``entry``, free indices at ``free``."""

    arm: int
    entry: int
    free: tuple[tuple[str, int], ...]


def _occurrences(e: Expr, bound: frozenset[str] = frozenset()) -> list[tuple[Leaf, frozenset[str]]]:
    """Every leaf of ``e`` with the variables bound (by enclosing sums) where it occurs."""
    if isinstance(e, Leaf):
        return [(e, bound)]
    if isinstance(e, Prod):
        return [o for f in e.factors for o in _occurrences(f, bound)]
    if isinstance(e, Sum):
        return _occurrences(e.body, bound | set(e.vars))
    assert isinstance(e, Div)
    return _occurrences(e.num, bound) + _occurrences(e.den, bound)


class InstanceEstimators:
    """All estimator instances of ``entries`` for the arms of ``layout`` (the POMIS arms).

    Attributes: ``instances`` (ordered by arm, then entry, then f), ``slots`` (n_arms, k_max): the
    instance ids of each arm padded with -1, ``uses`` (n_instances, n_arms): the arms whose data an
    instance reads.
    """

    def __init__(self, entries: Sequence[Entry], layout: ArmLayout, reward: str, n_min: int = 20):
        self.layout, self.reward, self.n_min = layout, reward, int(n_min)
        self.entries = list(entries)
        self.program = Program([e.expr for e in self.entries], layout)
        instances = []
        for a, (s, _) in enumerate(layout.arms):
            for j, e in enumerate(self.entries):
                if e.target == s:
                    for bits in product((0, 1), repeat=len(e.free_indices)):
                        instances.append(Instance(a, j, tuple(zip(e.free_indices, bits))))
        self.instances = instances
        n_arms = len(layout.arms)
        per_arm = [[i for i, inst in enumerate(instances) if inst.arm == a] for a in range(n_arms)]
        self.k_max = max((len(p) for p in per_arm), default=0)
        self.slots = np.full((n_arms, self.k_max), -1, dtype=np.int64)
        for a, ids in enumerate(per_arm):
            self.slots[a, : len(ids)] = ids
        self._which: dict[bytes, tuple[int, ...]] = {}
        # per tuple of entries: their instances and where each one's value sits in its entry's factor (values_of)
        self._selections: dict[tuple[int, ...], tuple[np.ndarray, Selection]] = {}
        self._compile_gathers()

    @property
    def n_instances(self) -> int:
        return len(self.instances)

    def _fixed(self, inst: Instance) -> dict[str, int]:
        return {**self.layout.arm_values(inst.arm), **dict(inst.free)}

    def _compile_gathers(self) -> None:
        """Flat indices: the value of each instance in its expression's factor, the cells its
        leaves must cover, the arms it reads."""
        value_at: list[list[tuple[int, int]]] = [[] for _ in self.entries]
        for i, inst in enumerate(self.instances):
            vs = self.program.outputs[inst.entry]
            fixed = {**self._fixed(inst), self.reward: 1}
            flat = np.ravel_multi_index(tuple(fixed[v] for v in vs), (2,) * len(vs)) if vs else 0
            value_at[inst.entry].append((i, int(flat)))
        # per entry: its instances and where each one's value sits in the entry's flattened factor
        self._value_at = [
            tuple(np.array(col, dtype=np.int64).reshape(-1) for col in zip(*pairs))
            if pairs
            else (np.empty(0, np.int64), np.empty(0, np.int64))
            for pairs in value_at
        ]

        leaf_offset = dict(zip(self.program.leaves, self.program.leaf_offsets))
        self._n_leaf_cells = self.program.n_leaf_cells
        cells: list[np.ndarray] = []
        uses = np.zeros((self.n_instances, len(self.layout.arms)), dtype=bool)
        for i, inst in enumerate(self.instances):
            fixed = self._fixed(inst)
            need = set()
            for lf, bound in _occurrences(self.entries[inst.entry].expr):
                vs = self.program.leaf_vars(lf)
                ranges = [(fixed[v],) if v in fixed and v not in bound else (0, 1) for v in vs]
                for bits in product(*ranges):
                    need.add(
                        int(leaf_offset[lf] + np.ravel_multi_index(bits, (2,) * len(vs)))
                        if vs
                        else int(leaf_offset[lf])
                    )
                grid = self.layout.grid(lf.src)
                pick = tuple(fixed[v] if v in fixed and v not in bound else slice(None) for v in lf.src)
                uses[i, np.ravel(grid[pick])] = True
            cells.append(np.array(sorted(need), dtype=np.int64))
        width = max((c.size for c in cells), default=0)
        # Padding points at an extra column that always holds +inf (a covered cell).
        self._cells = np.full((self.n_instances, width), self._n_leaf_cells, dtype=np.int64)
        #: reads_cells[i, l]: instance i's value and support read leaf-count position l
        self.reads_cells = np.zeros((self.n_instances, self._n_leaf_cells), dtype=bool)
        for i, c in enumerate(cells):
            self._cells[i, : c.size] = c
            self.reads_cells[i, c] = True
        self.uses = uses

    # ---------------------------------------------------------------------------------- values
    def _flat_values(self, factors: list[np.ndarray | None], batch: tuple[int, ...]) -> np.ndarray:
        out = np.full((*batch, self.n_instances), np.nan)
        for f, (ids, at) in zip(factors, self._value_at):
            if f is not None and ids.size:
                out[..., ids] = f.reshape((*batch, -1))[..., at]
        return out

    def values(self, leaf_counts: np.ndarray, totals: np.ndarray, arms: np.ndarray | None = None) -> np.ndarray:
        """θ̂_i(D) for every instance, shape (*batch, n_instances), from the data's leaf counts and the
        arms' sample sizes (:meth:`Program.evaluate_leaves`); nan/inf where undefined. With ``arms``
        (bool, n_arms), only the expressions targeting those arms are computed (nan else)."""
        which = None if arms is None else self._entries_of(np.asarray(arms, dtype=bool).tobytes())
        return self._flat_values(self.program.evaluate_leaves(leaf_counts, totals, which), leaf_counts.shape[:-1])

    def values_last(
        self, leaf_counts: np.ndarray, totals: np.ndarray, entries: Sequence[int] | None = None
    ) -> np.ndarray:
        """:meth:`values` with the batch axes last (:meth:`Program.evaluate_last`): leaf counts (n_leaf_cells,
        *batch) and sample sizes (n_arms, *batch) give (n_instances, *batch), the same numbers bit for bit.
        With ``entries``, only those catalogue entries' instances are computed (nan else)."""
        ids, values = self.values_of(leaf_counts, totals, range(len(self.entries)) if entries is None else entries)
        out = np.full((self.n_instances, *leaf_counts.shape[1:]), np.nan)
        out[ids] = values
        return out

    def values_of(
        self, leaf_counts: np.ndarray, totals: np.ndarray, entries: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """(instances, their values): :meth:`values_last` for the instances of catalogue ``entries`` only, in entry
        order, (len(instances), *batch), the same numbers bit for bit without the nan-filled rows of the others (a
        bootstrap refresh reads a few of Fig. 5c's 118 instances on 500 replicates)."""
        key = tuple(entries)
        if not key:
            return np.empty(0, dtype=np.int64), np.empty((0, *leaf_counts.shape[1:]))
        if key not in self._selections:
            ids = np.concatenate([self._value_at[e][0] for e in key])
            self._selections[key] = ids, self.program.select(key, [self._value_at[e][1] for e in key])
        ids, selection = self._selections[key]
        return ids, self.program.cells_last(leaf_counts, totals, selection)

    def instances_of(self, entries: Sequence[int]) -> np.ndarray:
        """The instances of catalogue ``entries``, sorted."""
        return np.sort(np.concatenate([self._value_at[e][0] for e in entries]))

    def _entries_of(self, arms: bytes) -> tuple[int, ...]:
        """The entries targeting the arm sets of the arms marked in ``arms`` (a bool mask's bytes;
        remembered per mask, since a run asks for the same few masks over and over)."""
        if arms not in self._which:
            sets = {self.layout.arms[a][0] for a in np.flatnonzero(np.frombuffer(arms, dtype=bool))}
            self._which[arms] = tuple(j for j, e in enumerate(self.entries) if e.target in sets)
        return self._which[arms]

    def support(
        self, table: np.ndarray, rows: np.ndarray | None = None, instances: np.ndarray | None = None
    ) -> np.ndarray:
        """Whether supports are covered (docs/papers/nonmanip.md#nonmanip-a-enough-samples) in ``table``: leaf counts
        whose column ``n_leaf_cells`` is +inf (where the instances' cell lists are padded, :meth:`padded`). Every
        instance of every batch row, (*batch, n_instances), or only the pairs (rows[i], instances[i])."""
        if instances is None:
            return cast(np.ndarray, (table[..., self._cells] > 0).all(axis=-1))  # _cells is 2-d: an array
        assert rows is not None  # instances come with their rows
        return cast(np.ndarray, (table[rows[:, None], self._cells[instances]] > 0).all(axis=-1))

    def padded(self, leaf_counts: np.ndarray) -> np.ndarray:
        """Leaf counts (*batch, n_leaf_cells) with the +inf column :meth:`support` needs."""
        return np.concatenate([leaf_counts, np.full((*leaf_counts.shape[:-1], 1), np.inf)], axis=-1)

    def values_and_support(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values, support covered) for every instance on count tables (*batch, n_arms, n_cells)."""
        leaf_counts = self.program.leaf_counts(counts)
        totals = np.asarray(counts, dtype=float).sum(axis=-1)
        return self.values(leaf_counts, totals), self.support(self.padded(leaf_counts))

    def enough_samples(self, n: np.ndarray) -> np.ndarray:
        """Whether every arm an instance reads has ``n_min`` samples; ``n`` is (*batch, n_arms)."""
        short = (n < self.n_min).astype(float)  # (*batch, n_arms)
        return (short @ self.uses.T.astype(float)) == 0

    def to_json(self) -> dict:
        """The catalogue and its arms (what :meth:`from_json` needs, plus each entry's formula for a reader)."""
        return {
            "reward": self.reward,
            "variables": list(self.layout.variables),
            "arms": [[list(s), list(bits)] for s, bits in self.layout.arms],
            "entries": [e.to_json() for e in self.entries],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any], n_min: int = 20) -> InstanceEstimators:
        """Inverse of :meth:`to_json` (``n_min`` is a setting of the estimators, not of the catalogue)."""
        layout = ArmLayout(tuple(d["variables"]), tuple((tuple(s), tuple(bits)) for s, bits in d["arms"]))
        return cls([Entry.from_json(e) for e in d["entries"]], layout, d["reward"], n_min)


def pomis_plus_estimators(G: CausalDiagram, reward: str, N: Sequence[str] = (), n_min: int = 20) -> InstanceEstimators:
    """The instances of POMIS+ (AAAI-19 Alg. 3 lines 2-4): arms of ℙ^N_{G,Y} in canonical order,
    the catalogue over those sets on the original G (N observed)."""
    sets = pomis(G, reward, N)
    return InstanceEstimators(catalogue(G, reward, sets), ArmLayout.of_sets(G.nodes, sets), reward, n_min)
