"""Exact multinomial draws from a seed's own numpy Generator, compiled (the z² bootstrap's sampler).

:func:`multinomial` draws one multinomial vector per total as conditional binomials, cell by cell: cell j gets
Bin(remaining, p_j / (p_j + ... + p_last)) (the last cell takes what remains). Each binomial is exact:

* **BTRS** (Hörmann 1993, "The generation of binomial random variates", J. Statist. Comput. Simul. 46,
  101-110: transformed rejection with a squeeze) when m·min(p, 1−p) ≥ 10; the acceptance test compares with
  the exact log pmf ratio (a table of log k!), computed only when the squeeze does not decide;
* **inversion** otherwise: one uniform, the cdf searched from 0 (expected m·p + 1 steps of the pmf recursion);
* p > 1/2 draws m − Bin(m, 1 − p).

Uniforms are those of a seed's own numpy ``PCG64`` Generator (what ``Generator.random()`` returns), so a seed's
draws depend on its own stream only. The samplers advance the stream themselves, on the generator's state held as
four ``uint64`` words (:func:`pcg64_state`): numba takes a Generator argument one at a time (unboxing it costs
microseconds a call), whereas a ``(seeds, 4)`` array of states lets one compiled call draw for every seed of a
refresh, and a loop can keep the state in registers as it draws. The step is PCG64's (O'Neill 2014, "PCG: a family of
simple fast space-efficient statistically good algorithms for random number generation": the XSL-RR output of a
128-bit LCG, as numpy's ``PCG64`` implements it), written on 64-bit words with one 128-bit multiply emitted as LLVM
IR (numba has no 128-bit integer type); ``tests/test_multinomial.py`` checks it against ``Generator.random`` bit for
bit. The kernels are compiled by numba on first use and cached on disk next to this file (``cache=True``; numba's
user-wide cache directory if that is not writable).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_BTRS_FROM = 10.0  # m·min(p, 1−p) from which BTRS is used (Hörmann 1993, Sect. 3)
#: log k! for the table sizes of a run (``lgamma`` beyond): BTRS's acceptance test reads four of them.
_LOG_FACTORIAL = np.array([math.lgamma(k + 1.0) for k in range(1 << 15)])


#: PCG64's 128-bit LCG multiplier (numpy's ``PCG64``), as its high and low 64-bit words.
_MULT_HI, _MULT_LO = np.uint64(0x2360ED051FC65DA4), np.uint64(0x4385DF649FCCF645)
_WORD = (1 << 64) - 1


def pcg64_state(gen: np.random.Generator) -> np.ndarray:
    """The state of ``gen``'s PCG64 bit generator as uint64 words (state high, state low, increment high, increment
    low), the form the samplers advance."""
    state = gen.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise ValueError(f"the samplers advance a PCG64 stream; got a {state['bit_generator']} Generator")
    s, inc = state["state"]["state"], state["state"]["inc"]
    return np.array([s >> 64, s & _WORD, inc >> 64, inc & _WORD], dtype=np.uint64)


def set_pcg64_state(gen: np.random.Generator, words: np.ndarray) -> None:
    """Put the words of :func:`pcg64_state`, as the samplers left them, back into ``gen`` (its stream continues after
    their draws)."""
    hi, lo, inc_hi, inc_lo = (int(w) for w in words)
    words_128 = {"state": (hi << 64) | lo, "inc": (inc_hi << 64) | inc_lo}
    gen.bit_generator.state = {**gen.bit_generator.state, "state": words_128}


@intrinsic
def _mul_high(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64: one LLVM ``i128`` multiply, which the compiler turns into
    the CPU's widening multiply (numba has no 128-bit integer type to write it in Python)."""

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return types.uint64(types.uint64, types.uint64), codegen


