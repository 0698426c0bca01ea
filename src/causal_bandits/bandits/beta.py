"""Beta variates from per-seed uniform streams, vectorised over seeds and arms.

numpy draws Beta variates from one generator per call; keeping one stream per seed (so results do
not depend on how seeds are grouped into jobs) and still drawing all seeds at once therefore
needs a sampler that runs on uniforms we hand it. This module is that sampler, written by hand
because no maintained library offers it:

* ``a == 1`` or ``b == 1``: inversion of the closed-form CDF (one uniform);
* ``min(a, b) > 1``: Cheng's rejection algorithm BB (Cheng 1978, "Generating beta variates with
  nonintegral shape parameters", CACM 21(4), 317-322), two uniforms per attempt; the pairs of
  rejected attempts come from the same seed's retry stream, attempt by attempt, and within an
  attempt in arm order.

Shapes below 1 never occur in Beta-Bernoulli Thompson sampling (a = successes + 1) and are
rejected. The constants of algorithm BB depend only on (a, b); :class:`BetaShapes` caches them
and recomputes them only where the caller changes a shape.

Speed: the first attempt, which decides almost every cell, runs over blocks of rows small enough
to stay in cache, each numpy step writing into preallocated scratch arrays, so that a round makes
one pass over memory instead of one per step; closed-form and rejected cells are then handled on
the few cells they concern. Every cell's arithmetic is the same expression, in the same order, as
a plain elementwise evaluation, so the variates do not depend on the block size.
"""

from __future__ import annotations

import numpy as np

from causal_bandits.rng import SeedStreams

_LOG4 = np.log(4.0)
_ONE_PLUS_LOG5 = 1.0 + np.log(5.0)
#: Cells per block of the first attempt: its six float64 scratch arrays stay in L2 cache.
_BLOCK_CELLS = 16384


