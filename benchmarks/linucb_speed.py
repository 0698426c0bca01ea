"""Speed of vectorised LinUCB-PCB (Huang & Wu, Algorithm 4) against a plain per-seed Python loop.

The environment is Figure 2's exact contextual bandit (docs/papers/bounds.md#bounds-model: μ(a, c) = 0.1 + (0.925 + 0.25
x1 + u1 + x2)/6, P(c) = (0.24, 0.36, 0.16, 0.24)) and the prior causal upper bounds are the exact
population BCE bounds (docs/papers/bounds.md#bounds-bce), so the script needs no offline stage. It times

* the library: :class:`causal_bandits.bandits.linucb.LinUCB` with ``upper`` through
  :func:`causal_bandits.bandits.engine.simulate`, all ``--seeds`` seeds at once
  (batched ridge statistics, Sherman–Morrison rank-one updates); and
* two per-seed loops as a researcher would write them, one numpy Generator per seed, each round
  drawing a context and the reward uniforms, computing every arm's index, truncating it by U and
  pulling the argmax, on ``--loop-seeds`` seeds:
  - ``same arithmetic``: A⁻¹ kept by Sherman–Morrison, θ̂ = A⁻¹b per arm — the library's arithmetic,
    so the ratio measures vectorisation alone (the target is checked against this loop);
  - ``as written``: Algorithm 4 line by line, A_a += xxᵀ and θ̂_a = A_a⁻¹ b_a with a fresh inverse
    per arm and round.

Speeds are compared per seed-round (one seed advancing one round); each side is timed ``--repeat``
times and its fastest run counts (the machine may be shared). The last line printed is one JSON
object with the numbers and whether the target (speed-up ≥ 30 over the same-arithmetic loop) is met.

    python benchmarks/linucb_speed.py                                  # 100 seeds x 15,000 rounds
    python benchmarks/linucb_speed.py --seeds 20 --horizon 2000 --loop-seeds 2   # quick check
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

from causal_bandits.bandits.engine import Streams, linear_grid, simulate
from causal_bandits.bandits.environments import ContextualBernoulli
from causal_bandits.bandits.linucb import LinUCB
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers.bounds.features import feature_map

TARGET_SPEEDUP = 30
U1 = np.array([0, 0, 1, 1])
X1, X2 = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
MU = 0.1 + (0.925 + 0.25 * X1[None, :] + U1[:, None] + X2[None, :]) / 6
P_CONTEXT = np.array([0.24, 0.36, 0.16, 0.24])
#: Exact population upper bounds U(a, c) of docs/papers/bounds.md#bounds-bce (u2 is irrelevant).
UPPER = np.array([[191 / 510, 46 / 85, 148 / 405, 431 / 810], [46 / 85, 361 / 510, 431 / 810, 283 / 405]])[U1]


def run_vectorised(seeds: int, horizon: int, alpha: float) -> tuple[float, np.ndarray]:
    """Seconds and final pseudo-regrets of the library on ``seeds`` seeds."""
    env = ContextualBernoulli(P_CONTEXT, MU)
    start = time.perf_counter()
    run = simulate(
        LinUCB(feature_map("paper4", 2, 2), alpha=alpha, upper=UPPER),
        env,
        Streams("benchmark", "linucb_speed", np.arange(seeds)),
        horizon,
        [RegretTrace(linear_grid(horizon, 200))],
    )
    return time.perf_counter() - start, run.summary["final_regret"]


def loop_linucb_pcb(seed: int, horizon: int, alpha: float, as_written: bool = False) -> float:
    """LinUCB-PCB for one seed in plain Python/numpy; returns the final pseudo-regret."""
    rng = np.random.default_rng(seed)
    phi = feature_map("paper4", 2, 2)
    n_arms, d = phi.shape[1], phi.shape[2]
    a = [np.eye(d) for _ in range(n_arms)]  # A_a (as written) or A_a⁻¹ (Sherman–Morrison)
    b = [np.zeros(d) for _ in range(n_arms)]
    cdf = np.cumsum(P_CONTEXT)
    best = MU.max(axis=1)
    regret = 0.0
    for _ in range(horizon):
        c = min(int(np.searchsorted(cdf, rng.random(), side="right")), 3)
        v = rng.random(n_arms)
        index = np.empty(n_arms)
        for k in range(n_arms):
            x = phi[c, k]
            a_inv = np.linalg.inv(a[k]) if as_written else a[k]
            index[k] = min((a_inv @ b[k]) @ x + alpha * np.sqrt(x @ a_inv @ x), UPPER[c, k])
        ties = np.flatnonzero(index >= index.max() - 1e-12)
        arm = int(ties[rng.integers(ties.size)]) if ties.size > 1 else int(ties[0])
        x = phi[c, arm]
        if as_written:
            a[arm] = a[arm] + np.outer(x, x)
        else:
            u = a[arm] @ x
            a[arm] = a[arm] - np.outer(u, u) / (1.0 + x @ u)
        b[arm] = b[arm] + float(v[arm] < MU[c, arm]) * x
        regret += best[c] - MU[c, arm]
    return regret


def time_loop(args, as_written: bool) -> tuple[float, float]:
    """(fastest seed-rounds per second over ``--repeat`` runs, mean final regret) of a per-seed loop."""
    seconds = np.inf
    for _ in range(args.repeat):
        start = time.perf_counter()
        finals = [loop_linucb_pcb(seed, args.horizon, args.alpha, as_written) for seed in range(args.loop_seeds)]
        seconds = min(seconds, time.perf_counter() - start)
    return args.loop_seeds * args.horizon / seconds, float(np.mean(finals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--horizon", type=int, default=15_000)
    parser.add_argument("--loop-seeds", type=int, default=3)
    parser.add_argument("--alpha", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    seconds, finals = min(
        (run_vectorised(args.seeds, args.horizon, args.alpha) for _ in range(args.repeat)), key=lambda r: r[0]
    )
    vec_rate = args.seeds * args.horizon / seconds
    print(
        f"vectorised LinUCB-PCB: {args.seeds} seeds x {args.horizon} rounds in {seconds:.2f} s "
        f"({vec_rate:,.0f} seed-rounds/s), mean final regret {finals.mean():.1f}"
    )

    rates = {}
    for name, as_written in (("same arithmetic", False), ("as written", True)):
        rates[name], regret = time_loop(args, as_written)
        print(
            f"per-seed loop ({name}): {rates[name]:,.0f} seed-rounds/s on {args.loop_seeds} seeds, "
            f"mean final regret {regret:.1f}; speed-up {vec_rate / rates[name]:.1f}x"
        )
    speedup = vec_rate / rates["same arithmetic"]
    print(
        f"speed-up over the same-arithmetic loop {speedup:.1f}x (target >= {TARGET_SPEEDUP}x); that loop would "
        f"take {args.seeds * args.horizon / rates['same arithmetic']:.0f} s for all seeds"
    )
    print(
        json.dumps(
            {
                "algorithm": "LinUCB-PCB",
                "seeds": args.seeds,
                "horizon": args.horizon,
                "loop_seeds": args.loop_seeds,
                "repeat": args.repeat,
                "vectorised_seconds": round(seconds, 3),
                "vectorised_seed_rounds_per_s": round(vec_rate),
                "loop_seed_rounds_per_s": round(rates["same arithmetic"]),
                "speedup": round(speedup, 1),
                "loop_as_written_seed_rounds_per_s": round(rates["as written"]),
                "speedup_vs_as_written": round(vec_rate / rates["as written"], 1),
                "target_met": speedup >= TARGET_SPEEDUP,
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
