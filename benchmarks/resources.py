"""Per-rule memory and time requests from an archived run's measured jobs, as the SLURM profile states them.

Reads an archive manifest (``archive/paper-scale/manifest.json``: each job's exact CPU, wall time and peak resident
memory) and prints, per rule, its jobs, the smallest and largest peak, the largest CPU and wall time, and the
requests: ``mem_mb`` = the largest peak times ``causal_bandits.runs.MEMORY_MARGIN`` (the one margin, 15 %), rounded up;
``runtime`` (minutes, SLURM) = twice the largest wall time, at least 10 minutes (the run shared two cores with other
work; a cluster core is not slower). A run rule's memory is its jobs' own request (``RunJob.memory_mb``, each run
module's measured peak with the margin, scaled by the seeds where the state grows with them), one place for that fact:
its line states the runtime only, and the table gives its jobs' own requests over their peaks (``request/peak``,
smallest and largest). ``--check PROFILE`` compares the profile's ``set-resources`` with these lines, and holds every
run job's own request within 1.0-1.5 times its peak (``RUN_JOB_BOUNDS``); it exits non-zero naming each difference.
Without it the lines are printed, ready to paste. Peaks move by a few per cent from run to run of the same code, so
check a remade run's manifest before landing it (``--archive``; the requests are fitted in the run modules, which the
archive's code record holds: docs/performance.md#memory-requests).

    python benchmarks/resources.py --check workflow/profiles/slurm/config.yaml
    python benchmarks/resources.py --check workflow/profiles/slurm/config.yaml --archive ../remake/manifest.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import yaml

from causal_bandits import config as cb_config
from causal_bandits.papers import paper
from causal_bandits.runs import MEMORY_MARGIN

#: Rules whose jobs size their own memory request (RunJob.memory_mb): the profile states their runtime only.
RUN_RULES = {"bounds_run", "cpe_run", "fairness_run", "nonmanip_run", "nonmanip_run_pomisplus", "unknown_graph_run"}
MIN_RUNTIME = 10
#: What a run job's own request may be over its measured peak: at least the peak (a cluster kills a job over its
#: request), at most half again (MEMORY_MARGIN over a fitted figure leaves room for the jobs a figure covers).
RUN_JOB_BOUNDS = (1.0, 1.5)


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


def run_job_ratios(manifest: dict, config: dict) -> dict[str, list[float]]:
    """Run rule -> each of its jobs' own memory request (``RunJob.memory_mb``, from its paper's run module on
    ``config``) over the job's peak in ``manifest``."""
    ratios = defaultdict(list)
    for job in manifest["jobs"]:
        if job["rule"] in RUN_RULES:
            module = importlib.import_module(paper(job["rule"].split("_run")[0]).runs)
            ratios[job["rule"]].append(module.describe(config, job["wildcards"]).memory_mb / job["max_rss_mb"])
    return dict(ratios)


def stated(value: str | int) -> int:
    """A profile's ``"400 * attempt"`` as 400 (the first attempt's request)."""
    return int(str(value).split("*")[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=Path("archive/paper-scale/manifest.json"))
    parser.add_argument("--check", type=Path, help="a profile whose set-resources must state these requests")
    parser.add_argument("--configfile", type=Path, default=Path("config/config.yaml"), help="the run's config")
    args = parser.parse_args()
    manifest = json.loads(args.archive.read_text())
    wanted = requests(manifest)
    ratios = run_job_ratios(manifest, cb_config.validate(cb_config.load(args.configfile)))
    peaks = defaultdict(list)
    for job in manifest["jobs"]:
        peaks[job["rule"]].append(job["max_rss_mb"])
    print(f"{'rule':34s} {'jobs':>5s} {'peak MB':>15s} {'mem_mb':>7s} {'runtime':>8s}  request/peak")
    for rule, want in wanted.items():
        low, high = min(peaks[rule]), max(peaks[rule])
        mem = want.get("mem_mb", "job")
        over = f"  {min(ratios[rule]):.2f}-{max(ratios[rule]):.2f}" if rule in ratios else ""
        print(f"{rule:34s} {len(peaks[rule]):5d} {low:7.0f}-{high:<7.0f} {mem!s:>7s} {want['runtime']:7d}m{over}")
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
    low, high = RUN_JOB_BOUNDS
    outside = [
        f"{rule}: its jobs ask for {min(over):.2f}-{max(over):.2f} times their peaks, not {low}-{high}: refit the "
        "peaks in its run module (docs/performance.md#memory-requests)"
        for rule, over in ratios.items()
        if min(over) < low or max(over) > high
    ]
    for line in differ + outside:
        print(f"differs: {line}")
    print(f"{len(wanted) - len(differ)} of {len(wanted)} rules as measured in {args.check}")
    print(f"{len(ratios) - len(outside)} of {len(ratios)} run rules ask for {low}-{high} times their jobs' peaks")
    sys.exit(1 if differ or outside else 0)


if __name__ == "__main__":
    main()
