"""Running sums of a window's rounds, read at some of its rounds: one compiled pass (numba, cached on disk beside this
module) instead of numpy's ``cumsum`` over a copy of every round. Windows recorded by
:meth:`causal_bandits.bandits.recorders.RegretTrace.record_window` are as long as a thousand rounds, of which a grid
reads a few; nothing in numpy accumulates in place and keeps only some partial sums."""

from __future__ import annotations

import numba


@numba.njit(cache=True)
def accumulate(total, rows, rounds, at, out) -> None:
    """Add row i of ``rounds`` (running rows x rounds) to ``total[rows[i]]`` one round at a time, in round order, as
    ``np.cumsum`` does (each partial sum is the same number); ``out[i, k]`` is the sum after round ``at[k]``
    (increasing)."""
    for i in range(rows.shape[0]):
        acc = total[rows[i]]
        k = 0
        for j in range(rounds.shape[1]):
            acc += rounds[i, j]
            if k < at.shape[0] and at[k] == j:
                out[i, k] = acc
                k += 1
        total[rows[i]] = acc