@numba.njit(cache=True, inline="always")
def _step(hi, lo, inc_hi, inc_lo):
    """One PCG64 step from the state words (hi, lo) with increment (inc_hi, inc_lo): (the uniform on [0, 1), new hi,
    new lo); state ← state · multiplier + increment (mod 2^128), output rotr64(high ^ low, high >> 58), its top 53
    bits scaled as ``Generator.random`` does. Scalars in and out, so that the compiled loops keep the state in
    registers."""
    new_lo = lo * _MULT_LO
    new_hi = _mul_high(lo, _MULT_LO) + hi * _MULT_LO + lo * _MULT_HI
    low = new_lo + inc_lo
    high = new_hi + inc_hi + (np.uint64(1) if low < new_lo else np.uint64(0))
    x = high ^ low
    rot = high >> np.uint64(58)
    out = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    return np.float64(out >> np.uint64(11)) * (1.0 / 9007199254740992.0), high, low


@numba.njit(cache=True)
def _log_factorial(k: float) -> float:
    return _LOG_FACTORIAL[int(k)] if k < _LOG_FACTORIAL.size else math.lgamma(k + 1.0)


@numba.njit(cache=True, inline="always")
def _btrs(hi, lo, inc_hi, inc_lo, n: float, p: float, log_odds: float):
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
        u, hi, lo = _step(hi, lo, inc_hi, inc_lo)
        v, hi, lo = _step(hi, lo, inc_hi, inc_lo)
        u -= 0.5
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + c)
        if k < 0.0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k, hi, lo
        v = v * alpha / (a / (us * us) + b)
        if math.log(v) <= log_fm - _log_factorial(k) - _log_factorial(n - k) + (k - m) * log_odds:
            return k, hi, lo


@numba.njit(cache=True, inline="always")
def _inversion(hi, lo, inc_hi, inc_lo, n: float, odds: float, log_q: float):
    """Bin(n, p) by sequential search of the cdf from 0 with one uniform (pmf ratios f(x)/f(x−1) =
    (n − x + 1)/x · odds), 0 < p ≤ 1/2, n·p < 10, odds = p / (1 − p), log_q = log(1 − p)."""
    f = math.exp(n * log_q)
    u, hi, lo = _step(hi, lo, inc_hi, inc_lo)
    x = 0.0
    while u >= f and x < n:
        u -= f
        x += 1.0
        f *= (n - x + 1.0) / x * odds
    return x, hi, lo


@numba.njit(cache=True, inline="always")
def _binomial(hi, lo, inc_hi, inc_lo, n: float, p: float, odds: float, log_odds: float, log_q: float):
    """Bin(n, p) for 0 < p ≤ 1/2 with its constants (odds = p/(1−p), its log, log(1−p))."""
    if n * p >= _BTRS_FROM:
        return _btrs(hi, lo, inc_hi, inc_lo, n, p, log_odds)
    return _inversion(hi, lo, inc_hi, inc_lo, n, odds, log_q)


@numba.njit(cache=True)
def conditional_binomials(state, totals: np.ndarray, order: np.ndarray, mass: np.ndarray, out: np.ndarray) -> None:
    """Multinomial(totals[i], mass[order] / its sum) into ``out[order, i]`` for every i: cell by cell in ``order``,
    each a binomial of what remains with its share of the mass left (the last cell takes the rest); a cell's
    constants are computed once for all totals. ``state``: the PCG64 stream drawn from (:func:`pcg64_state`), advanced
    in place."""
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
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
            x = 0.0
            if remaining[i] > 0.0 and q > 0.0:
                x, hi, lo = _binomial(hi, lo, inc_hi, inc_lo, remaining[i], q, odds, log_odds, log_q)
            x = remaining[i] - x if flip else x
            row[i] = x
            remaining[i] -= x
        left -= mass[order[j]]
    state[0], state[1] = hi, lo


def multinomial(gen: np.random.Generator, totals: np.ndarray, p: np.ndarray) -> np.ndarray:
    """(len(totals), len(p)) int64: one Multinomial(totals[i], p) vector per total (``p`` sums to 1), drawn from
    ``gen`` (a PCG64 Generator, advanced past the draws) cell by cell in the order given (decreasing p needs the fewest
    variates)."""
    out = np.empty((p.size, totals.size), dtype=np.int64)
    state = pcg64_state(gen)
    totals = np.ascontiguousarray(totals, dtype=np.int64)
    conditional_binomials(state, totals, np.arange(p.size), np.asarray(p, dtype=float), out)
    set_pcg64_state(gen, state)
    return out.T
