"""Per-rule memory and time requests from an archived run's measured jobs, as the SLURM profile states them.

Reads an archive manifest (``archive/paper-scale/manifest.json``: each job's exact CPU, wall time and peak resident
memory) and prints, per rule, its jobs, the smallest and largest peak, the largest CPU and wall time, and the
requests: ``mem_mb`` = the largest peak times ``causal_bandits.runs.MEMORY_MARGIN`` (the one margin, 15 %), rounded up;
``runtime`` (minutes, SLURM) = twice the largest wall time, at least 10 minutes (the run shared two cores with other
work; a cluster core is not slower). A run rule's memory is its jobs' own request (``RunJob.memory_mb``, each run
module's measured peak with the margin, scaled by the seeds where the state grows with them), one place for that fact:
its line states the runtime only. ``--check PROFILE`` compares the profile's
``set-resources`` with these lines and exits non-zero naming each difference; without it the lines are printed, ready
to paste.

    python benchmarks/resources.py --check workflow/profiles/slurm/config.yaml
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import yaml

from causal_bandits.runs import MEMORY_MARGIN

#: Rules whose jobs size their own memory request (RunJob.memory_mb): the profile states their runtime only.
RUN_RULES = {"bounds_run", "cpe_run", "fairness_run", "nonmanip_run", "nonmanip_run_pomisplus", "unknown_graph_run"}
MIN_RUNTIME = 10


def requests(manifest: dict) -> dict[str, dict[str, int]]:
    """Rule -> {"mem_mb": ..., "runtime": ...} (run rules: runtime only)."""
    jobs = defaultdict(list)
    for job in manifest["jobs"]:
        jobs[job["rule"]].append(job)
    out = {}
    for rule, js in sorted(jobs.items()):
        runtime = max(MIN_RUNTIME, math.ceil(2 * max(j["wall_s"] for j in js) / 60))
        out[rule] = {"runtime": runtime}
        if rule not in RUN_RULES:
            out[rule]["mem_mb"] = math.ceil(MEMORY_MARGIN * max(j["max_rss_mb"] for j in js))
    return out


def stated(value: str | int) -> int:
    """A profile's ``"400 * attempt"`` as 400 (the first attempt's request)."""
    return int(str(value).split("*")[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=Path("archive/paper-scale/manifest.json"))
    parser.add_argument("--check", type=Path, help="a profile whose set-resources must state these requests")
    args = parser.parse_args()
    manifest = json.loads(args.archive.read_text())
    wanted = requests(manifest)
    peaks = defaultdict(list)
    for job in manifest["jobs"]:
        peaks[job["rule"]].append(job["max_rss_mb"])
    print(f"{'rule':34s} {'jobs':>5s} {'peak MB':>15s} {'mem_mb':>7s} {'runtime':>8s}")
    for rule, want in wanted.items():
        low, high = min(peaks[rule]), max(peaks[rule])
        mem = want.get("mem_mb", "job")
        print(f"{rule:34s} {len(peaks[rule]):5d} {low:7.0f}-{high:<7.0f} {mem!s:>7s} {want['runtime']:7d}m")
    if args.check is None:
        for rule, want in wanted.items():
            items = ", ".join(f'{k}: "{v} * attempt"' for k, v in sorted(want.items()))
            print(f"  {rule}: {{{items}}}")
        return
    profile = yaml.safe_load(args.check.read_text()).get("set-resources", {})
    differ = []
    for rule, want in wanted.items():
        have = {k: stated(v) for k, v in profile.get(rule, {}).items() if k in ("mem_mb", "runtime")}
        if have != want:
            differ.append(f"{rule}: profile {have}, measured {want}")
    for line in differ:
        print(f"differs: {line}")
    print(f"{len(wanted) - len(differ)} of {len(wanted)} rules as measured in {args.check}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
