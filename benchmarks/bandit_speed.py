"""Cost per arm of Thompson sampling and kl-UCB: the engine against a per-seed reference loop.

For each instance in ``--arms`` (a number K: Bernoulli arms with means ``numpy.random.default_rng(0).uniform(0.1,
0.9, K)``; ``markovian``: the 81 arms of Lee & Bareinboim's NeurIPS-18 Markovian experiment,
:mod:`neurips18_markovian`, nine of mean exactly 1 and many close to them) and each algorithm:

* *baseline*: ``--loop-seeds`` seeds, one at a time, run the way Lee & Bareinboim's public
  NeurIPS-18 code runs them. TS keeps S and F in numpy arrays and draws one scalar
  ``Generator.beta(S[i] + 1, F[i] + 1)`` per arm per round, then takes the argmax, ties broken
  at random like the reference (they have probability zero, but the check costs). kl-UCB sweeps
  the arms in a random order, then computes each index with one scalar ``scipy.optimize.brentq``
  call, lazily: every arm keeps its index at the level of a round 2K ahead as an upper bound, and
  each round only the pulled arm and the arms whose bound reaches its new index are inverted
  (the code's look-ahead, used here from the first round after the sweep and for every K, so the
  baseline is never slower than the reference); ties are broken at random;
* *ours*: all ``--seeds`` seeds at once through :func:`causal_bandits.bandits.engine.simulate`, in a fresh process;
  with ``--before REF`` also the package as it is at git ref ``REF`` (:mod:`before_after`), the two processes back
  to back in alternating order, each reporting a digest of every seed's arm sequence (the same digest: the same
  pulls);
* for TS, *numpy*: ``Generator.beta(a, b)`` on the (seeds x K) arrays of posterior shapes that
  our TS run holds at ``--snapshots`` rounds spread over the horizon, and *sampler*: our
  :meth:`BetaShapes.sample` on the same shapes.

Each side's time is CPU time (``time.process_time``), the best of ``--repeat`` repeats. Costs are per
seed-round (one seed advancing one round) and per arm (that divided by K); numpy and the sampler
per variate. The last line printed is one JSON object with every number, the targets and whether
each is met.

    python benchmarks/bandit_speed.py          # K = 4, 16, 81, 243 and markovian; 1,000 seeds x 2,000 rounds
    python benchmarks/bandit_speed.py --arms 4 16 --repeat 1 --seeds 200   # quick look
    python benchmarks/bandit_speed.py --algorithms KLUCB --before main   # kl-UCB now and at main, in one run
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import platform
import resource
import sys
import tempfile
import time
from functools import partial

import neurips18_markovian
import numpy as np
from before_after import both_sides, export_src, run_json
from scipy.optimize import brentq

from causal_bandits.bandits.beta import BetaShapes
from causal_bandits.bandits.engine import Streams, linear_grid, simulate
from causal_bandits.bandits.environments import BernoulliArms
from causal_bandits.bandits.klucb import KLUCB, exploration
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.bandits.thompson import ThompsonSampling
from causal_bandits.rng import SeedStreams, generator

ALGORITHMS = {"TS": ThompsonSampling, "KLUCB": KLUCB}
PAPER, EXPERIMENT = "benchmark", "bandit_speed"
#: The instance of Lee & Bareinboim's NeurIPS-18 Markovian experiment (81 arms, many close to the leader).
MARKOVIAN = "markovian"


def instance_means(instance: str) -> np.ndarray:
    """The arm means of an instance of ``--arms``: K uniform means, or the NeurIPS-18 Markovian instance."""
    if instance == MARKOVIAN:
        return neurips18_markovian.means()
    return np.random.default_rng(0).uniform(0.1, 0.9, int(instance))


def instance_arg(value: str) -> str:
    if value != MARKOVIAN and not (value.isdigit() and int(value) >= 1):
        raise argparse.ArgumentTypeError(f"an arm count >= 1 or {MARKOVIAN!r}, not {value!r}")
    return value


def speedup_target(algo: str, k: int) -> float:
    """docs/performance.md#targets: TS >= 30x at K <= 16 and >= 20x at K >= 81; kl-UCB >= 100x at every K."""
    if algo == "KLUCB":
        return 100.0
    return 30.0 if k <= 16 else 20.0


