"""The ``pomis`` command on a long chain X0 → X1 → ... → Y, as a user runs it (a subprocess), with its progress lines.

Usage: ``python benchmarks/pomis_chain.py [--nodes 5000]``.

A chain of n nodes has n POMIS... no: one POMIS ({X_{n-2}}'s border is the empty set: ∅ alone) and n MISs (∅ and
each variable alone); the work that grows with n is the diagram, the territory and, for the MISs, the pairs test
(one dominator tree, :func:`causal_bandits.causal.pomis._pairs`). Output: the wall time, the family sizes, and
each stderr progress line with the second it arrived, then one JSON line with ``seconds``, ``last_progress_s``
(the target: ``seconds`` <= 10 and progress to the end) and ``met``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from itertools import pairwise
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    args = parser.parse_args()
    nodes = [f"X{i}" for i in range(args.nodes - 1)] + ["Y"]
    graph = {"nodes": nodes, "directed": [[a, b] for a, b in pairwise(nodes)], "reward": "Y"}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "chain.json"
        path.write_text(json.dumps(graph))
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "causal_bandits", "pomis", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: list[tuple[float, str]] = []

        def follow() -> None:
            for line in proc.stderr:  # type: ignore[union-attr]
                lines.append((time.perf_counter() - start, line.rstrip()))

        reader = threading.Thread(target=follow)
        reader.start()
        out = proc.stdout.read()  # type: ignore[union-attr]
        proc.wait()
        reader.join()
        seconds = time.perf_counter() - start
    result = json.loads(out)
    print(f"chain of {args.nodes:,} nodes: {seconds:.2f} s, {len(result['pomis'])} POMIS(s), {len(result['mis'])} MISs")
    for at, line in lines:
        print(f"  {at:5.2f} s  {line}")
    last = lines[-1][0] if lines else 0.0
    met = proc.returncode == 0 and seconds <= 10 and (seconds < 1.5 or seconds - last < 1.5)
    print(
        json.dumps({"nodes": args.nodes, "seconds": round(seconds, 2), "last_progress_s": round(last, 2), "met": met})
    )


if __name__ == "__main__":
    main()
