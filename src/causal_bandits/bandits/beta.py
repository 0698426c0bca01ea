"""Beta variates from per-seed uniform streams, vectorised over seeds and arms, compiled.

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
rejected.

Speed: one compiled pass (numba, ``cache=True``) makes every cell's first attempt, computing algorithm BB's constants
from the cell's shapes as it goes (a square root and a division, cheaper than keeping them cached), and one compiled
call per retry attempt handles the cells still rejected. A round's Python work is therefore a few calls whatever the
numbers of seeds and arms (the z² solvers draw a few hundred cells a round). An attempt evaluates BB's squeeze and
exact test both and accepts where either holds: the decisions of the squeeze-first order without its branch, which
Thompson-like posteriors mispredict (more than half of their cells fail the squeeze); the rejected cells are collected
without a branch too (docs/performance.md#beta-compiled, ``benchmarks/beta_speed.py``). The elementary functions are
the C library's (``log``, ``exp``, ``log1p``, ``expm1``, ``pow``), the ones numpy's baseline code calls, so the
variates are bit for bit those of a numpy evaluation of the same expressions under the workflow's kernel pin
(:mod:`causal_bandits.kernels`; ``tests/test_bandits.py`` checks it).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from causal_bandits.rng import SeedStreams

_LOG4 = math.log(4.0)
_ONE_PLUS_LOG5 = 1.0 + math.log(5.0)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _attempt(a: float, b: float, u1: float, u2: float):
    """One attempt for Beta(a, b) from the uniforms (u1, u2): (variate, accepted). Closed form when a or b is 1
    (always accepted; u2 unused), else algorithm BB: the squeeze (step 4), then the exact test (step 5) where the
    squeeze fails."""
    if a == 1.0:  # Beta(1, b): 1 - (1-u)^(1/b) (Beta(1, 1): u)
        return -math.expm1(math.log1p(-u1) / b), True
    if b == 1.0:  # Beta(a, 1): u^(1/a)
        return u1 ** (1.0 / a), True
    lo, hi = min(a, b), max(a, b)
    alpha = lo + hi
    beta = math.sqrt((alpha - 2.0) / (2.0 * lo * hi - alpha))
    gamma = lo + 1.0 / beta
    v = beta * math.log(u1 / (1.0 - u1))
    w = lo * math.exp(v)
    z = u1 * u1 * u2
    r = gamma * v - _LOG4
    s = lo + r - w
    t = math.log(z)
    accepted = (s + _ONE_PLUS_LOG5 >= 5.0 * z) | (s > t) | (r + alpha * math.log(alpha / (hi + w)) >= t)
    return (w if a == lo else hi) / (hi + w), accepted


@numba.njit(cache=True, error_model="numpy")
def _first_attempts(a: np.ndarray, b: np.ndarray, u: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Every cell's first attempt, cell (i, j) from the uniforms u[i, 2j], u[i, 2j + 1], into ``out``; returns the flat
    indices of the rejected cells in increasing order."""
    n, k = a.shape
    rejected = np.empty(n * k, dtype=np.int64)
    m = 0
    for i in range(n):
        for j in range(k):
            out[i, j], accepted = _attempt(a[i, j], b[i, j], u[i, 2 * j], u[i, 2 * j + 1])
            rejected[m] = i * k + j
            m += not accepted
    return rejected[:m]


@numba.njit(cache=True, error_model="numpy")
def _retry(a: np.ndarray, b: np.ndarray, cells: np.ndarray, pairs: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Another attempt at the flat indices ``cells`` (a, b, out flat), cell c from pairs[2c], pairs[2c + 1]; returns
    the cells still rejected, in the same order."""
    rejected = np.empty(cells.size, dtype=np.int64)
    m = 0
    for c in range(cells.size):
        x, accepted = _attempt(a[cells[c]], b[cells[c]], pairs[2 * c], pairs[2 * c + 1])
        if accepted:
            out[cells[c]] = x
        else:
            rejected[m] = cells[c]
            m += 1
    return rejected[:m]


class BetaShapes:
    """Shape parameters (a, b) of shape (n_seeds, n_arms), both ≥ 1."""

    def __init__(self, a: np.ndarray, b: np.ndarray):
        self.a, self.b = np.array(a, dtype=float, order="C"), np.array(b, dtype=float, order="C")
        if (self.a < 1).any() or (self.b < 1).any():
            raise ValueError("BetaShapes needs shapes >= 1")

    def add(self, rows: np.ndarray, cols: np.ndarray, da: np.ndarray, db: np.ndarray) -> None:
        """Add ``da``/``db`` to the shapes at (rows, cols) (one cell per row)."""
        self.a[rows, cols] += da
        self.b[rows, cols] += db

    def sample(self, streams: SeedStreams, retries: SeedStreams) -> np.ndarray:
        """One Beta(a, b) variate per cell, shape (n_seeds, n_arms).

        ``streams`` supplies two uniforms per cell and round (so every seed reads it in step);
        ``retries`` supplies the extra pairs of the rejected attempts: for each seed, one pair per
        still-rejected cell in arm order, attempt after attempt.
        """
        n, k = self.a.shape
        out = np.empty((n, k))
        pending = _first_attempts(self.a, self.b, streams.uniform(2 * k), out)
        a, b, flat = self.a.ravel(), self.b.ravel(), out.ravel()
        while pending.size:
            pairs = retries.take(np.bincount(pending // k, minlength=n) * 2)
            pending = _retry(a, b, pending, pairs, flat)
        return out
