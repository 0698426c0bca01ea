"""How long ``snakemake -n`` takes to plan the workflow, and what the planning of one job costs.

Usage: ``python benchmarks/planning.py [--config FILE ...] [--repeats 1]`` from the repository root.

For each configuration (default: the paper scale ``config/config.yaml`` and ``config/quick.yaml``) it
times ``snakemake -n --forceall --quiet rules`` (the DAG of every job, nothing run) and, as the fixed
cost, the same command for one small target of two jobs (importing Snakemake, parsing the Snakefile, validating the
config, two jobs). It prints the jobs planned, wall and CPU seconds (user + system of the Snakemake
process, the figure that does not depend on the machine's load), and the CPU per planned job beyond the
fixed cost: the slope that decides how many jobs fit a planning budget (printed for 5 s). Then, from one more
(untimed) dry run that lists every job, the input files per job: all of them, and those under ``src/`` (the library's
own files, which no rule needs as inputs: its code is tracked by a digest, ``causal_bandits.sources``).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOTAL = re.compile(r"^total\s+(\d+)\s*$", re.MULTILINE)
#: A job's input line in Snakemake's job listing (``--quiet host``): its files, comma-separated (indented once more
#: for a job of a group, inside its group job's block).
INPUT = re.compile(r"^ +input: (.*)$", re.MULTILINE)
#: A small target whatever the config (bounds' data and exact stage, two jobs): the fixed cost of a plan.
SMALL_TARGET = "results/bounds/exact.json"


def dry_run(configs: list[str], targets: list[str], quiet: str = "rules") -> subprocess.CompletedProcess[str]:
    """One ``snakemake -n --forceall`` of ``targets`` (all when empty) with ``configs``; its console as ``--quiet``
    leaves it (``rules``: the job counts; ``host``: every job with its inputs)."""
    command = [sys.executable, "-m", "snakemake", "-n", "--forceall", "--quiet", quiet, "--cores", "1"]
    command += ["--configfile", *configs] if configs else []
    done = subprocess.run([*command, "--", *targets], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"snakemake -n failed for {configs or 'config/config.yaml'}: {done.stderr.strip()[-500:]}")
    return done


def plan(configs: list[str], targets: list[str]) -> tuple[int, float, float]:
    """(jobs, wall s, CPU s) of one dry run of ``targets`` (all when empty) with ``configs``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = dry_run(configs, targets)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = TOTAL.search(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (int(found.group(1)) if found else 0), wall, cpu


def inputs_per_job(configs: list[str]) -> tuple[float, float]:
    """(input files, of which under ``src/``) per job of the whole DAG, from the dry run's job listing."""
    listing = dry_run(configs, [], quiet="host").stdout
    jobs = [line.split(", ") for line in INPUT.findall(listing)]
    found = TOTAL.search(listing)
    n = max(int(found.group(1)) if found else len(jobs), 1)
    return sum(map(len, jobs)) / n, sum(f.startswith("src/") for files in jobs for f in files) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", nargs="+", action="append", help="config files of one plan (repeatable)")
    parser.add_argument("--repeats", type=int, default=1, help="plans per config; the fastest counts")
    parser.add_argument("--budget", type=float, default=5.0, help="planning budget (CPU s) to size the DAG for")
    args = parser.parse_args()
    plans = args.config or [["config/config.yaml"], ["config/quick.yaml"]]
    print(
        f"{'config':<45} {'jobs':>6} {'wall s':>8} {'CPU s':>7} {'fixed CPU s':>11} {'ms/job':>7} {'in budget':>9} "
        f"{'inputs/job':>10} {'src/job':>7}"
    )
    for configs in plans:
        full = min((plan(configs, []) for _ in range(args.repeats)), key=lambda r: r[2])
        fixed = min((plan(configs, [SMALL_TARGET]) for _ in range(args.repeats)), key=lambda r: r[2])
        per_job = (full[2] - fixed[2]) / max(full[0] - fixed[0], 1)
        fits = int((args.budget - fixed[2]) / per_job) if per_job > 0 and args.budget > fixed[2] else 0
        name = " + ".join(configs)
        inputs, code = inputs_per_job(configs)
        print(
            f"{name:<45} {full[0]:>6} {full[1]:>8.1f} {full[2]:>7.1f} {fixed[2]:>11.1f} "
            f"{1000 * per_job:>7.1f} {fits:>9} {inputs:>10.1f} {code:>7.1f}"
        )
    print(f"in budget: the jobs a plan of {args.budget:g} CPU s could hold at the measured fixed cost and slope")
    print("inputs/job: input files per planned job; src/job: of them, library files (src/) declared as inputs")


if __name__ == "__main__":
    main()