#: Our TS cost per arm over numpy's bulk Beta cost per variate, at most.
NUMPY_RATIO_TARGET = 1.25
#: Peak resident memory of the whole benchmark process (MB), at most.
MEMORY_TARGET_MB = 2000


def peak_rss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 2**10  # bytes on macOS, KiB on Linux


# ------------------------------------------------------------------------------------ ours
class PosteriorSnapshots:
    """Runs a TS policy and keeps its Beta posterior shapes (S + 1, F + 1) at chosen rounds.

    It follows the pulls through the policy interface only (a benchmark helper, not a policy).
    """

    name = "TS"

    def __init__(self, policy, rounds):
        self.policy, self.rounds, self.shapes = policy, {int(r) for r in rounds}, []

    def reset(self, n_seeds, n_arms, stream):
        self.policy.reset(n_seeds, n_arms, stream)
        self._rows = np.arange(n_seeds)
        self._s, self._f = np.zeros((n_seeds, n_arms)), np.zeros((n_seeds, n_arms))

    def select(self, t, contexts=None):
        if t in self.rounds:
            self.shapes.append((self._s + 1.0, self._f + 1.0))
        return self.policy.select(t, contexts)

    def update(self, feedback):
        self._s[self._rows, feedback.arms] += feedback.rewards
        self._f[self._rows, feedback.arms] += 1 - feedback.rewards
        self.policy.update(feedback)


class ArmDigest:
    """Recorder: a polynomial hash of every seed's arm sequence (uint64, wrapping), and its sha256 at the end."""

    def start(self, seeds, horizon, env, policy):
        self.hash = np.zeros(seeds.size, dtype=np.uint64)

    def record(self, step):
        self.hash *= np.uint64(1_000_003)
        self.hash += step.feedback.arms.astype(np.uint64)

    def finish(self):
        self.sha256 = hashlib.sha256(self.hash.tobytes()).hexdigest()
        return None, {}, {}


def run_ours(policy, means: np.ndarray, seeds: int, horizon: int) -> tuple[np.ndarray, str]:
    """The final pseudo-regrets of ``seeds`` seeds at once, and the digest of their arm sequences."""
    digest = ArmDigest()
    run = simulate(
        policy,
        BernoulliArms(means),
        Streams(PAPER, EXPERIMENT, np.arange(seeds)),
        horizon,
        [RegretTrace(linear_grid(horizon, 2)), digest],
    )
    return run.summary["final_regret"], digest.sha256


def time_ours(instance: str, algo: str, args) -> dict:
    """Our run in this process: its best CPU seconds of ``--repeat``, mean final regret and arm digest."""
    best = math.inf
    for _ in range(args.repeat):
        (regret, digest), s = cpu(run_ours, ALGORITHMS[algo](), instance_means(instance), args.seeds, args.horizon)
        best = min(best, s)
    return {"seconds": best, "regret": float(np.mean(regret)), "arms_sha256": digest, "peak_rss_mb": peak_rss_mb()}


def ours_in(src: str, instance: str, algo: str, args) -> dict:
    """:func:`time_ours` in a fresh process that imports the package from ``src``."""
    sizes = ["--seeds", str(args.seeds), "--horizon", str(args.horizon), "--repeat", str(args.repeat)]
    return run_json(src, [__file__, "--one", instance, algo, *sizes])


# ---------------------------------------------------------------------- reference-style loops
def loop_ts(means: np.ndarray, seed: int, horizon: int) -> float:
    """Beta-Bernoulli TS for one seed: one scalar Beta draw per arm per round."""
    rng = generator(PAPER, EXPERIMENT, seed, "baseline")
    k = means.size
    successes, failures = np.zeros(k), np.zeros(k)
    u = rng.random(horizon)
    best, regret = means.max(), 0.0
    for t in range(horizon):
        theta = np.array([rng.beta(successes[i] + 1, failures[i] + 1) for i in range(k)])
        top = np.flatnonzero(theta == theta.max())  # ties broken at random, as the reference does
        arm = int(top[0] if top.size == 1 else rng.choice(top))
        if u[t] < means[arm]:
            successes[arm] += 1
        else:
            failures[arm] += 1
        regret += best - means[arm]
    return regret


