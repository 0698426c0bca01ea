"""Speed of the `pomis` command's computations (POMIS, then MIS) on random and adversarial diagrams.

Usage: ``python benchmarks/pomis_speed.py [--per-size 10] [--sizes 10 20 30 40 50 60] [--seed 0]``.

Random diagrams: n nodes in a random order, every forward pair a directed edge with probability d/n,
d drawn from {1, 2, 4, 8} (mean degree 2d: from sparse to dense), n/4 random bidirected edges; the
reward is a random node among the last quarter of the order (so its ancestor set ranges from a few
nodes to most of the graph); N is empty.
Adversarial diagrams: k parallel causes of Y each confounded with Y (X_i → Y, X_i ↔ Y: 2^k POMISs and
2^k MISs) for k = 4..30, and dense DAGs of 40 and 60 nodes (each forward pair a directed edge with
probability 0.2 to 0.9, n/2 bidirected edges, the reward last).
For each diagram it times what the command runs with its default limit (``SET_LIMIT``): ``pomis``,
then ``minimal_intervention_sets``, each stopping with "too many" above the limit.

Output: one line per random size (median / max seconds, family sizes), one line per adversarial
diagram (seconds, POMIS and MIS family sizes or "> limit"), then one JSON line with ``max_seconds``
(the target: < 2 s for every diagram of up to 60 nodes, result or "too many") and ``met``.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations

import numpy as np

from causal_bandits.causal.pomis import SET_LIMIT, TooManySets, minimal_intervention_sets, pomis
from causal_bandits.scm.diagram import CausalDiagram


def random_diagram(n: int, rng: np.random.Generator) -> tuple[CausalDiagram, str]:
    names = [f"V{i:02d}" for i in rng.permutation(n)]
    pairs = list(combinations(names, 2))
    density = rng.choice([1.0, 2.0, 4.0, 8.0]) / n
    directed = [p for p in pairs if rng.random() < density]
    bidirected = [pairs[i] for i in rng.choice(len(pairs), size=n // 4, replace=False)]
    return CausalDiagram(names, directed, bidirected), names[int(rng.integers(3 * n // 4, n))]


def confounded_causes(k: int) -> tuple[CausalDiagram, str]:
    """X_1..X_k → Y, each X_i ↔ Y: every subset of the X_i is a POMIS."""
    xs = [f"X{i:02d}" for i in range(k)]
    return CausalDiagram([*xs, "Y"], [(x, "Y") for x in xs], [(x, "Y") for x in xs]), "Y"


def dense_dag(n: int, p: float, rng: np.random.Generator) -> tuple[CausalDiagram, str]:
    names = [f"V{i:02d}" for i in range(n)]
    pairs = list(combinations(names, 2))
    directed = [q for q in pairs if rng.random() < p]
    bidirected = [pairs[i] for i in rng.choice(len(pairs), size=n // 2, replace=False)]
    return CausalDiagram(names, directed, bidirected), names[-1]


def command(G: CausalDiagram, Y: str) -> tuple[float, str, str]:
    """Seconds and (POMIS, MIS) family sizes of what ``pomis GRAPH.json`` computes."""
    start = time.perf_counter()
    sizes = []
    for family in (pomis, minimal_intervention_sets):
        try:
            sizes.append(f"{len(family(G, Y, limit=SET_LIMIT)):,}")
        except TooManySets:
            sizes.append(f"> {SET_LIMIT:,}")
            break  # the command stops at the first family over the limit
    return time.perf_counter() - start, *[*sizes, "-"][:2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=10)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30, 40, 50, 60])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    pomis(*confounded_causes(2))  # first call pays one-off imports
    worst = 0.0
    for n in args.sizes:
        times, families = [], []
        for _ in range(args.per_size):
            seconds, n_pomis, n_mis = command(*random_diagram(n, rng))
            times.append(seconds)
            families.append(f"{n_pomis}/{n_mis}")
        worst = max(worst, *times)
        print(
            f"random n={n:3d}: median {np.median(times):.3f} s, max {max(times):.3f} s; POMIS/MIS family "
            f"sizes {', '.join(families)}"
        )
    adversarial = [(f"{k} confounded causes", confounded_causes(k)) for k in (4, 8, 12, 13, 14, 16, 20, 30)]
    adversarial += [(f"dense n={n} p={p}", dense_dag(n, p, rng)) for n in (40, 60) for p in (0.2, 0.5, 0.9)]
    for name, (G, Y) in adversarial:
        seconds, n_pomis, n_mis = command(G, Y)
        worst = max(worst, seconds)
        print(
            f"{name:24s} ({len(G.nodes)} nodes, {len(G.directed)} directed, {len(G.bidirected)} bidirected): "
            f"{seconds:.3f} s; POMISs {n_pomis}, MISs {n_mis}"
        )
    result = {
        "max_seconds": round(worst, 3),
        "limit": SET_LIMIT,
        "target": "< 2 s for any diagram of <= 60 nodes (result or too many)",
    }
    result["met"] = worst < 2.0
    print(json.dumps(result))


if __name__ == "__main__":
    main()
