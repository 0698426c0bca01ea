"""The arms that can contend for kl-UCB's largest index, per seed (:class:`~causal_bandits.bandits.klucb.KLUCB`).

Each round, kl-UCB needs the index of only the arms that can reach the largest one: those whose upper bound reaches
the floor, the largest lower bound among the other arms (less :data:`SLACK`, twice). Finding them among all K arms of
every seed costs passes over every arm each round; :class:`Candidates` keeps, per seed, the arms whose upper bound is
at least a threshold, in a table of slots x seeds (the seeds along the last, contiguous axis, so that a reduction over a
seed's candidates is a vectorised one over seeds), and looks at all arms of a seed again only when its floor falls
below that threshold or the upper bounds are renewed.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

#: Indices are compared with this slack, at least twice the error of an index: Newton's method
#: (:func:`~causal_bandits.bandits.klucb.klucb_index`) stops once a step is below 1e-10 and converges quadratically from
#: its start, which is close to the root even next to the pole at q = 1, so an index is off its exact value by far less
#: (tests/test_bandits.py checks 5e-12 against roots solved to about 1e-16). A larger slack only inverts more arms: the
#: arms within it of an index of exactly 1, which never-lost arms have, with it.
SLACK = 1e-10
#: A seed's threshold at a rebuild is its floor as it would be after its best MARGIN arms had been pulled (their
#: lower bounds aside), so that the floor can fall as its leaders are pulled without another rebuild.
MARGIN = 2
#: The share of a seed's arms above which the table takes every arm of every seed.
WIDE = 1 / 3


class Arms(Protocol):
    """Per seed and arm, flat and seed-major, with one more cell at the end for the sentinel arm: the lower bound on the
    index now (``known``), the upper bound (``bound``), the level of the lower bound (``level``), the successes and
    pulls (without the sentinel)."""

    known: np.ndarray
    bound: np.ndarray
    level: np.ndarray
    slope: np.ndarray
    wins: np.ndarray
    pulls: np.ndarray

    def per_seed(self, array: np.ndarray) -> np.ndarray: ...

    def invert(self, cells: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]: ...


class Candidates:
    """Per seed, the arms whose upper bound reaches the seed's threshold ``theta`` (set at the last rebuild of its row,
    :meth:`_members`), in increasing arm order, and always the arm pulled last, as a table (slots x seeds) padded with
    the sentinel.

    A non-candidate's bounds do not change until the upper bounds are renewed (only contenders are pulled or
    inverted), so while a seed's floor stays at least ``theta`` no non-candidate can be a contender, and the largest
    lower bound of its arms is the largest over its candidates. A seed whose floor falls lower has its row rebuilt from
    all its arms (:meth:`contenders`); every row is rebuilt when the upper bounds are renewed. The table keeps its own
    copy of its arms' lower bounds, the levels and slopes of their tangents and their lost flags (``known``, ``level``,
    ``slope``, ``lost``; an arm that has never lost has index exactly 1 at every level), which the policy updates with
    every inversion and pull.
    """

    def __init__(self, n_seeds: int, n_arms: int):
        self.n_arms, self.seeds = n_arms, np.arange(n_seeds)
        self.sentinel = n_seeds * n_arms  # the cell of the sentinel arm in the flat arrays
        self.theta = np.full(n_seeds, np.inf)  # every row is rebuilt before its first use
        self.last = np.zeros(n_seeds, dtype=np.int64)  # the slot of the arm pulled last
        self.full = False  # whether the table holds every arm of every seed
        self.cells = np.full((0, n_seeds), self.sentinel)  # each slot's cell in the flat arrays
        self.known, self.slope, self.level = np.empty((0, n_seeds)), np.empty((0, n_seeds)), np.empty((0, n_seeds))
        self.lost = np.empty((0, n_seeds), dtype=bool)
        self._resize(1)

    def _resize(self, width: int) -> None:
        """Widen the table to ``width`` slots (or cut it to ``width`` when every row is about to be rebuilt)."""
        n_seeds, pad = self.seeds.size, max(width - self.cells.shape[0], 0)
        keep = slice(None) if pad else slice(0, width)

        def padded(array: np.ndarray, value) -> np.ndarray:
            return np.vstack([array[keep], np.full((pad, n_seeds), value, dtype=array.dtype)])

        self.cells, self.known, self.lost = (
            padded(self.cells, self.sentinel),
            padded(self.known, -np.inf),
            padded(self.lost, False),
        )
        self.slope, self.level = padded(self.slope, 0.0), padded(self.level, 0.0)

    def last_cells(self) -> np.ndarray:
        """Where the last arms are, in the table's flat order."""
        return self.last * self.seeds.size + self.seeds

    def pulled(self, rewards: np.ndarray, arms: Arms) -> None:
        """The last arms were pulled for ``rewards``: those that have lost lose their lower bound, here and in ``arms``,
        until inverted again (one that has never lost keeps its index, 1)."""
        at = self.last_cells()
        self.lost.ravel()[at] |= rewards < 1
        at = at[self.lost.ravel()[at]]
        self.known.ravel()[at] = arms.known[self.cells.ravel()[at]] = -np.inf

    def contenders(self, arms: Arms, last: np.ndarray, level: float) -> None:
        """Mark the contenders (``self.contender``): the arms whose tangent bound at ``level`` reaches the floor, the
        largest lower bound less twice the slack, and the last arm. The largest index now is at least the floor, so no
        other arm can reach it. (The last arm's lower bound is -inf if it has lost, :meth:`pulled`: its index changed.)
        Rebuilds the rows whose floor fell below ``theta`` first."""
        at = self.last_cells()
        best = self.known.max(axis=0)
        stale = np.flatnonzero(best < self.theta + 2 * SLACK)
        if stale.size:
            self.rebuild(stale, arms, last, level)
            return self.contenders(arms, last, level)
        self.contender = self.known + self.slope * (level - self.level) >= best - 2 * SLACK  # the tangent bound now
        self.contender.ravel()[at] = True
        return None

    def argmax(self, ties: np.ndarray) -> np.ndarray:
        """Per seed, the arm of largest index, and among equal indices the one of largest ``ties`` (the first in arm
        order among equal ``ties``); it becomes the last arm. ``known`` holds every contender's index now and the other
        candidates' stale indices, which are below the floor, hence below the largest index."""
        top = self.known >= self.known.max(axis=0)
        if self.full:  # slot j holds arm j
            self.last = np.where(top.T, ties, -1.0).argmax(axis=1)
        elif np.count_nonzero(top) > self.seeds.size * 9 // 8:  # ties in many seeds: the round's uniforms are copied
            self.last = np.where(top.T, np.ascontiguousarray(ties).ravel()[self.picks], -1.0).argmax(axis=1)
        else:
            self.last = top.argmax(axis=0)
            tied = np.flatnonzero(np.count_nonzero(top, axis=0) > 1)
            if tied.size:  # only the top arms' uniforms of the few tied seeds
                slot, col = np.nonzero(top[:, tied])
                key = np.full((top.shape[0], tied.size), -1.0)
                key[slot, col] = ties[tied[col], self.cells[slot, tied[col]] % self.n_arms]
                self.last[tied] = key.argmax(axis=0)
        return self.cells.ravel()[self.last_cells()] % self.n_arms

    def rebuild(self, rows: np.ndarray, arms: Arms, last: np.ndarray, level: float) -> None:
        """Recompute the candidates of seeds ``rows`` from all their arms (``last``: every seed's last arm). When every
        row is rebuilt, the lost arms that would be candidates by a tangent drawn at a lower level than ``level`` are
        inverted at ``level`` first (a tangent drawn long ago can be far above the index; a row rebuilt alone keeps its
        tangents, which saves an inversion call each time). Where some seed would need more than
        :data:`WIDE` of the arms, every seed takes all its arms until the next rebuild of every row (a table as wide
        as that costs about as much as one of the candidates, and never needs rebuilding)."""
        k, n_seeds = self.n_arms, self.seeds.size
        member = self._members(rows, arms, last[rows])
        lost = arms.per_seed(arms.wins)[rows] < arms.per_seed(arms.pulls)[rows]
        old = np.flatnonzero(member & lost & (arms.per_seed(arms.level)[rows] < level))
        if old.size and rows.size == n_seeds:
            arms.invert(rows[old // k] * k + old % k, level)
            member = self._members(rows, arms, last[rows])
        self.full = member.sum(axis=1).max() > WIDE * k
        if self.full:
            rows, member = self.seeds, np.ones((n_seeds, k), dtype=bool)
            self.theta[:] = -np.inf
        counts = member.sum(axis=1)
        if rows.size == n_seeds or counts.max() > self.cells.shape[0]:
            self._resize(int(counts.max()))
        in_row, arm = np.nonzero(member)
        slot = np.arange(in_row.size) - np.repeat(np.cumsum(counts) - counts, counts)
        self.cells[:, rows] = self.sentinel
        self.cells[slot, rows[in_row]] = rows[in_row] * k + arm
        cells = self.cells[:, rows]
        self.known[:, rows], self.slope[:, rows], self.level[:, rows] = (
            arms.known[cells],
            arms.slope[cells],
            arms.level[cells],
        )
        real = np.minimum(cells, self.sentinel - 1)
        self.lost[:, rows] = (arms.wins[real] < arms.pulls[real]) & (cells < self.sentinel)
        self.last[rows] = (cells == rows * k + last[rows]).argmax(axis=0)
        self.picks = np.minimum(self.cells.T, self.sentinel - 1)  # where each slot's uniform is, seed by seed

    def _members(self, rows: np.ndarray, arms: Arms, last: np.ndarray) -> np.ndarray:
        """Which arms of seeds ``rows`` are candidates: those whose upper bound reaches the seeds' new ``theta`` (the
        :data:`MARGIN` + 1-th largest lower bound of the arms other than ``last``, less twice the slack), and the last
        arms ``last``."""
        at = np.arange(rows.size)
        others = arms.per_seed(arms.known)[rows]
        others[at, last] = -np.inf
        m = min(MARGIN, self.n_arms - 1)
        self.theta[rows] = -np.partition(-others, m, axis=1)[:, m] - 2 * SLACK
        member = arms.per_seed(arms.bound)[rows] >= self.theta[rows, None]
        member[at, last] = True
        return member