def kl(p: float, q: float) -> float:
    """Bernoulli KL divergence with 0 ln 0 = 0."""
    out = 0.0
    if p > 0:
        out += p * math.log(p / q)
    if p < 1:
        out += (1 - p) * math.log((1 - p) / (1 - q))
    return out


_BELOW_ONE = 1.0 - 1e-12


def kl_index(wins: float, pulls: float, level: float) -> float:
    """max{q in [p, 1] : n kl(p, q) <= level} by one scalar brentq call."""
    p = wins / pulls
    if p >= 1.0 or pulls * kl(p, _BELOW_ONE) <= level:
        return 1.0
    return brentq(lambda q: pulls * kl(p, q) - level, p, _BELOW_ONE, xtol=1e-10)


def loop_klucb(means: np.ndarray, seed: int, horizon: int) -> float:
    """kl-UCB (f(t) = ln t + 3 ln ln t) for one seed, with the reference's look-ahead."""
    rng = generator(PAPER, EXPERIMENT, seed, "baseline")
    k = means.size
    order = rng.permutation(k)
    u = rng.random(horizon)
    pulls, wins = np.zeros(k), np.zeros(k)
    index, bound, expiry = np.zeros(k), np.zeros(k), np.zeros(k, dtype=np.int64)
    best, regret, arm = means.max(), 0.0, -1
    for t in range(1, horizon + 1):
        if t <= k:
            arm = int(order[t - 1])
        else:
            level = exploration(t - 1)
            refresh = range(k) if t == k + 1 else set(np.flatnonzero(expiry < t - 1).tolist()) | {arm}
            for a in refresh:  # bounds at the level of round 2K ahead
                expiry[a] = t - 1 + 2 * k
                bound[a] = kl_index(wins[a], pulls[a], exploration(expiry[a]))
            if t == k + 1:
                contenders = range(k)
            else:
                index[arm] = kl_index(wins[arm], pulls[arm], level)
                contenders = np.flatnonzero(bound >= index[arm])
            for a in contenders:
                if t == k + 1 or a != arm:
                    index[a] = kl_index(wins[a], pulls[a], level)
            leaders = np.flatnonzero(index == index.max())
            arm = int(leaders[0] if leaders.size == 1 else rng.choice(leaders))
        reward = u[t - 1] < means[arm]
        pulls[arm] += 1
        wins[arm] += reward
        regret += best - means[arm]
    return regret


LOOPS = {"TS": loop_ts, "KLUCB": loop_klucb}


# ------------------------------------------------------------------------------------ timing
def cpu(fn, *args):
    start = time.process_time()
    out = fn(*args)
    return out, time.process_time() - start


def numpy_beta_seconds(shapes) -> float:
    rng = np.random.default_rng(0)
    start = time.process_time()
    for a, b in shapes:
        rng.beta(a, b)
    return time.process_time() - start


def sampler_seconds(shapes, repeat: int) -> float:
    total = 0.0
    for i, (a, b) in enumerate(shapes):
        cache = BetaShapes(a, b)
        seeds = range(a.shape[0])
        draws = SeedStreams(PAPER, f"sampler-{repeat}-{i}", seeds, "draws")
        retries = SeedStreams(PAPER, f"sampler-{repeat}-{i}", seeds, "retries")
        cache.sample(draws, retries)  # untimed: first fills of the streams, the compiled kernel loaded
        start = time.process_time()
        cache.sample(draws, retries)
        total += time.process_time() - start
    return total