class BetaShapes:
    """Shape parameters (a, b) of shape (n_seeds, n_arms) with algorithm BB's constants cached."""

    def __init__(self, a: np.ndarray, b: np.ndarray):
        self.a, self.b = np.array(a, dtype=float, order="C"), np.array(b, dtype=float, order="C")
        if (self.a < 1).any() or (self.b < 1).any():
            raise ValueError("BetaShapes needs shapes >= 1")
        n, k = self.a.shape
        self._lo = np.empty_like(self.a)
        self._hi = np.empty_like(self.a)
        self._alpha = np.empty_like(self.a)
        self._beta = np.empty_like(self.a)
        self._gamma = np.empty_like(self.a)
        # All-ones bits where a <= b (the variate is w / (hi + w)), zero bits where it is
        # hi / (hi + w): a bitwise select picks the numerator exactly, faster than a masked copy.
        self._pick_w = np.empty(self.a.shape, dtype=np.int64)
        self._closed = np.empty(self.a.shape, dtype=bool)  # a == 1 or b == 1: closed form
        self._a_one = np.empty(self.a.shape, dtype=bool)  # a == 1
        self._refresh(np.s_[:])
        self._n_closed = int(self._closed.sum())
        rows = max(1, min(n, _BLOCK_CELLS // max(k, 1)))
        self._blocks = [slice(r, min(r + rows, n)) for r in range(0, n, rows)]
        self._scratch = np.empty((6, rows, k))
        self._u1 = np.empty((n, k))  # this round's first uniform of every cell, contiguous
        self._scratch_ok = np.empty((rows, k), dtype=bool)

    def _refresh(self, flat) -> None:
        """Recompute the cached constants at the flat cell indices ``flat`` (a slice or array)."""
        a, b = self.a.ravel()[flat], self.b.ravel()[flat]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        alpha = lo + hi
        with np.errstate(divide="ignore", invalid="ignore"):
            beta = np.sqrt((alpha - 2.0) / (2.0 * lo * hi - alpha))
            gamma = lo + 1.0 / beta
        for cache, value in (
            (self._lo, lo),
            (self._hi, hi),
            (self._alpha, alpha),
            (self._beta, beta),
            (self._gamma, gamma),
            (self._pick_w, -(a == lo).astype(np.int64)),
            (self._closed, (a == 1.0) | (b == 1.0)),
            (self._a_one, a == 1.0),
        ):
            cache.ravel()[flat] = value

    def add(self, rows: np.ndarray, cols: np.ndarray, da: np.ndarray, db: np.ndarray) -> None:
        """Add ``da``/``db`` to the shapes at (rows, cols) (one cell per row) and re-cache."""
        flat = rows * self.a.shape[1] + cols
        closed = self._closed.ravel()
        was_closed = int(np.count_nonzero(closed[flat]))
        self.a.ravel()[flat] += da
        self.b.ravel()[flat] += db
        self._refresh(flat)
        self._n_closed += int(np.count_nonzero(closed[flat])) - was_closed

    def sample(self, streams: SeedStreams, retries: SeedStreams) -> np.ndarray:
        """One Beta(a, b) variate per cell, shape (n_seeds, n_arms).

        ``streams`` supplies two uniforms per cell and round (so every seed reads it in step);
        ``retries`` supplies the extra pairs of the rejected attempts: for each seed, one pair per
        still-rejected cell in arm order, attempt after attempt.
        """
        n, k = self.a.shape
        u = streams.uniform(2 * k)
        u1, u2 = u[:, 0::2], u[:, 1::2]
        out = np.empty((n, k))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            found: list[np.ndarray] = []
            for rows in self._blocks:
                np.copyto(self._u1[rows], u1[rows])
                rejected = self._first_attempt(rows, u2[rows], out[rows])
                if rejected.size:
                    found.append(rejected + rows.start * k)
            if self._n_closed:
                self._closed_form(out)
            pending = np.concatenate(found) if found else np.empty(0, dtype=np.intp)
            while pending.size:
                pair = retries.take(np.bincount(pending // k, minlength=n) * 2)
                x, accepted = self._bb_attempt(pending, pair[0::2], pair[1::2])
                out.ravel()[pending[accepted]] = x[accepted]
                pending = pending[~accepted]
        return out

    def _first_attempt(self, rows: slice, u2: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Algorithm BB's first attempt on a block of rows (first uniforms in ``self._u1``).

        Writes the variates into ``out`` and returns the flat indices (within the block) of the
        cells it rejected, closed-form cells excluded. The arithmetic is :meth:`_bb_attempt`'s,
        step by step into scratch arrays.
        """
        m = out.shape[0]
        t1, t2, v, w, z, r = (s[:m] for s in self._scratch)
        ok = self._scratch_ok[:m]
        u1, lo, hi = self._u1[rows], self._lo[rows], self._hi[rows]
        np.subtract(1.0, u1, out=t1)
        np.divide(u1, t1, out=t1)
        np.log(t1, out=t1)
        np.multiply(self._beta[rows], t1, out=v)  # v = beta ln(u1 / (1 - u1))
        np.exp(v, out=w)
        np.multiply(lo, w, out=w)  # w = lo e^v
        np.multiply(u1, u1, out=z)
        np.multiply(z, u2, out=z)  # z = u1^2 u2
        np.multiply(self._gamma[rows], v, out=r)
        np.subtract(r, _LOG4, out=r)  # r = gamma v - ln 4
        np.add(lo, r, out=t1)
        np.subtract(t1, w, out=t1)  # s = lo + r - w
        np.add(t1, _ONE_PLUS_LOG5, out=t2)
        np.multiply(5.0, z, out=v)
        np.greater_equal(t2, v, out=ok)  # the squeeze (BB step 4)
        np.logical_or(ok, self._closed[rows], out=ok)
        slow = np.flatnonzero(~ok)
        if slow.size:  # the squeeze failed: the exact test (BB step 5)
            cells = slow + rows.start * out.shape[1]
            s, r, w_, z = (x.ravel().take(slow) for x in (t1, r, w, z))
            ok.ravel()[slow] = self._exact_test(cells, s, r, w_, z)
        np.add(hi, w, out=t1)
        pick, num = self._pick_w[rows], t2.view(np.int64)
        np.bitwise_and(w.view(np.int64), pick, out=num)
        np.bitwise_or(num, np.bitwise_and(hi.view(np.int64), ~pick), out=num)  # w or hi
        np.divide(t2, t1, out=out)
        return np.flatnonzero(~ok)

    def _exact_test(self, cells: np.ndarray, s, r, w, z) -> np.ndarray:
        """BB's acceptance test (step 5) at the flat indices ``cells`` whose squeeze failed."""
        alpha = self._alpha.ravel().take(cells)
        t = np.log(z)
        return (s > t) | (r + alpha * np.log(alpha / (self._hi.ravel().take(cells) + w)) >= t)

    def _closed_form(self, out: np.ndarray) -> None:
        """Inversion for the cells with a == 1 or b == 1, from their first uniform."""
        u1, a, b, flat = self._u1.ravel(), self.a.ravel(), self.b.ravel(), out.ravel()
        # Beta(1, b): 1 - (1-u)^(1/b); Beta(a, 1): u^(1/a); Beta(1, 1): u (both formulas agree).
        cells = np.flatnonzero(self._a_one)
        flat[cells] = -np.expm1(np.log1p(-u1.take(cells)) / b.take(cells))
        cells = np.flatnonzero(self._closed ^ self._a_one)  # b == 1 < a
        flat[cells] = u1.take(cells) ** (1.0 / a.take(cells))

    def _bb_attempt(self, cells: np.ndarray, u1: np.ndarray, u2: np.ndarray):
        """One attempt of algorithm BB at the flat indices ``cells``; returns (variates, accepted)."""
        lo, hi = self._lo.ravel().take(cells), self._hi.ravel().take(cells)
        v = self._beta.ravel().take(cells) * np.log(u1 / (1.0 - u1))
        w = lo * np.exp(v)
        z = u1 * u1 * u2
        r = self._gamma.ravel().take(cells) * v - _LOG4
        s = lo + r - w
        ok = s + _ONE_PLUS_LOG5 >= 5.0 * z
        slow = np.flatnonzero(~ok)
        if slow.size:
            ok[slow] = self._exact_test(cells[slow], s[slow], r[slow], w[slow], z[slow])
        x = np.where(self._pick_w.ravel().take(cells) != 0, w, hi) / (hi + w)
        return x, ok
