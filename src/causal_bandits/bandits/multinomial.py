"""Exact multinomial draws from a seed's own numpy Generator, compiled (the z² bootstrap's sampler).

:func:`multinomial` draws one multinomial vector per total as conditional binomials, cell by cell: cell j gets
Bin(remaining, p_j / (p_j + ... + p_last)) (the last cell takes what remains). Each binomial is exact:

* **BTRS** (Hörmann 1993, "The generation of binomial random variates", J. Statist. Comput. Simul. 46,
  101-110: transformed rejection with a squeeze) when m·min(p, 1−p) ≥ 10; the acceptance test compares with
  the exact log pmf ratio (a table of log k!), computed only when the squeeze does not decide;
* **inversion** otherwise: one uniform, the cdf searched from 0 (expected m·p + 1 steps of the pmf recursion);
* p > 1/2 draws m − Bin(m, 1 − p).

Uniforms are the ``next_double`` of the bit generator of the Generator passed in (what ``Generator.random()``
returns), so a seed's draws depend on its own stream only; the samplers take the bit generator itself, which
numba passes without reference counting (a Generator argument costs two atomic operations per call). The kernels
are compiled by numba on first use and cached on disk next to this file (``cache=True``; numba's user-wide cache
directory if that is not writable).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba.np.random.generator_core import next_double

_BTRS_FROM = 10.0  # m·min(p, 1−p) from which BTRS is used (Hörmann 1993, Sect. 3)
#: log k! for the table sizes of a run (``lgamma`` beyond): BTRS's acceptance test reads four of them.
_LOG_FACTORIAL = np.array([math.lgamma(k + 1.0) for k in range(1 << 15)])


@numba.njit(cache=True)
def _log_factorial(k: float) -> float:
    return _LOG_FACTORIAL[int(k)] if k < _LOG_FACTORIAL.size else math.lgamma(k + 1.0)


@numba.njit(cache=True)
def _btrs(bitgen, n: float, p: float, log_odds: float) -> float:
    """Bin(n, p) by BTRS (Hörmann 1993, Algorithm BTRS), p ≤ 1/2, n·p ≥ 10, log_odds = log(p / (1 − p)); the
    acceptance test compares with the exact log pmf ratio log f(k) − log f(m)."""
    spq = math.sqrt(n * p * (1.0 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    alpha = (2.83 + 5.1 / b) * spq
    v_r = 0.92 - 4.2 / b
    m = math.floor((n + 1.0) * p)
    log_fm = _log_factorial(m) + _log_factorial(n - m)
    while True:
        u = next_double(bitgen) - 0.5
        v = next_double(bitgen)
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + c)
        if k < 0.0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = v * alpha / (a / (us * us) + b)
        if math.log(v) <= log_fm - _log_factorial(k) - _log_factorial(n - k) + (k - m) * log_odds:
            return k


@numba.njit(cache=True)
def _inversion(bitgen, n: float, odds: float, log_q: float) -> float:
    """Bin(n, p) by sequential search of the cdf from 0 with one uniform (pmf ratios f(x)/f(x−1) =
    (n − x + 1)/x · odds), 0 < p ≤ 1/2, n·p < 10, odds = p / (1 − p), log_q = log(1 − p)."""
    f = math.exp(n * log_q)
    u = next_double(bitgen)
    x = 0.0
    while u >= f and x < n:
        u -= f
        x += 1.0
        f *= (n - x + 1.0) / x * odds
    return x


@numba.njit(cache=True)
def _binomial(bitgen, n: float, p: float, odds: float, log_odds: float, log_q: float) -> float:
    """Bin(n, p) for 0 < p ≤ 1/2 with its constants (odds = p/(1−p), its log, log(1−p))."""
    if n * p >= _BTRS_FROM:
        return _btrs(bitgen, n, p, log_odds)
    return _inversion(bitgen, n, odds, log_q)


@numba.njit(cache=True)
def binomial(gen, n: float, p: float) -> float:
    """One exact Bin(n, p) variate from ``gen``."""
    if n <= 0.0 or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return n
    q = min(p, 1.0 - p)
    x = _binomial(gen.bit_generator, n, q, q / (1.0 - q), math.log(q / (1.0 - q)), math.log1p(-q))
    return x if p <= 0.5 else n - x


@numba.njit(cache=True)
def conditional_binomials(gen, totals: np.ndarray, order: np.ndarray, mass: np.ndarray, out: np.ndarray) -> None:
    """Multinomial(totals[i], mass[order] / its sum) into ``out[order, i]`` for every i: cell by cell in ``order``,
    each a binomial of what remains with its share of the mass left (the last cell takes the rest); a cell's
    constants are computed once for all totals."""
    bitgen = gen.bit_generator
    remaining = totals.astype(np.float64)
    left = 0.0  # the mass of order[j:]
    for j in range(order.size):
        left += mass[order[j]]
    for j in range(order.size):
        row = out[order[j]]
        if j == order.size - 1 or mass[order[j]] >= left:
            for i in range(totals.size):
                row[i] = remaining[i]
                remaining[i] = 0.0
            continue
        p = mass[order[j]] / left
        flip = p > 0.5
        q = 1.0 - p if flip else p
        odds, log_q = q / (1.0 - q), math.log1p(-q)
        log_odds = math.log(odds)
        for i in range(totals.size):
            x = _binomial(bitgen, remaining[i], q, odds, log_odds, log_q) if remaining[i] > 0.0 and q > 0.0 else 0.0
            x = remaining[i] - x if flip else x
            row[i] = x
            remaining[i] -= x
        left -= mass[order[j]]


def multinomial(gen: np.random.Generator, totals: np.ndarray, p: np.ndarray) -> np.ndarray:
    """(len(totals), len(p)) int64: one Multinomial(totals[i], p) vector per total (``p`` sums to 1), drawn from
    ``gen`` cell by cell in the order given (decreasing p needs the fewest variates)."""
    out = np.empty((p.size, totals.size), dtype=np.int64)
    order = np.arange(p.size)
    conditional_binomials(gen, np.ascontiguousarray(totals, dtype=np.int64), order, np.asarray(p, dtype=float), out)
    return out.T