def measure(algo: str, instance: str, args, i: int, before_src: str | None) -> dict:
    """One row: ours (and the ref's, with ``before_src``) in fresh processes, the baseline and TS's numpy and sampler
    columns in this one."""
    means = instance_means(instance)
    k = means.size
    row: dict = {"instance": instance, "K": k, "algorithm": algo}
    ours, before = both_sides(i, partial(ours_in, instance=instance, algo=algo, args=args), before_src)
    shapes = []
    if algo == "TS":  # an untimed run that keeps the posterior shapes for numpy and the sampler
        rounds = np.linspace(args.horizon / args.snapshots, args.horizon, args.snapshots).round()
        snap = PosteriorSnapshots(ThompsonSampling(), rounds)
        run_ours(snap, means, args.seeds, args.horizon)
        shapes = snap.shapes
    best = {"baseline": math.inf, "numpy": math.inf, "sampler": math.inf}
    for repeat in range(args.repeat):
        loop_regret, s = cpu(lambda: [LOOPS[algo](means, i, args.horizon) for i in range(args.loop_seeds)])
        best["baseline"] = min(best["baseline"], s)
        if shapes:
            best["numpy"] = min(best["numpy"], numpy_beta_seconds(shapes))
            best["sampler"] = min(best["sampler"], sampler_seconds(shapes, repeat))
    row["baseline_us"] = best["baseline"] / (args.loop_seeds * args.horizon) * 1e6
    row["ours_us"] = ours["seconds"] / (args.seeds * args.horizon) * 1e6
    row["ours_ns_per_arm"] = row["ours_us"] * 1e3 / k
    row["speedup"] = row["baseline_us"] / row["ours_us"]
    row["speedup_target"] = speedup_target(algo, k)
    row["regret_ours"] = ours["regret"]
    row["regret_baseline"] = float(np.mean(loop_regret))
    row["peak_rss_mb"] = max(ours["peak_rss_mb"], peak_rss_mb())
    if before is not None:
        row["before_us"] = before["seconds"] / (args.seeds * args.horizon) * 1e6
        row["speedup_over_before"] = row["before_us"] / row["ours_us"]
        row["same_arms_as_before"] = before["arms_sha256"] == ours["arms_sha256"]
    if shapes:
        variates = len(shapes) * args.seeds * k
        row["numpy_beta_ns"] = best["numpy"] / variates * 1e9
        row["sampler_ns"] = best["sampler"] / variates * 1e9
        row["ours_over_numpy"] = row["ours_ns_per_arm"] / row["numpy_beta_ns"]
        # The speed-up of a TS whose whole round cost no more than numpy's bulk Beta draws.
        row["numpy_limit_speedup"] = row["baseline_us"] * 1e3 / (row["numpy_beta_ns"] * k)
        row["sampler_over_numpy"] = row["sampler_ns"] / row["numpy_beta_ns"]
    met = {"speedup": row["speedup"] >= row["speedup_target"]}
    if shapes:
        met["numpy_ratio"] = row["ours_over_numpy"] <= NUMPY_RATIO_TARGET
    row["met"] = met
    return row


def print_table(rows: list[dict]) -> None:
    header = (
        f"{'alg':<6}{'instance':>10} {'baseline us':>12} {'ours us':>9} {'ns/arm':>7} {'speed-up':>9}"
        f" {'target':>7} {'numpy ns':>9} {'sampler ns':>11} {'ours/numpy':>11} {'limit':>7}"
        f" {'regret ours/base':>17}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        numpy_cols = (
            f" {r['numpy_beta_ns']:>9.1f} {r['sampler_ns']:>11.1f} {r['ours_over_numpy']:>10.2f}x"
            f" {r['numpy_limit_speedup']:>6.1f}x"
            if "numpy_beta_ns" in r
            else f" {'':>9} {'':>11} {'':>11} {'':>7}"
        )
        mark = (
            "" if all(r["met"].values()) else "  NOT MET: " + ", ".join(key for key, ok in r["met"].items() if not ok)
        )
        print(
            f"{r['algorithm']:<6}{r['instance']:>10} {r['baseline_us']:>12.1f} {r['ours_us']:>9.3f}"
            f" {r['ours_ns_per_arm']:>7.1f} {r['speedup']:>8.1f}x {r['speedup_target']:>6.0f}x"
            f"{numpy_cols} {r['regret_ours']:>8.1f} / {r['regret_baseline']:<7.1f}{mark}"
        )


