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

``--floor`` also runs each job once more in the working tree with every keyed generator counting the standard uniforms
it draws (:mod:`causal_bandits.rng`), and prices them at a bulk ``Generator.random`` call's CPU per uniform: the
job's draws' floor, what drawing its randomness alone costs (draws made otherwise than as uniforms, e.g. a generator's
``normal``, are not counted, so a floor may be low). Every run prints, per workflow rule, the measured jobs' CPU, the
floor and CPU over floor, the speed-up against ``--before REF``, and the speed-up weighted by each rule's CPU in the
archived paper-scale run (``run_rules.py``).

``--horizon N`` caps every cpe job's sample cap (a stopping run is then censored at N: the same work on both sides,
in less time; the parallel bandit keeps its budget) and every unknown_graph and nonmanip job's rounds T. The last line
printed is one JSON object with the rows.

    python benchmarks/run_jobs_speed.py --before main --horizon 30000
    python benchmarks/run_jobs_speed.py --jobs cpe:E4-k6/practical/ccpe_general --before main
    python benchmarks/run_jobs_speed.py --typical --floor --before 72b12d9
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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from before_after import HERE, both_sides, export_src, run_json
from run_rules import MANIFEST, RELEASE, archive_cpu, by_rule, coverage, rule_of, weighted_speedup

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
    "nonmanip:fig5c/BF/ts": {"instance": "results/nonmanip/instances/fig5c.json"},
    "nonmanip:fig5c/BF/kl_ucb": {"instance": "results/nonmanip/instances/fig5c.json"},
    "fairness:email/default/fucb_tau0.1": {"instance": "results/fairness/instances/email.json"},
    "unknown_graph_discovery:A-h9-d0.01-c0.1": {},
    "unknown_graph_discovery:B-h9-d0.1-c1.0": {},
    "cpe:E1-n4/T2000/pb": {"instance": "results/cpe/instances/E1/n4.json"},
    "unknown_graph:V3-forest-C2/default/cn_ucb": {},
}

#: One typical job per run rule (``--typical``): the rule's costliest kind of job in the archived run.
TYPICAL = [
    "nonmanip:fig5c/POMISplus/ts",
    "cpe:E4-k6/practical/ccpe_general",
    "unknown_graph:V2-treeB-h9/default/ucb",
    "cpe:E2-r16/T256000/pb",
    "unknown_graph_discovery:B-h9-d0.1-c1.0",
    "nonmanip:fig5c/BF/ts",
    "fairness:email/default/fucb_tau0.1",
]


def paper_scale_config() -> Path:
    """``config/config.yaml`` beside the ``src`` the package was imported from: the working tree's, or the ref's as
    ``before_after.export_src`` unpacked it (a config key added since the ref is unknown to the ref's schema)."""
    import causal_bandits

    return Path(causal_bandits.__file__).resolve().parents[2] / "config" / "config.yaml"


def capped(job, science: dict, horizon: int):
    """``job`` with ``science`` and the rounds ``horizon``; a ref whose run job computes its horizon from its science
    (no ``horizon`` field) gets the science alone."""
    fields = {f.name for f in dataclasses.fields(job)}
    return dataclasses.replace(job, science=science, **({"horizon": horizon} if "horizon" in fields else {}))


def one(name: str, horizon: int | None, out: str) -> dict:
    """Run job ``name`` in this process; its CPU since the process started and the sha256 of its two files."""
    from causal_bandits import config, runs

    paper, rest = name.split(":", 1)
    if paper == "unknown_graph_discovery":
        return one_discovery(rest, out)
    experiment, strategy, algorithm = rest.split("/")
    module = importlib.import_module(f"causal_bandits.papers.{paper}.runs")
    wildcards = {"experiment": experiment, "strategy": strategy, "algorithm": algorithm, "chunk": "0"}
    job = module.describe(config.validate(config.load(paper_scale_config())), wildcards)
    if horizon and paper == "unknown_graph":  # the rounds T of a V1-V4 run
        section = {**job.science["section"], "horizon": min(int(job.science["section"]["horizon"]), horizon)}
        job = capped(job, {**job.science, "section": section}, min(job.horizon, horizon))
    elif horizon:  # the sample cap of a cpe job (a budget job keeps its budget), the rounds T of a nonmanip one
        science = {**job.science, "horizon": min(int(job.science["horizon"]), horizon)}
        job = capped(job, science, job.horizon if algorithm == "pb" else science["horizon"])
    trace, summary = f"{out}/trace.parquet", f"{out}/summary.parquet"
    runs.execute(job, JOBS[name], trace, summary)
    return measured([trace, summary])


def one_discovery(name: str, out: str) -> dict:
    """One V6 job, ``regime-hH-setting``, as rule ``unknown_graph_discovery`` runs it (its row as JSON: the bytes)."""
    from causal_bandits import config
    from causal_bandits.papers.unknown_graph.cells import discovery_setting
    from causal_bandits.papers.unknown_graph.discovery_checks import sampled_discovery

    regime, height, setting = name.split("-", 2)
    section = config.validate(config.load(paper_scale_config()))["unknown_graph"]["discovery"]
    row = sampled_discovery(regime, int(height[1:]), *discovery_setting(section, setting), section["n_seeds"])
    Path(f"{out}/row.json").write_text(json.dumps(row, sort_keys=True))
    return measured([f"{out}/row.json"])


def counting_uniforms() -> list[int]:
    """Make every keyed generator made from now on (:func:`causal_bandits.rng.generator`, which the streams and the
    modules imported later call) count the standard uniforms its ``random`` draws; the returned cell holds the count."""
    import numpy as np

    from causal_bandits import rng

    drawn, make = [0], rng.generator

    class Counting:
        def __init__(self, gen):
            self._gen = gen

        def random(self, *args, **kwargs):
            x = self._gen.random(*args, **kwargs)
            drawn[0] += np.size(x)
            return x

        def __getattr__(self, name: str):
            return getattr(self._gen, name)

    rng.generator = lambda *key: Counting(make(*key))
    return drawn


