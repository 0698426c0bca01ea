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

Speed: one compiled call (numba, ``cache=True``) makes every cell's first attempt, computing algorithm BB's constants
from the cell's shapes as it goes (a square root and a division, cheaper than keeping them cached), and one compiled
call per retry attempt handles the cells still rejected. A round's Python work is therefore a few calls whatever the
numbers of seeds and arms (the z² solvers draw a few hundred cells a round). Within a call, two passes without a branch
on the squeeze's outcome: every cell's squeeze, listing the cells that fail it with the exact test's inputs, then the
exact test over that list. Thompson-like posteriors fail the squeeze in more than half their cells, at random, so a
branch into the exact test is mispredicted about as often as not (docs/performance.md#beta-compiled,
``benchmarks/beta_speed.py``). The elementary functions are the C library's (``log``, ``exp``, ``log1p``, ``expm1``,
``pow``), the ones numpy's baseline code calls, so the variates are bit for bit those of a numpy evaluation of the same
expressions under the workflow's kernel pin (:mod:`causal_bandits.kernels`; ``tests/test_bandits.py`` checks it).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from causal_bandits.rng import SeedStreams

_LOG4 = math.log(4.0)
_ONE_PLUS_LOG5 = 1.0 + math.log(5.0)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _squeeze(a: float, b: float, u1: float, u2: float):
    """One attempt for Beta(a, b) from the uniforms (u1, u2) up to its squeeze: (variate, accepted by now, and the
    exact test's inputs s, z, r, alpha, hi + w). Closed form when a or b is 1 (always accepted; u2 unused), else
    algorithm BB's steps 1-4."""
    if a == 1.0:  # Beta(1, b): 1 - (1-u)^(1/b) (Beta(1, 1): u)
        return -math.expm1(math.log1p(-u1) / b), True, 0.0, 1.0, 0.0, 1.0, 1.0
    if b == 1.0:  # Beta(a, 1): u^(1/a)
        return u1 ** (1.0 / a), True, 0.0, 1.0, 0.0, 1.0, 1.0
    lo, hi = min(a, b), max(a, b)
    alpha = lo + hi
    beta = math.sqrt((alpha - 2.0) / (2.0 * lo * hi - alpha))
    gamma = lo + 1.0 / beta
    v = beta * math.log(u1 / (1.0 - u1))
    w = lo * math.exp(v)
    z = u1 * u1 * u2
    r = gamma * v - _LOG4
    s = lo + r - w
    return (w if a == lo else hi) / (hi + w), s + _ONE_PLUS_LOG5 >= 5.0 * z, s, z, r, alpha, hi + w


@numba.njit(cache=True, error_model="numpy")
def _attempts(a: np.ndarray, b: np.ndarray, cells: np.ndarray, u: np.ndarray, out: np.ndarray) -> np.ndarray:
    """One attempt at each of the flat indices ``cells`` of ``a``, ``b``, ``out``, the c-th from the uniforms
    ``u[i, j]`` (c = i * u.shape[1] + j); returns the cells rejected, in the same order.

    Two passes, neither branching on the squeeze's outcome: every cell's squeeze (algorithm BB's step 4), its variate
    into ``out`` and, where the squeeze fails, the exact test's inputs into a list; then the exact test (step 5) over
    that list. A rejected cell's variate is overwritten by a later attempt's."""
    failed, inputs = np.empty(cells.size, dtype=np.int64), np.empty((cells.size, 5))
    m, c = 0, 0
    for i in range(u.shape[0]):
        for j in range(u.shape[1]):
            x, accepted, s, z, r, alpha, hi_w = _squeeze(a[cells[c]], b[cells[c]], u[i, j, 0], u[i, j, 1])
            out[cells[c]], failed[m] = x, cells[c]
            inputs[m, 0], inputs[m, 1], inputs[m, 2], inputs[m, 3], inputs[m, 4] = s, z, r, alpha, hi_w
            m += not accepted
            c += 1
    rejected = 0
    for f in range(m):
        s, z, r, alpha, hi_w = inputs[f, 0], inputs[f, 1], inputs[f, 2], inputs[f, 3], inputs[f, 4]
        t = math.log(z)
        failed[rejected] = failed[f]
        rejected += not ((s > t) | (r + alpha * math.log(alpha / hi_w) >= t))
    return failed[:rejected]


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
        a, b, flat = self.a.ravel(), self.b.ravel(), out.ravel()
        pending = _attempts(a, b, np.arange(n * k), streams.uniform(2 * k).reshape(n, k, 2), flat)
        while pending.size:
            pairs = retries.take(np.bincount(pending // k, minlength=n) * 2)
            pending = _attempts(a, b, pending, pairs.reshape(1, -1, 2), flat)
        return out