def print_before(rows: list[dict], ref: str) -> None:
    """Ours now against ours at ``ref`` (CPU microseconds per seed-round), and whether every pull is the same."""
    print(f"{'alg':<6}{'instance':>10} {'K':>4} {'now us':>8} {ref + ' us':>12} {'speed-up':>9} {'same arms':>10}")
    for r in rows:
        print(
            f"{r['algorithm']:<6}{r['instance']:>10} {r['K']:>4} {r['ours_us']:>8.3f} {r['before_us']:>12.3f}"
            f" {r['speedup_over_before']:>8.2f}x {'yes' if r['same_arms_as_before'] else 'NO':>10}"
        )


def main(argv=None) -> dict | None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--arms", type=instance_arg, nargs="+", default=["4", "16", "81", "243", MARKOVIAN], help="K, or markovian"
    )
    parser.add_argument("--algorithms", nargs="+", choices=list(ALGORITHMS), default=list(ALGORITHMS))
    parser.add_argument("--seeds", type=int, default=1000, help="seeds of our run, all at once")
    parser.add_argument("--horizon", type=int, default=2000, help="rounds per seed")
    parser.add_argument("--loop-seeds", type=int, default=2, help="seeds of the baseline loop")
    parser.add_argument("--repeat", type=int, default=3, help="repeats per side; the best counts")
    parser.add_argument("--snapshots", type=int, default=8, help="TS posteriors timed with numpy")
    parser.add_argument("--before", metavar="REF", help="also measure ours at this git ref (e.g. main)")
    parser.add_argument("--one", nargs=2, metavar=("INSTANCE", "ALGORITHM"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if min([args.seeds, args.horizon, args.loop_seeds, args.repeat, args.snapshots]) < 1:
        parser.error("sizes must be >= 1")
    if args.one:
        print(json.dumps(time_ours(*args.one, args)))
        return None

    print(
        f"bandit_speed: instances {args.arms}; ours {args.seeds} seeds at once, baseline"
        f" {args.loop_seeds} seeds one by one; horizon {args.horizon}; CPU time, best of {args.repeat}"
        + (f"; ours at {args.before} too, alternating" if args.before else "")
    )
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        before_src = export_src(args.before, tmp) if args.before else None
        for instance in args.arms:
            for algo in args.algorithms:
                rows.append(measure(algo, instance, args, len(rows), before_src))
                r = rows[-1]
                before = f", {r['speedup_over_before']:.2f}x over {args.before}" if before_src else ""
                print(f"  {algo} {instance}: {r['speedup']:.1f}x over the baseline{before}", flush=True)
    print()
    print_table(rows)
    print(
        "us = CPU microseconds per seed-round; ns/arm = ours / K; numpy ns and sampler ns per"
        " variate on our TS posteriors; limit = the TS speed-up if a whole round cost only K of"
        " numpy's bulk Beta draws; regrets: mean final pseudo-regret (a sanity check only)"
    )
    if args.before:
        print()
        print_before(rows, args.before)
    memory = max(r["peak_rss_mb"] for r in rows)
    print(f"peak resident memory (ru_maxrss, the largest process): {memory:.0f} MB")
    result = {
        "rows": rounded(rows),
        "peak_rss_mb": round(memory, 1),
        "targets": {
            "speedup": "TS >= 30x (K <= 16), >= 20x (K >= 81); kl-UCB >= 100x",
            "ours_over_numpy": NUMPY_RATIO_TARGET,
            "peak_rss_mb": MEMORY_TARGET_MB,
        },
        "all_met": all(all(r["met"].values()) for r in rows) and memory <= MEMORY_TARGET_MB,
        "config": vars(args),
    }
    print(json.dumps(result))
    return result


def rounded(obj):
    if isinstance(obj, float):
        return round(obj, 4)
    if isinstance(obj, dict):
        return {k: rounded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [rounded(v) for v in obj]
    return obj


if __name__ == "__main__":
    main()
