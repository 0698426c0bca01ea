"""Ways to draw the B exact multinomial resamples of one count table, timed (the bootstrap draw of z²-TS/z²-KL-UCB).

Usage: ``python benchmarks/z2_draws.py [--bootstrap 500] [--repeats 100]``.

One refresh of a POMIS+ arm draws B = 500 independent multinomial resamples of a count table: n
draws over its k non-empty cells (:meth:`causal_bandits.bandits.z2_estimates.Z2Estimates._resample`,
one ``Generator.multinomial`` call). Every way below draws that same distribution; only its random
layout differs. Per (k, n) the script prints the CPU microseconds of one set of B resamples:

* ``multinomial``: ``Generator.multinomial(n, p, size=B)`` (what the package does: k - 1 conditional
  binomials per replicate, in C);
* ``cond-binom``: the same conditional binomials, one ``Generator.binomial`` call per cell with the
  replicates' remaining sizes as an array (vectorised across replicates);
* ``categorical``: n uniforms per replicate, ``searchsorted`` on the cumulative p and ``bincount``
  (O(B n) instead of O(B k));
* ``numba``: the conditional binomials in a compiled loop drawing from the same Generator (only if
  numba is importable; its import and compile CPU seconds are printed first).

k = 8, 16, 64 are the cell counts of arm 0 (the observational arm) of Figure 5a, 5b and 5c; n spans
the sample sizes of a run (an arm needs 20 samples before its estimators count). p is a fixed
Dirichlet draw (the cost depends on n p per cell, not on which cells). CPU time, one thread.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np


def per_call(f, repeats: int) -> float:
    """CPU microseconds of one call of ``f`` (mean over ``repeats``)."""
    f()
    start = time.process_time()
    for _ in range(repeats):
        f()
    return 1e6 * (time.process_time() - start) / repeats


def conditional_binomials(gen: np.random.Generator, n: int, p: np.ndarray, B: int) -> np.ndarray:
    out = np.empty((B, p.size), dtype=np.int64)
    remaining, left = np.full(B, n, dtype=np.int64), 1.0
    for j in range(p.size - 1):
        out[:, j] = gen.binomial(remaining, min(1.0, p[j] / left) if left > 0 else 0.0)
        remaining -= out[:, j]
        left -= p[j]
    out[:, -1] = remaining
    return out


def categorical(gen: np.random.Generator, n: int, p: np.ndarray, B: int) -> np.ndarray:
    idx = np.searchsorted(np.cumsum(p)[:-1], gen.random((B, n)), side="right")
    return np.bincount((idx + p.size * np.arange(B)[:, None]).ravel(), minlength=B * p.size).reshape(B, p.size)


def numba_kernel():
    """The compiled conditional-binomial loop, or None without numba; prints its import and compile cost."""
    start = time.process_time()
    try:
        import numba
    except ImportError:
        print("numba: not installed, skipped")
        return None
    imported = time.process_time() - start

    @numba.njit
    def draw(gen, n, p, out):
        for b in range(out.shape[0]):
            remaining, left = n, 1.0
            for j in range(p.size - 1):
                q = p[j] / left
                x = remaining if q >= 1.0 else (gen.binomial(remaining, q) if remaining > 0 else 0)
                out[b, j] = x
                remaining -= x
                left -= p[j]
            out[b, p.size - 1] = remaining

    start = time.process_time()
    draw(np.random.default_rng(0), 10, np.full(4, 0.25), np.empty((2, 4), dtype=np.int64))
    print(f"numba {numba.__version__}: import {imported:.2f} CPU s, compile {time.process_time() - start:.2f} CPU s")
    return draw


def timings(gen: np.random.Generator, n: int, p: np.ndarray, B: int, repeats: int, kernel) -> list[float]:
    """CPU microseconds of one set of B resamples by each way (module docstring), in the table's column order."""
    out = np.empty((B, p.size), dtype=np.int64)
    return [
        per_call(lambda: gen.multinomial(n, p, size=B), repeats),
        per_call(lambda: conditional_binomials(gen, n, p, B), repeats),
        per_call(lambda: categorical(gen, n, p, B), max(1, repeats // 20)),
        per_call(lambda: kernel(gen, n, p, out), repeats) if kernel else float("nan"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bootstrap", type=int, default=500)
    ap.add_argument("--repeats", type=int, default=100)
    args = ap.parse_args()
    B, gen = args.bootstrap, np.random.default_rng(0)
    kernel = numba_kernel()
    print(f"CPU microseconds per set of B = {B} resamples (ns per binomial variate of multinomial in brackets)")
    print(f"{'k':>3} {'n':>6} {'multinomial':>16} {'cond-binom':>10} {'categorical':>11} {'numba':>8}")
    for k in (8, 16, 64):
        p = np.sort(np.random.default_rng(k).dirichlet(np.ones(k)))[::-1]
        for n in (100, 1_000, 10_000):
            row = timings(gen, n, p, B, args.repeats, kernel)
            ns = 1000 * row[0] / (B * (k - 1))
            print(f"{k:3d} {n:6d} {row[0]:9.0f} ({ns:3.0f}) {row[1]:10.0f} {row[2]:11.0f} {row[3]:8.0f}", flush=True)


if __name__ == "__main__":
    main()
