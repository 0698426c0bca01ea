"""Beta variates from per-seed uniform streams, vectorised over seeds and arms.

numpy draws Beta variates from one generator per call; keeping one stream per seed (so results do
not depend on how seeds are grouped into jobs) and still drawing all seeds at once therefore
needs a sampler that runs on uniforms we hand it. This module is that sampler, written by hand
because no maintained library offers it:

* ``a == 1`` or ``b == 1``: inversion of the closed-form CDF (one uniform);
* ``min(a, b) > 1``: Cheng's rejection algorithm BB (Cheng 1978, "Generating beta variates with
  nonintegral shape parameters", CACM 21(4), 317-322), two uniforms per attempt, retries taken
  from the same seed's stream in (arm, attempt) order.

Shapes below 1 never occur in Beta-Bernoulli Thompson sampling (a = successes + 1) and are
rejected. The constants of algorithm BB depend only on (a, b); :class:`BetaShapes` caches them
and recomputes them only where the caller changes a shape.
"""

from __future__ import annotations

import numpy as np

from causal_bandits.rng import SeedStreams

_LOG4 = np.log(4.0)
_ONE_PLUS_LOG5 = 1.0 + np.log(5.0)


class BetaShapes:
    """Shape parameters (a, b) of shape (n_seeds, n_arms) with algorithm BB's constants cached."""

    def __init__(self, a: np.ndarray, b: np.ndarray):
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        if (a < 1).any() or (b < 1).any():
            raise ValueError("BetaShapes needs shapes >= 1")
        self.a, self.b = a.copy(), b.copy()
        self._lo = np.empty_like(self.a)
        self._hi = np.empty_like(self.a)
        self._alpha = np.empty_like(self.a)
        self._beta = np.empty_like(self.a)
        self._gamma = np.empty_like(self.a)
        self._refresh(np.s_[...])

    def _refresh(self, where) -> None:
        a, b = self.a[where], self.b[where]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        alpha = lo + hi
        with np.errstate(divide="ignore", invalid="ignore"):
            beta = np.sqrt((alpha - 2.0) / (2.0 * lo * hi - alpha))
            gamma = lo + 1.0 / beta
        self._lo[where], self._hi[where], self._alpha[where] = lo, hi, alpha
        self._beta[where], self._gamma[where] = beta, gamma

    def add(self, rows: np.ndarray, cols: np.ndarray, da: np.ndarray, db: np.ndarray) -> None:
        """Add ``da``/``db`` to the shapes at (rows, cols) (one cell per row) and re-cache."""
        self.a[rows, cols] += da
        self.b[rows, cols] += db
        self._refresh((rows, cols))

    def sample(self, streams: SeedStreams, retries: SeedStreams) -> np.ndarray:
        """One Beta(a, b) variate per cell, shape (n_seeds, n_arms).

        ``streams`` supplies two uniforms per cell and round (so every seed reads it in step);
        ``retries`` supplies the extra pairs of the rejected attempts, in (arm, attempt) order.
        """
        n, k = self.a.shape
        u = streams.uniform(2 * k).reshape(n, k, 2)
        u1, u2 = u[..., 0], u[..., 1]
        out, ok = self._bb_attempt(np.s_[...], u1, u2)
        closed = (self.a == 1.0) | (self.b == 1.0)
        if closed.any():
            v, a, b = u1[closed], self.a[closed], self.b[closed]
            # Beta(1, b): 1 - (1-u)^(1/b); Beta(a, 1): u^(1/a); Beta(1, 1): u (both formulas agree).
            out[closed] = np.where(a == 1.0, -np.expm1(np.log1p(-v) / b), v ** (1.0 / a))
            ok |= closed
        pending = np.flatnonzero(~ok)
        while pending.size:
            pair = retries.take(np.bincount(pending // k, minlength=n) * 2).reshape(-1, 2)
            x, accepted = self._bb_attempt(np.unravel_index(pending, (n, k)), pair[:, 0], pair[:, 1])
            out.ravel()[pending[accepted]] = x[accepted]
            pending = pending[~accepted]
        return out

    def _bb_attempt(self, where, u1: np.ndarray, u2: np.ndarray):
        """One attempt of algorithm BB at the cells ``where``; returns (variates, accepted)."""
        lo, hi, alpha = self._lo[where], self._hi[where], self._alpha[where]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            v = self._beta[where] * np.log(u1 / (1.0 - u1))
            w = lo * np.exp(v)
            z = u1 * u1 * u2
            r = self._gamma[where] * v - _LOG4
            s = lo + r - w
            ok = s + _ONE_PLUS_LOG5 >= 5.0 * z
            slow = np.flatnonzero(~ok)
            if slow.size:
                ws, zs, ss, rs, al = (x.ravel()[slow] for x in (w, z, s, r, alpha))
                t = np.log(zs)
                fine = (ss > t) | (rs + al * np.log(al / (hi.ravel()[slow] + ws)) >= t)
                ok.ravel()[slow] = fine
            x = np.where(self.a[where] == lo, w, hi) / (hi + w)
        return x, ok
