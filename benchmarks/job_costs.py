"""What the jobs of a finished workflow run cost: start-up per run job, and CPU time per paper.

Reads a workflow directory after ``snakemake`` has run in it (quick or paper scale):

* every run job logs ``start-up: W s wall, C s CPU from process start to the first round``
  (:func:`causal_bandits.logs.since_process_start`); this prints their distribution per paper and
  algorithm. CPU is the robust figure on a busy machine; wall includes waiting for a core.
* Snakemake's benchmark files (``benchmarks/out/...tsv``, one per heavy job) hold each job's wall seconds, and
  its CPU and peak memory as Snakemake samples them; the resources line that ends the job's log has them exact
  (``cpu_s``, user + system with its waited-for children, and ``max_rss_mb``), read in their place where present. This
  sums them per paper and gives the largest peak. ``benchmarks/wall_time.py`` reads the same
  files (per job, and the peak per rule).

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

from causal_bandits.logs import read_resources

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


def benchmark_rows(workdir: Path) -> list[tuple[str, dict[str, float]]]:
    """Every benchmark file's rows as (path under ``benchmarks/out`` without ``.tsv``, {cpu_s, wall_s, max_rss}): the
    CPU and peak memory exact from the resources line that ends the job's log (``logs/<same path>.log``,
    :func:`causal_bandits.logs.read_resources`, as the archive reads them) where it has one; else the benchmark file's,
    which Snakemake samples (every 0.5 s, after 15 s every 30 s: a 40 CPU-s job can show 15)."""
    rows = []
    for tsv in sorted((workdir / "benchmarks" / "out").rglob("*.tsv")):
        key = tsv.relative_to(workdir / "benchmarks" / "out").with_suffix("").as_posix()
        exact = read_resources(workdir / "logs" / f"{key}.log")
        with tsv.open() as f:
            for row in csv.DictReader(f, delimiter="\t"):
                rss = row.get("max_rss", "-")
                sampled = (float(row["cpu_time"] or 0.0), float(rss) if rss not in ("", "-", "NA") else 0.0)
                cpu, peak = exact or sampled
                rows.append((key, {"cpu_s": cpu, "wall_s": float(row["s"]), "max_rss": peak}))
    return rows


def paper_of(key: str) -> str:
    """The paper a benchmark file belongs to, from its first directory (``cpe``, ``unknown_graph_discovery``)."""
    first = key.split("/")[0]
    return next((p for p in PAPERS if first == p or first.startswith(p + "_")), first)


def cpu_per_paper(workdir: Path) -> dict[str, dict[str, float]]:
    """Sum of Snakemake's benchmark ``cpu_time`` and wall seconds per paper (run jobs and other heavy
    rules), and the largest ``max_rss`` (MB, peak resident memory of one job)."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"jobs": 0, "cpu_s": 0.0, "wall_s": 0.0, "max_rss": 0.0})
    for key, row in benchmark_rows(workdir):
        total = totals[paper_of(key)]
        total["jobs"] += 1
        total["cpu_s"] += row["cpu_s"]
        total["wall_s"] += row["wall_s"]
        total["max_rss"] = max(total["max_rss"], row["max_rss"])
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
    print("\nbenchmarked jobs (CPU and peak exact from their logs where they have the line), summed per paper")
    print(f"{'paper':<16}{'jobs':>6}{'CPU s':>10}{'CPU h':>8}{'wall s':>10}{'peak MB':>9}")
    for paper, r in result["cpu"].items():
        print(
            f"{paper:<16}{r['jobs']:>6}{r['cpu_s']:>10.1f}{r['cpu_s'] / 3600:>8.3f}{r['wall_s']:>10.1f}"
            f"{r['max_rss']:>9.0f}"
        )


if __name__ == "__main__":
    main()
