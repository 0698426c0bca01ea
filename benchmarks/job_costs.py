"""What the jobs of a finished workflow run cost: start-up per run job, and CPU time per paper.

Reads a workflow directory after ``snakemake`` has run in it (quick or paper scale):

* every run job logs ``start-up: W s wall, C s CPU from process start to the first round``
  (:func:`causal_bandits.logs.since_process_start`); this prints their distribution per paper and
  algorithm. CPU is the robust figure on a busy machine; wall includes waiting for a core.
* Snakemake's benchmark files (``benchmarks/out/...tsv``, one per heavy job) hold each job's
  ``cpu_time`` (user + system of its process tree) and wall seconds; this sums them per paper.

Usage: ``python benchmarks/job_costs.py [--dir WORKFLOW_DIR] [--json]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

STARTUP = re.compile(r"start-up: ([0-9.na]+) s wall, ([0-9.]+) s CPU")
PAPERS = ("nonmanip", "bounds", "fairness", "cpe", "unknown_graph")


def startup(workdir: Path) -> dict[str, dict[str, float]]:
    """Per (paper, algorithm): number of run jobs, median and max start-up (wall and CPU seconds)."""
    found = defaultdict(list)
    for log in (workdir / "logs").rglob("*.log"):
        parts = log.relative_to(workdir / "logs").parts
        if len(parts) < 5 or parts[0] not in PAPERS:
            continue
        for line in log.read_text(errors="replace").splitlines():
            m = STARTUP.search(line)
            if m:
                found[f"{parts[0]}/{parts[3]}"].append((float(m.group(1)), float(m.group(2))))
    out = {}
    for key, values in sorted(found.items()):
        wall, cpu = zip(*values)
        out[key] = {
            "jobs": len(values),
            "wall_median": statistics.median(wall),
            "wall_max": max(wall),
            "cpu_median": statistics.median(cpu),
            "cpu_max": max(cpu),
        }
    return out


def cpu_per_paper(workdir: Path) -> dict[str, dict[str, float]]:
    """Sum of Snakemake's benchmark ``cpu_time`` and wall seconds per paper (run jobs and other heavy rules)."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"jobs": 0, "cpu_s": 0.0, "wall_s": 0.0})
    for tsv in (workdir / "benchmarks" / "out").rglob("*.tsv"):
        first = tsv.relative_to(workdir / "benchmarks" / "out").parts[0]
        paper = next((p for p in PAPERS if first == p or first.startswith(p + "_")), first)
        with tsv.open() as f:
            for row in csv.DictReader(f, delimiter="\t"):
                totals[paper]["jobs"] += 1
                totals[paper]["cpu_s"] += float(row["cpu_time"] or 0.0)
                totals[paper]["wall_s"] += float(row["s"])
    return dict(sorted(totals.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("."), help="workflow directory that has run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    result = {"startup": startup(args.dir), "cpu": cpu_per_paper(args.dir)}
    if not result["startup"] and not result["cpu"]:
        raise SystemExit(f"error: no run logs or benchmark files under {args.dir}; run the workflow there first")
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print("start-up of run jobs (process start to first round), seconds")
    print(f"{'paper/algorithm':<28}{'jobs':>6}{'CPU med':>9}{'CPU max':>9}{'wall med':>10}{'wall max':>10}")
    for key, r in result["startup"].items():
        print(
            f"{key:<28}{r['jobs']:>6}{r['cpu_median']:>9.2f}{r['cpu_max']:>9.2f}{r['wall_median']:>10.2f}"
            f"{r['wall_max']:>10.2f}"
        )
    print("\nSnakemake benchmark files, summed per paper")
    print(f"{'paper':<16}{'jobs':>6}{'CPU s':>10}{'CPU h':>8}{'wall s':>10}")
    for paper, r in result["cpu"].items():
        print(f"{paper:<16}{r['jobs']:>6}{r['cpu_s']:>10.1f}{r['cpu_s'] / 3600:>8.3f}{r['wall_s']:>10.1f}")


if __name__ == "__main__":
    main()
