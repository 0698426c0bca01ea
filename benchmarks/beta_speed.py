"""Cost of one round of Beta variates (``BetaShapes.sample``) by table size, against the package at a git ref.

Usage: ``python benchmarks/beta_speed.py [--tables 100x2 100x8 1000x4 1000x16 1000x81 200x243] [--rounds 50]
[--repeat 3] [--before REF]``.

Each table is seeds x arms of Thompson-like posteriors: every seed's 2,000 pulls spread over its arms by a
multinomial, half of them wins by a binomial (``numpy.random.default_rng(0)``), shapes wins + 1 and losses + 1. A
round is one ``sample`` from per-seed streams (:class:`causal_bandits.rng.SeedStreams`); the script prints the CPU
microseconds a round (best of ``--repeat`` runs of ``--rounds`` rounds, after an untimed round that loads the
compiled kernel and fills the streams), per cell, and with ``--before`` the ref's figures, the speed-up and whether
the two sides drew the same bytes (a digest of every variate). Each side runs in a fresh process pinned as the
workflow pins a job (:func:`before_after.run_json`), so the comparison is of the bits the workflow would draw. The
last line is one JSON object with every number (docs/performance.md#beta-compiled).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from functools import partial

from before_after import both_sides, export_src, run_json

PULLS = 2000
TABLES = ["100x2", "100x8", "1000x4", "1000x16", "1000x81", "200x243"]


def measure(table: str, rounds: int, repeat: int) -> dict:
    """One side: the CPU of ``rounds`` rounds on ``table``, best of ``repeat``, and the variates' digest."""
    import numpy as np

    from causal_bandits.bandits.beta import BetaShapes
    from causal_bandits.rng import SeedStreams

    n, k = (int(x) for x in table.split("x"))
    rng = np.random.default_rng(0)
    pulls = rng.multinomial(PULLS, np.full(k, 1.0 / k), size=n)
    wins = rng.binomial(pulls, 0.5)
    shapes = BetaShapes(wins + 1.0, pulls - wins + 1.0)
    digest, best = hashlib.sha256(), float("inf")
    for attempt in range(repeat):
        draws = SeedStreams("benchmark", f"beta-{table}-{attempt}", range(n), "draws")
        retries = SeedStreams("benchmark", f"beta-{table}-{attempt}", range(n), "retries")
        digest.update(shapes.sample(draws, retries).tobytes())  # untimed: the kernel's first call, the streams' fill
        start = time.process_time()
        for _ in range(rounds):
            digest.update(shapes.sample(draws, retries).tobytes())
        best = min(best, (time.process_time() - start) / rounds)
    return {"table": table, "cells": n * k, "us_per_round": best * 1e6, "digest": digest.hexdigest()[:16]}


def measure_in(src: str, table: str, args) -> dict:
    argv = [__file__, "--one", table, "--rounds", str(args.rounds), "--repeat", str(args.repeat)]
    return run_json(src, argv)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", nargs="+", default=TABLES, help="seeds x arms, e.g. 100x2")
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", metavar="REF", help="also measure the package at this git ref (e.g. main)")
    ap.add_argument("--one", metavar="TABLE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.rounds, args.repeat)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        before_src = export_src(args.before, tmp) if args.before else None
        print(
            f"{'table':>8} {'us/round':>9} {'ns/cell':>8}"
            + (f" {'before us':>9} {'ns/cell':>8} {'speed-up':>8} {'same bytes':>10}" if before_src else "")
        )
        rows = []
        for i, table in enumerate(args.tables):
            now, before = both_sides(i, partial(measure_in, table=table, args=args), before_src)
            line = f"{table:>8} {now['us_per_round']:>9.0f} {now['us_per_round'] / now['cells'] * 1e3:>8.1f}"
            if before:
                now["before"] = before
                now["speedup"] = before["us_per_round"] / now["us_per_round"]
                line += (
                    f" {before['us_per_round']:>9.0f} {before['us_per_round'] / before['cells'] * 1e3:>8.1f}"
                    f" {now['speedup']:>7.2f}x {'yes' if before['digest'] == now['digest'] else 'NO':>10}"
                )
            print(line, flush=True)
            rows.append(now)
        print(json.dumps({"rows": rows, "before_ref": args.before}))


if __name__ == "__main__":
    main()
