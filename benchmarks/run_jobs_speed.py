"""CPU of paper-scale run jobs now and at a git ref, and whether they write the same bytes.

Each job is one run job of a paper (its run module's ``describe`` on ``config/config.yaml`` and the job's wildcards,
then :func:`causal_bandits.runs.execute`, as rule ``<paper>_run`` runs it), in a fresh process that imports the
package from the working tree or from the ref's ``src`` (``--before REF``, exported with ``git archive``); the two
sides run back to back, in an order that alternates from job to job (``before_after.py``). The CPU is the process's
whole CPU time (imports, reading the instance, the simulation, writing the files: ``getrusage`` at the end), the
best of ``--repeat`` (default 2: the first run of a freshly exported ref compiles numba's kernels into its empty
cache, which made a Fig. 5c POMIS+ job read 1.32x instead of 1.19x with one run a side), with its peak resident memory
(``ru_maxrss``); ``same`` compares the sha256 of the trace and summary files the two sides wrote. A job's inputs (the
instance documents) must exist: ``snakemake <input> --configfile config/config.yaml`` makes them.

``--horizon N`` caps every cpe job's sample cap (a stopping run is then censored at N: the same work on both sides,
in less time; the parallel bandit keeps its budget) and every unknown_graph and nonmanip job's rounds T. The last line
printed is one JSON object with the rows.

    python benchmarks/run_jobs_speed.py --before main --horizon 30000
    python benchmarks/run_jobs_speed.py --jobs cpe:E4-k6/practical/ccpe_general --before main
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib
import json
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from before_after import HERE, both_sides, export_src, run_json

#: paper:experiment/strategy/algorithm (chunk 0) and the job's inputs: the cpe jobs that cost most in the archived run
#: (ccpe_general on E4 and E3, and on E5, E2 and E0 (with the interval-coverage recorder) beside them, the naive
#: ablation on E3, both CCPE algorithms on E4's largest instance (k = 7, 2,187 arms), se and lucb on the
#: parallel graphs and E2's (the largest shares of their CPU; both play windows), the parallel bandit, served in blocks,
#: at its largest budget and on E2 r16's 17-parent reward too)
#: and unknown_graph's largest cells (trees of height 9: 1,023 nodes, 2,047 arms; the largest forest and general
#: graph) with each algorithm kind, and a small cell whose UCB1 rounds cost little beside the loop's own; POMIS+
#: (both z² solvers on Fig. 5c's panel, z²-TS on Fig. 5b's: 200 seeds, rule ``nonmanip_run_pomisplus``); then two V6
#: discovery jobs of height 9 (rule ``unknown_graph_discovery``: regime-height-setting, its row as JSON for the bytes);
#: last, the two smallest run jobs of the archived run, whose CPU is mostly start-up (imports, numba's set-up).
JOBS = {
    "cpe:E4-k6/practical/ccpe_general": {"instance": "results/cpe/instances/E4/k6.json"},
    "cpe:E4-k7/practical/ccpe_general": {"instance": "results/cpe/instances/E4/k7.json"},
    "cpe:E4-k7/practical/ccpe_bglm": {"instance": "results/cpe/instances/E4/k7.json"},
    "cpe:E3-rho0.8/practical/ccpe_general": {"instance": "results/cpe/instances/E3/rho0.8.json"},
    "cpe:E3-rho0.8/practical/naive": {"instance": "results/cpe/instances/E3/rho0.8.json"},
    "cpe:E5-n32p0.5/practical/ccpe_general": {"instance": "results/cpe/instances/E5/n32p0.5.json"},
    "cpe:E0-E3rho0.8/practical/ccpe_general": {"instance": "results/cpe/instances/E0/E3rho0.8.json"},
    "cpe:E4-k6/T32000/pb": {"instance": "results/cpe/instances/E4/k6.json"},
    "cpe:E1-n64/T256000/pb": {"instance": "results/cpe/instances/E1/n64.json"},
    "cpe:E2-r16/T256000/pb": {"instance": "results/cpe/instances/E2/r16.json"},
    "cpe:E2-r16/practical/ccpe_general": {"instance": "results/cpe/instances/E2/r16.json"},
    "cpe:E1-n64/practical/se": {"instance": "results/cpe/instances/E1/n64.json"},
    "cpe:E2-d0.8/practical/se": {"instance": "results/cpe/instances/E2/d0.8.json"},
    "cpe:E2-r16/practical/lucb": {"instance": "results/cpe/instances/E2/r16.json"},
    "cpe:E5-n32p0.5/practical/lucb": {"instance": "results/cpe/instances/E5/n32p0.5.json"},
    "unknown_graph:V2-treeB-h9/default/ucb": {},
    "unknown_graph:V2-treeB-h9/default/cn_ucb": {},
    "unknown_graph:V2-treeA-h9/default/oracle": {},
    "unknown_graph:V4-path_power-n128-k3/default/cn_ucb_literal": {},
    "unknown_graph:V3-forest-C8/default/ucb": {},
    "unknown_graph:V2-treeA-h5/default/oracle": {},
    "nonmanip:fig5c/POMISplus/ts": {
        "instance": "results/nonmanip/instances/fig5c.json",
        "catalogue": "results/nonmanip/catalogue/fig5c.json",
    },
    "nonmanip:fig5c/POMISplus/kl_ucb": {
        "instance": "results/nonmanip/instances/fig5c.json",
        "catalogue": "results/nonmanip/catalogue/fig5c.json",
    },
    "nonmanip:fig5b/POMISplus/ts": {
        "instance": "results/nonmanip/instances/fig5b.json",
        "catalogue": "results/nonmanip/catalogue/fig5b.json",
    },
    "unknown_graph_discovery:A-h9-d0.01-c0.1": {},
    "unknown_graph_discovery:B-h9-d0.1-c1.0": {},
    "cpe:E1-n4/T2000/pb": {"instance": "results/cpe/instances/E1/n4.json"},
    "unknown_graph:V3-forest-C2/default/cn_ucb": {},
}


def one(name: str, horizon: int | None, out: str) -> dict:
    """Run job ``name`` in this process; its CPU since the process started and the sha256 of its two files."""
    from causal_bandits import config, runs

    paper, rest = name.split(":", 1)
    if paper == "unknown_graph_discovery":
        return one_discovery(rest, out)
    experiment, strategy, algorithm = rest.split("/")
    module = importlib.import_module(f"causal_bandits.papers.{paper}.runs")
    wildcards = {"experiment": experiment, "strategy": strategy, "algorithm": algorithm, "chunk": "0"}
    job = module.describe(config.validate(config.load("config/config.yaml")), wildcards)
    if horizon and paper == "unknown_graph":  # the rounds T of a V1-V4 run
        section = {**job.science["section"], "horizon": min(int(job.science["section"]["horizon"]), horizon)}
        job = dataclasses.replace(job, science={**job.science, "section": section})
    elif horizon:  # the sample cap of a cpe job (a budget job keeps its budget), the rounds T of a nonmanip one
        job = dataclasses.replace(job, science={**job.science, "horizon": min(int(job.science["horizon"]), horizon)})
    trace, summary = f"{out}/trace.parquet", f"{out}/summary.parquet"
    runs.execute(job, JOBS[name], trace, summary)
    return measured([trace, summary])


def one_discovery(name: str, out: str) -> dict:
    """One V6 job, ``regime-hH-setting``, as rule ``unknown_graph_discovery`` runs it (its row as JSON: the bytes)."""
    from causal_bandits import config
    from causal_bandits.papers.unknown_graph.cells import discovery_setting
    from causal_bandits.papers.unknown_graph.discovery_checks import sampled_discovery

    regime, height, setting = name.split("-", 2)
    section = config.validate(config.load("config/config.yaml"))["unknown_graph"]["discovery"]
    row = sampled_discovery(regime, int(height[1:]), *discovery_setting(section, setting), section["n_seeds"])
    Path(f"{out}/row.json").write_text(json.dumps(row, sort_keys=True))
    return measured([f"{out}/row.json"])


def measured(files: list[str]) -> dict:
    """This process's CPU and peak memory so far, and the sha256 of the files it wrote."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    digest = hashlib.sha256(b"".join(Path(f).read_bytes() for f in files)).hexdigest()
    return {"cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024, "sha256": digest}


def measure(src: str, name: str, horizon: int | None, repeat: int) -> dict:
    best: dict = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            argv = [__file__, "--one", name, "--out", out] + (["--horizon", str(horizon)] if horizon else [])
            got = run_json(src, argv)
        if not best or got["cpu_s"] < best["cpu_s"]:
            best = got
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", nargs="+", default=list(JOBS), choices=list(JOBS), help="which jobs")
    parser.add_argument("--before", help="git ref to compare with")
    parser.add_argument("--horizon", type=int, help="cap every job's horizon (rounds)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="best of this many runs per side (at least 2 to leave out the first run of a side whose numba cache is "
        "empty, as an exported ref's always is: that run compiles its kernels)",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.horizon, args.out)))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        before_src = export_src(args.before, tmp) if args.before else None
        head = f"{'CPU s now':>10s} {'before':>8s} {'speed-up':>8s} {'MB now':>7s} {'before':>7s}"
        print(f"{'job':40s} {head}  same bytes", flush=True)
        for i, name in enumerate(args.jobs):
            now, before = both_sides(i, lambda src, n=name: measure(src, n, args.horizon, args.repeat), before_src)
            row = {"job": name, "cpu_s": now["cpu_s"], "peak_mb": now["peak_mb"], "sha256": now["sha256"]}
            if before is not None:
                row |= {
                    "before_cpu_s": before["cpu_s"],
                    "before_peak_mb": before["peak_mb"],
                    "speedup": before["cpu_s"] / now["cpu_s"],
                    "same_bytes": before["sha256"] == now["sha256"],
                }
                figures = f"{now['cpu_s']:10.2f} {before['cpu_s']:8.2f} {row['speedup']:7.2f}x"
                figures += f" {now['peak_mb']:7.1f} {before['peak_mb']:7.1f}"
                print(f"{name:40s} {figures}  {row['same_bytes']}", flush=True)
            else:
                print(f"{name:40s} {now['cpu_s']:10.2f} {'':8s} {'':8s} {now['peak_mb']:7.1f}", flush=True)
            rows.append(row)
    if args.before:
        total_now = sum(r["cpu_s"] for r in rows)
        total_before = sum(r["before_cpu_s"] for r in rows)
        print(f"all: {total_now:.1f} CPU-s now, {total_before:.1f} before, {total_before / total_now:.2f}x")
    print(json.dumps({"rows": rows, "horizon": args.horizon, "before": args.before, "here": HERE}))


if __name__ == "__main__":
    main()
