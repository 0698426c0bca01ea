"""Speed of the cpe policies vectorised over seeds versus a per-seed loop of the same algorithm.

For CCPE-General (E3, ρ = 0.8: 99 arms with admissible sequences; and E1, n = 16) and LUCB (E1,
n = 16) this script times

* the library: ``--seeds`` seeds together through :func:`causal_bandits.bandits.engine.simulate`;
* a per-seed loop: the same policy class and environment, one seed per ``simulate`` call, on
  ``--loop-seeds`` seeds (the loop a researcher gets without vectorising; same code, same numbers).

Every seed runs exactly ``--rounds`` rounds (the sample cap is set below the stopping times, so no
seed leaves early and both sides do the same work). Speeds are seed-rounds per second (one seed,
one sample; a CCPE iteration is three samples). The per-seed results are checked to equal the
vectorised ones. The last line printed is one JSON object with the numbers and whether the
target (>= 20x) is met.

    python benchmarks/cpe_speed.py                      # about a minute
    python benchmarks/cpe_speed.py --seeds 30 --rounds 1500 --loop-seeds 2   # quick check
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

from causal_bandits.bandits.ccpe_general import CCPEGeneral
from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.bandits.lucb import LUCB
from causal_bandits.papers.cpe import families
from causal_bandits.papers.cpe.environment import CPEEnvironment

TARGET = 20.0
CASES = {
    "CCPE-General E3 rho=0.8": (
        lambda: families.confounded(0.8),
        lambda inst: CCPEGeneral(inst.policy_arms(), inst.policy_sequences()),
    ),
    "CCPE-General E1 n=16": (
        lambda: families.parallel(16),
        lambda inst: CCPEGeneral(inst.policy_arms(), inst.policy_sequences()),
    ),
    "LUCB E1 n=16": (lambda: families.parallel(16), lambda inst: LUCB()),
}


def timed(policy, env, seeds: np.ndarray, rounds: int) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    run = simulate(policy, env, Streams("cpe", "benchmark", seeds), rounds)
    return time.perf_counter() - start, run.summary["recommended"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="seeds vectorised in one job")
    parser.add_argument("--rounds", type=int, default=3000, help="rounds (samples) per seed")
    parser.add_argument("--loop-seeds", type=int, default=3, help="seeds timed in the per-seed loop")
    args = parser.parse_args()
    results = {}
    print(
        f"python {platform.python_version()}, numpy {np.__version__}; {args.seeds} seeds x {args.rounds} rounds "
        f"vectorised, {args.loop_seeds} seeds in the per-seed loop"
    )
    for name, (make_instance, make_policy) in CASES.items():
        instance = make_instance()
        env = CPEEnvironment(instance)
        seeds = np.arange(args.seeds)
        vec_time, vec_rec = timed(make_policy(instance), env, seeds, args.rounds)
        loop_time, loop_rec = 0.0, []
        for s in seeds[: args.loop_seeds]:
            elapsed, rec = timed(make_policy(instance), env, np.array([s]), args.rounds)
            loop_time += elapsed
            loop_rec.append(rec[0])
        same = loop_rec == vec_rec[: args.loop_seeds].tolist()
        vec_speed = args.seeds * args.rounds / vec_time
        loop_speed = args.loop_seeds * args.rounds / loop_time
        results[name] = {
            "vectorised_seed_rounds_per_s": round(vec_speed),
            "loop_seed_rounds_per_s": round(loop_speed),
            "speedup": round(vec_speed / loop_speed, 1),
            "identical": bool(same),
        }
        print(
            f"{name:26s} vectorised {vec_speed:10.0f} seed-rounds/s   per-seed loop {loop_speed:8.0f} "
            f"seed-rounds/s   speed-up {vec_speed / loop_speed:6.1f}x   identical results: {same}"
        )
    met = all(r["speedup"] >= TARGET and r["identical"] for r in results.values())
    print(
        json.dumps(
            {
                "benchmark": "cpe_speed",
                "seeds": args.seeds,
                "rounds": args.rounds,
                "target_speedup": TARGET,
                "met": met,
                "results": results,
            }
        )
    )


if __name__ == "__main__":
    main()
