"""Speed and memory of the vectorised bandit engine versus a plain per-seed Python loop.

For Thompson sampling and kl-UCB on one K-armed Bernoulli instance (means drawn by
``numpy.random.default_rng(0).uniform(0.1, 0.9, K)``), this script times

* the library: all seeds through :func:`causal_bandits.bandits.engine.simulate`, in chunks of
  ``--chunk`` seeds (which bounds memory), recording a ``--points``-point grid; and
* a per-seed loop as a researcher would write it: one numpy Generator per seed, each round
  ``rng.beta(S + 1, F + 1)`` and argmax for TS; for kl-UCB an initial sweep, then each arm's index
  by ``scipy.optimize.brentq`` in a Python loop over the arms; run on ``--loop-seeds`` seeds.

Speeds are compared per seed-round (one seed advancing one round). Peak memory is reported as
the tracemalloc peak of a separate, instrumented vectorised run (tracemalloc slows allocation, so
the timed run is not instrumented) and as the ru_maxrss of this process. The last line printed is
one JSON object with the numbers and whether the targets are met.

    python benchmarks/bandit_speed.py                       # full size (minutes)
    python benchmarks/bandit_speed.py --seeds 200 --horizon 2000 --loop-seeds 5   # quick check
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import resource
import sys
import time
import tracemalloc

import numpy as np
from scipy.optimize import brentq

from causal_bandits.bandits.engine import Streams, linear_grid, simulate
from causal_bandits.bandits.environments import BernoulliArms
from causal_bandits.bandits.klucb import KLUCB
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.bandits.thompson import ThompsonSampling

TARGETS = {"ts_speedup": 50, "klucb_speedup": 20, "peak_memory_mb": 2000}
ALGORITHMS = {"TS": ThompsonSampling, "KLUCB": KLUCB}
PAPER, EXPERIMENT = "benchmark", "bandit_speed"


# ------------------------------------------------------------------------------ vectorised runs
def run_vectorised(algo: str, means: np.ndarray, seeds: int, horizon: int, grid, chunk: int):
    """All seeds through ``simulate``, ``chunk`` seeds at a time; returns final pseudo-regrets."""
    env = BernoulliArms(means)
    finals = []
    for start in range(0, seeds, chunk):
        streams = Streams(PAPER, EXPERIMENT, np.arange(start, min(start + chunk, seeds)))
        run = simulate(ALGORITHMS[algo](), env, streams, horizon, [RegretTrace(grid)])
        finals.append(run.summary["final_regret"])
    return np.concatenate(finals)


# ------------------------------------------------------------------------- per-seed Python loops
def loop_ts(means: np.ndarray, seed: int, horizon: int, grid: set[int]) -> float:
    """Beta-Bernoulli Thompson sampling for one seed, the textbook way."""
    rng = np.random.default_rng(seed)
    k = means.size
    successes, failures = np.zeros(k), np.zeros(k)
    best, regret, curve = means.max(), 0.0, []
    for t in range(1, horizon + 1):
        arm = int(np.argmax(rng.beta(successes + 1, failures + 1)))
        reward = rng.random() < means[arm]
        if reward:
            successes[arm] += 1
        else:
            failures[arm] += 1
        regret += best - means[arm]
        if t in grid:
            curve.append(regret)
    return regret


def kl(p: float, q: float) -> float:
    """Bernoulli KL divergence with 0 log 0 = 0."""
    out = 0.0
    if p > 0:
        out += p * math.log(p / q)
    if p < 1:
        out += (1 - p) * math.log((1 - p) / (1 - q))
    return out


def kl_index(p: float, n: int, level: float) -> float:
    """max{q in [p, 1] : n kl(p, q) <= level} by brentq."""
    if p >= 1.0:
        return 1.0
    hi = 1.0 - 1e-12
    if n * kl(p, hi) <= level:
        return hi
    return brentq(lambda q: n * kl(p, q) - level, p, hi, xtol=1e-10)


def loop_klucb(means: np.ndarray, seed: int, horizon: int, grid: set[int]) -> float:
    """kl-UCB (f(t) = ln t + 3 ln ln t) for one seed, the textbook way."""
    rng = np.random.default_rng(seed)
    k = means.size
    order = rng.permutation(k)
    pulls, wins = [0] * k, [0] * k
    best, regret, curve = means.max(), 0.0, []
    for t in range(1, horizon + 1):
        if t <= k:
            arm = int(order[t - 1])
        else:
            s = t - 1
            level = 1.0 if s < 3 else math.log(s) + 3 * math.log(math.log(s))
            index = [kl_index(wins[a] / pulls[a], pulls[a], level) for a in range(k)]
            arm = int(np.argmax(index))
        reward = rng.random() < means[arm]
        pulls[arm] += 1
        wins[arm] += reward
        regret += best - means[arm]
        if t in grid:
            curve.append(regret)
    return regret


LOOPS = {"TS": loop_ts, "KLUCB": loop_klucb}


# ------------------------------------------------------------------------------------ measuring
def timed(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


def traced_peak_mb(fn, *args) -> float:
    """tracemalloc peak (MB) of one call (numpy reports its buffers to tracemalloc)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        fn(*args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20


def maxrss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 2**10  # bytes on macOS, KiB on Linux


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1000, help="seeds of the vectorised run")
    parser.add_argument("--horizon", type=int, default=10_000, help="rounds per seed")
    parser.add_argument("--arms", type=int, default=30, help="number of Bernoulli arms")
    parser.add_argument("--points", type=int, default=200, help="grid points recorded")
    parser.add_argument("--loop-seeds", type=int, default=20, help="seeds of the per-seed loop")
    parser.add_argument("--chunk", type=int, default=250, help="seeds per simulate() call")
    parser.add_argument(
        "--algorithms", nargs="+", choices=list(ALGORITHMS), default=list(ALGORITHMS)
    )
    parser.add_argument(
        "--memory-chunks",
        type=int,
        default=1,
        help="chunks replayed under tracemalloc for the memory peak (0 = all; chunks run one "
        "after another and keep only final regrets, so one full chunk reaches the peak)",
    )
    args = parser.parse_args(argv)
    if min(args.seeds, args.horizon, args.arms, args.points, args.loop_seeds, args.chunk) < 1:
        parser.error("sizes must be >= 1")

    means = np.random.default_rng(0).uniform(0.1, 0.9, args.arms)
    grid = linear_grid(args.horizon, args.points)
    grid_set = {int(g) for g in grid}
    mem_seeds = args.seeds
    if args.memory_chunks > 0:
        mem_seeds = min(args.seeds, args.chunk * args.memory_chunks)

    print(
        f"bandit_speed: {args.arms} Bernoulli arms, horizon {args.horizon}, grid {grid.size}"
        f" points; vectorised {args.seeds} seeds (chunks of {args.chunk}),"
        f" loop {args.loop_seeds} seeds"
    )
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")

    rows = {}
    for algo in args.algorithms:
        finals, vec_s = timed(
            run_vectorised, algo, means, args.seeds, args.horizon, grid, args.chunk
        )
        loop_finals, loop_s = timed(
            lambda: [LOOPS[algo](means, s, args.horizon, grid_set) for s in range(args.loop_seeds)]
        )
        peak = traced_peak_mb(
            run_vectorised, algo, means, mem_seeds, args.horizon, grid, args.chunk
        )
        vec_rate = args.seeds * args.horizon / vec_s
        loop_rate = args.loop_seeds * args.horizon / loop_s
        rows[algo] = {
            "vec_s": vec_s,
            "loop_s": loop_s,
            "vec_rate": vec_rate,
            "loop_rate": loop_rate,
            "speedup": vec_rate / loop_rate,
            "tracemalloc_mb": peak,
            "regret_vec": float(np.mean(finals)),
            "regret_loop": float(np.mean(loop_finals)),
        }
        print(f"  {algo}: done ({vec_s:.1f} s vectorised, {loop_s:.1f} s loop)", flush=True)

    rss = maxrss_mb()
    header = (
        f"{'algorithm':<9} {'vec seed-rounds/s':>18} {'loop seed-rounds/s':>19} {'speed-up':>9}"
        f" {'tracemalloc MB':>15} {'mean regret vec / loop':>23}"
    )
    print()
    print(header)
    print("-" * len(header))
    for algo, r in rows.items():
        print(
            f"{algo:<9} {r['vec_rate']:>18,.0f} {r['loop_rate']:>19,.0f} {r['speedup']:>8.1f}x"
            f" {r['tracemalloc_mb']:>15.1f} {r['regret_vec']:>11.1f} / {r['regret_loop']:<9.1f}"
        )
    print(f"process peak RSS (ru_maxrss): {rss:.1f} MB")
    print(
        f"(tracemalloc over {mem_seeds} seeds; regrets are mean final pseudo-regret, a sanity check"
        f" only: the loop uses {args.loop_seeds} seeds and other random streams)"
    )

    peak_memory = max([rss] + [r["tracemalloc_mb"] for r in rows.values()])
    result = {
        "ts_speedup": rows["TS"]["speedup"] if "TS" in rows else None,
        "klucb_speedup": rows["KLUCB"]["speedup"] if "KLUCB" in rows else None,
        "ts_seed_rounds_per_s": rows["TS"]["vec_rate"] if "TS" in rows else None,
        "klucb_seed_rounds_per_s": rows["KLUCB"]["vec_rate"] if "KLUCB" in rows else None,
        "loop_ts_seed_rounds_per_s": rows["TS"]["loop_rate"] if "TS" in rows else None,
        "loop_klucb_seed_rounds_per_s": rows["KLUCB"]["loop_rate"] if "KLUCB" in rows else None,
        "peak_memory_mb": peak_memory,
        "tracemalloc_peak_mb": {algo: r["tracemalloc_mb"] for algo, r in rows.items()},
        "maxrss_mb": rss,
        "config": vars(args),
        "targets": TARGETS,
    }
    result["met"] = {key: meets(key, result[key], target) for key, target in TARGETS.items()}
    result = rounded(result)
    print(json.dumps(result))
    return result


def meets(key: str, value: float | None, target: float) -> bool:
    """Memory is an upper bound, speed-ups lower bounds; a skipped algorithm does not meet it."""
    if value is None:
        return False
    return value <= target if key == "peak_memory_mb" else value >= target


def rounded(obj):
    if isinstance(obj, float):
        return round(obj, 3)
    if isinstance(obj, dict):
        return {k: rounded(v) for k, v in obj.items()}
    return obj


if __name__ == "__main__":
    main()