def ns_per_uniform(blocks: int = 2000, width: int = 4096) -> float:
    """CPU nanoseconds per standard uniform of a bulk ``Generator.random`` call (a stream's refill), best of 3."""
    import numpy as np

    gen, buf, best = np.random.default_rng(0), np.empty(width), float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(blocks):
            gen.random(out=buf)
        best = min(best, time.process_time() - start)
    return best / (blocks * width) * 1e9


def floor(name: str, horizon: int | None, out: str) -> dict:
    """Run job ``name`` counting its uniforms; their count and their cost at :func:`ns_per_uniform` (CPU s)."""
    drawn = counting_uniforms()
    one(name, horizon, out)
    ns = ns_per_uniform()
    return {"uniforms": drawn[0], "ns_per_uniform": ns, "floor_cpu_s": drawn[0] * ns * 1e-9}


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


def measure_floor(name: str, horizon: int | None) -> dict:
    """:func:`floor` of job ``name`` in a fresh process on the working tree."""
    with tempfile.TemporaryDirectory() as out:
        argv = [__file__, "--one", name, "--out", out, "--floor"] + (["--horizon", str(horizon)] if horizon else [])
        return run_json(HERE, argv)


def job_row(i: int, name: str, args, before_src: str | None) -> dict:
    """One job measured now (and at the ref, back to back; and its floor with ``--floor``), printed as a line."""
    now, before = both_sides(i, lambda src: measure(src, name, args.horizon, args.repeat), before_src)
    row = {
        "job": name,
        "rule": rule_of(name),
        "cpu_s": now["cpu_s"],
        "peak_mb": now["peak_mb"],
        "sha256": now["sha256"],
    }
    line = f"{name:48s} {now['cpu_s']:10.2f}"
    if before is not None:
        row |= {
            "before_cpu_s": before["cpu_s"],
            "before_peak_mb": before["peak_mb"],
            "speedup": before["cpu_s"] / now["cpu_s"],
            "same_bytes": before["sha256"] == now["sha256"],
        }
        line += f" {before['cpu_s']:8.2f} {row['speedup']:7.2f}x"
    else:
        line += f" {'':8s} {'':8s}"
    line += f" {now['peak_mb']:7.1f} " + (f"{before['peak_mb']:7.1f}" if before else f"{'':7s}")
    if args.floor:
        row |= measure_floor(name, args.horizon)
        line += f" {row['floor_cpu_s']:8.3f} {row['cpu_s'] / row['floor_cpu_s']:8.0f}x"
    print(line + (f"  {row['same_bytes']}" if before else ""), flush=True)
    return row


def print_rules(rows: list[dict]) -> list[dict]:
    """The per-rule table, the weighted speed-up and the coverage of the archive's run CPU; the rules' rows."""
    weights = archive_cpu()
    if not weights:
        print(f"\nno {MANIFEST}: the rules below carry no weight (check out archive/paper-scale)")
    rules = by_rule(rows, weights)
    print(
        f"\n{'rule':26s} {'archive CPU s':>13s} {'jobs':>4s} {'CPU s now':>9s} {'before':>8s} {'speed-up':>8s}", end=""
    )
    print(f" {'floor s':>8s} {'/ floor':>8s}")
    for rule in rules:
        line = f"{rule['rule']:26s} {rule['weight_cpu_s']:13.1f} {rule['jobs']:4d} {rule['cpu_s']:9.2f}"
        line += f" {rule['before_cpu_s']:8.2f} {rule['speedup']:7.2f}x" if "speedup" in rule else f" {'':8s} {'':8s}"
        line += f" {rule['floor_cpu_s']:8.3f} {rule['over_floor']:7.0f}x" if "over_floor" in rule else ""
        print(line)
    print(f"the measured rules hold {coverage(rules, weights):.0%} of the archive's run-rule CPU", end="")
    if any("speedup" in rule for rule in rules):
        print(f"; speed-up weighted by it: {weighted_speedup(rules):.2f}x", end="")
    release = archive_cpu(RELEASE)
    if release:
        both = by_rule(rows, release)
        print(f"\npapers and studies (a release): the measured rules hold {coverage(both, release):.0%}", end="")
        print(f" of their run-rule CPU; speed-up weighted by it: {weighted_speedup(both):.2f}x", end="")
    print()
    return rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", nargs="+", default=list(JOBS), choices=list(JOBS), help="which jobs")
    parser.add_argument("--typical", action="store_true", help="one typical job per run rule (TYPICAL), not --jobs")
    parser.add_argument("--before", help="git ref to compare with")
    parser.add_argument("--horizon", type=int, help="cap every job's horizon (rounds)")
    parser.add_argument("--floor", action="store_true", help="also measure each job's draws' floor")
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
        print(json.dumps((floor if args.floor else one)(args.one, args.horizon, args.out)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        before_src = export_src(args.before, tmp) if args.before else None
        head = f"{'CPU s now':>10s} {'before':>8s} {'speed-up':>8s} {'MB now':>7s} {'before':>7s}"
        print(f"{'job':48s} {head}" + (f" {'floor s':>8s} {'/ floor':>8s}" if args.floor else "") + "  same bytes")
        rows = [job_row(i, name, args, before_src) for i, name in enumerate(TYPICAL if args.typical else args.jobs)]
    rules = print_rules(rows)
    print(json.dumps({"rows": rows, "rules": rules, "horizon": args.horizon, "before": args.before, "here": HERE}))


if __name__ == "__main__":
    main()
