"""Speed of the `pomis` command's computations (MIS and POMIS) on random diagrams of 10-40 nodes.

Usage: ``python benchmarks/pomis_speed.py [--per-size 10] [--sizes 10 20 30 40] [--seed 0]``.

Each diagram: n nodes in a random order, every forward pair a directed edge with probability d/n,
d drawn from {1, 2, 4, 8} (mean degree 2d: from sparse to dense), n/4 random bidirected edges; the
reward is a random node among the last quarter of the order (so its ancestor set ranges from a few
nodes to most of the graph); N is empty.
For each diagram it times ``minimal_intervention_sets(..., limit=10_000)`` (what the command runs)
and ``pomis``; a diagram whose MIS family exceeds the limit is timed until the command would stop.

Output: one line per diagram size (median / max seconds, family sizes), then one JSON line with
``max_seconds_within_limit`` (the target: < 1 s for every diagram of up to 40 nodes whose MIS family
has at most 10,000 sets), ``max_seconds_over_limit`` and ``met``.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations

import numpy as np

from causal_bandits.causal.pomis import MIS_LIMIT, TooManySets, minimal_intervention_sets, pomis
from causal_bandits.scm.diagram import CausalDiagram


def random_diagram(n: int, rng: np.random.Generator) -> tuple[CausalDiagram, str]:
    names = [f"V{i:02d}" for i in rng.permutation(n)]
    pairs = list(combinations(names, 2))
    density = rng.choice([1.0, 2.0, 4.0, 8.0]) / n
    directed = [p for p in pairs if rng.random() < density]
    bidirected = [pairs[i] for i in rng.choice(len(pairs), size=n // 4, replace=False)]
    return CausalDiagram(names, directed, bidirected), names[int(rng.integers(3 * n // 4, n))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=25)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30, 40])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    within, over = [], []
    for n in args.sizes:
        times, sizes, n_over = [], [], 0
        for _ in range(args.per_size):
            G, Y = random_diagram(n, rng)
            start = time.perf_counter()
            try:
                sizes.append(len(minimal_intervention_sets(G, Y, limit=MIS_LIMIT)))
                big = False
            except TooManySets:
                big, n_over = True, n_over + 1
            pomis(G, Y)
            elapsed = time.perf_counter() - start
            (over if big else within).append(elapsed)
            times.append(elapsed)
        print(f"n={n:3d}: median {np.median(times):.4f} s, max {max(times):.4f} s; MIS family sizes "
              f"{min(sizes, default=0)}-{max(sizes, default=0)}; {n_over} over the limit")
    result = {
        "max_seconds_within_limit": max(within, default=0.0),
        "max_seconds_over_limit": max(over, default=0.0),
        "n_diagrams": len(within) + len(over),
        "target": "< 1 s for any diagram of <= 40 nodes with <= 10,000 MISs",
    }
    result["met"] = result["max_seconds_within_limit"] < 1.0
    print(json.dumps(result))


if __name__ == "__main__":
    main()
