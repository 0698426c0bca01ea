"""Projected wall time of the paper-scale workflow on N cores, from its DAG and per-job CPU costs.

Takes the workflow's job graph (``snakemake -n --forceall --dag``, Graphviz text: every job with its
rule and wildcards, and the edges between jobs; ``--d3dag`` omits the wildcards and the dry run's job
list omits the edges, and neither is faster to produce) and gives every job a CPU cost:

* archived, when an archive's manifest given with ``--archive archive/paper-scale/manifest.json`` lists the job
  (same rule and wildcards): its exact CPU seconds (``causal-bandits archive``);
* measured, when a workflow directory given with ``--measured DIR`` holds the job's Snakemake
  benchmark file (run jobs: ``benchmarks/out/<paper>/<experiment>/<strategy>/<algorithm>/chunk-<k>.tsv``,
  read with ``benchmarks/job_costs.py``'s reader); only directories run at the scale being projected;
* else from the cost model :data:`MODEL`, per (rule, size), each number with where it comes from
  (paper-scale figures measured from benchmark files on earlier runs, or projected from them).

It then simulates a list schedule on N cores (a free core takes the longest ready job; a job is
ready when all its inputs' jobs finished; one core per job, as the rules request) and prints the total
CPU-h, the projected wall time per core count, the critical path (the longest chain of dependent
jobs, a floor on the wall time whatever the core count), the longest jobs, the jobs over 10
CPU-minutes, and the peak memory per rule from the benchmark files' ``max_rss``.

Usage::

    snakemake -n --forceall --dag --configfile config/config.yaml \\
        --config 'data={raw_dir: /work/shared/data/raw}' > /tmp/paper.dot
    python benchmarks/wall_time.py --dag /tmp/paper.dot [--cores 2 16 64] [--pomisplus-speedup 8]
        [--archive archive/paper-scale/manifest.json] [--measured WORKFLOW_DIR ...] [--config config/config.yaml]

``--pomisplus-speedup S`` divides every POMIS+ run's modelled cost (the paper's and the studies') by S, to
project the workflow after a speed-up of the z² solvers. The CPU is also given per part of the run: each paper
and each study (config/studies.yaml), by the rule that made each job.
"""

from __future__ import annotations

import argparse
import heapq
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job_costs import PAPERS, benchmark_rows

from causal_bandits import studies
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.runs import chunk_seeds

NODE = re.compile(r'^\s*(\d+)\[label = "([^"]*)"')
EDGE = re.compile(r"^\s*(\d+) -> (\d+)")
TEN_MINUTES = 600.0
#: Where a job's cost comes from when not from the model.
SOURCES = {"archived": "archive manifests (exact)", "measured": "benchmark files"}

# Cost model, CPU seconds at paper scale (one core, the project's shared 2-core machine). Sources:
# M = measured at paper scale: the archived run's exact per-job CPU (archive/paper-scale/manifest.json) or, for the
# studies, benchmark files of earlier runs (docs/performance.md); P = projected from those as stated.
MODEL = {
    # nonmanip BF / MIS / POMIS: a job's start-up plus a cost per seed; the archived run's 18 jobs of 1,000 seeds
    # cost 92.4 CPU-s (3.8 to 10.4 a job by panel), the start-up 1.2 s measured.
    "baseline_job": ((1.2, (92.4 / 18 - 1.2) / 1000), "M: archived run, 18 jobs of 1,000 seeds, 92.4 CPU-s"),
    # POMIS+ main run (adaptive refresh), 2 solvers x 5 chunks of 200 seeds per panel, in the archived run
    # (archive/paper-scale/manifest.json, CPU exact from each job's log): Fig. 5d 601.5 CPU-s, fig5a+fig5b 499.6.
    "pomisplus_per_seed_fig5c": (601.5 / 2000, "M: archived run, POMIS+ Fig. 5d panel 601.5 CPU-s / 2,000 seed-runs"),
    "pomisplus_per_seed_other": (499.6 / 4000, "M: archived run, POMIS+ fig5a+fig5b 499.6 CPU-s / 4,000"),
    # The studies' POMIS+ entries below were measured on older code, when the same Figure 5 jobs cost 3,390 CPU-s
    # (Fig. 5d) and 1,168 (fig5a+fig5b): they are scaled by the Figure 5 panels' ratio now / then (P).
    "pomisplus_now_over_then": (
        {"fig5c": 601.5 / 3390, "other": 499.6 / 1168},
        "M: archived run over the earlier measurement of the same Figure 5 jobs; P: studies scaled alike",
    ),
    # every-round spot check, 50 seeds per (panel, solver) (M: docs/performance.md#nonmanip-spot-check).
    "spot_per_seed": (
        {
            ("fig5a", "ts"): 0.08 * 3600 / 50,
            ("fig5a", "kl_ucb"): 0.08 * 3600 / 50,
            ("fig5b", "ts"): 0.22 * 3600 / 50,
            ("fig5b", "kl_ucb"): 0.22 * 3600 / 50,
            ("fig5c", "ts"): 1.01 * 3600 / 50,
            ("fig5c", "kl_ucb"): 0.68 * 3600 / 50,
        },
        "M: docs/performance.md, spot check 0.08/0.08, 0.22/0.22, 1.01/0.68 CPU-h per 50 seeds",
    ),
    # robustness study, POMIS+ per seed-run (both solvers: / 400 per instance of 200 seeds).
    "robust_pomisplus_per_seed": (
        {
            "fig5c": 891 / 400,
            "graph": (732 - 63) / 400,
            "fig5b": 134 / 400,
            "fig5a": (51 - 6 * 200 * 584 / 18000) / 400,  # the 6 baseline runs at Figure 5's old rate
        },
        "M: the robustness study's first step (Fig. 5d SCM 891, Fig. 2a 134 CPU-s of POMIS+ per instance); "
        "P: graph = 732 minus the baseline's 63, front-door = 51 minus 6 baseline runs at Figure 5's rate",
    ),
    # The other papers' jobs, measured in the archived run (archive/paper-scale/manifest.json: CPU exact, from the
    # resources line at the end of each job's log). unknown_graph: the 90 V1-V4 run jobs (20 seeds, T = 10^6)
    # 1,775.7 CPU-s; V6 discovery 985.0, the two height-9 jobs 784.5; V5's lower bounds 167.7. cpe: 338 run jobs
    # 2,860.6, its other 96 jobs 79.2. bounds 60 in all, fairness 38.
    "ug_run_per_seed": (1775.7 / 90 / 20, "M: archived run, 90 V1-V4 run jobs x 20 seeds, 1,775.7 CPU-s"),
    "ug_discovery_per_job": (
        {"9": 784.5 / 2 / 8, "other": (985.0 - 784.5) / 6 / 8},
        "M: archived run, V6 discovery 985.0 CPU-s, height 9 784.5 (then one job per regime and height); "
        "P: a height's 8 (delta, c_B) settings, now a job each, alike; the other heights spread evenly",
    ),
    "ug_lower_bounds_total": (167.7, "M: archived run, V5 lower bounds 167.7 CPU-s (spread)"),
    "cpe_run": (2860.6 / 338, "M: archived run, 338 cpe run jobs, 2,860.6 CPU-s (mean)"),
    "cpe_other": (79.2 / 96, "M: archived run, cpe's other 96 jobs, 79.2 CPU-s (spread)"),
    "bounds_total": (60.4, "M: archived run, bounds 60.4 CPU-s (spread over its jobs)"),
    "fairness_total": (37.6, "M: archived run, fairness 37.6 CPU-s (spread over its jobs)"),
    # any other job: its process start-up and the workflow parse (2.2 s parse + 1.2 s start-up, measured).
    "other": (3.4, "M: a job's parse 2.2 s + start-up 1.2 s"),
}


@dataclass
class Job:
    """One node of the DAG: its rule, wildcards, cost (CPU s) and where the cost comes from."""

    id: int
    rule: str
    wildcards: dict[str, str]
    label: dict[str, str] = field(default_factory=dict)
    cost: float = 0.0
    source: str = ""
    children: list[int] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)

    def name(self) -> str:
        return self.rule + "".join(f" {k}={v}" for k, v in sorted(self.label.items()))


def parse_dag(text: str) -> dict[int, Job]:
    """Jobs and edges from ``snakemake --dag`` (Graphviz: label = rule, then ``key: value`` lines)."""
    jobs: dict[int, Job] = {}
    edges = []
    for line in text.splitlines():
        if m := NODE.match(line):
            rule, *pairs = m.group(2).split("\\n")
            label = dict(p.split(": ", 1) for p in pairs)
            jobs[int(m.group(1))] = Job(int(m.group(1)), rule, dict(label), label)
        elif m := EDGE.match(line):
            edges.append((int(m.group(1)), int(m.group(2))))
    if not jobs:
        raise SystemExit("error: no jobs in the DAG text; give the output of `snakemake -n --forceall --dag`")
    for a, b in edges:
        jobs[a].children.append(b)
        jobs[b].parents.append(a)
    # Snakemake labels a job only with the wildcards none of its input jobs has (same name and value):
    # give back the rest from the input jobs, inputs first.
    for job in topological(jobs):
        for parent in job.parents:
            for key, value in jobs[parent].wildcards.items():
                job.wildcards.setdefault(key, value)
    return jobs


def topological(jobs: dict[int, Job]) -> list[Job]:
    """Jobs with every job after the jobs it reads (Kahn's algorithm)."""
    waiting = {j.id: len(j.parents) for j in jobs.values()}
    queue = [j.id for j in jobs.values() if not j.parents]
    order = []
    while queue:
        jid = queue.pop()
        order.append(jobs[jid])
        for child in jobs[jid].children:
            waiting[child] -= 1
            if waiting[child] == 0:
                queue.append(child)
    return order


def merged(base: dict, overlay: dict) -> dict:
    """``overlay`` merged into ``base`` at every depth, as Snakemake merges config files."""
    out = dict(base)
    for key, value in overlay.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def load_config(paths: list[Path]) -> dict:
    """The given config files merged in order (config/config.yaml first, then overlays), at every depth."""
    config: dict = {}
    for path in paths:
        config = merged(config, yaml.safe_load(path.read_text()) or {})
    return config


#: The run rules of the studies, by study.
STUDY_RUNS = {f"{name}_run": name for name in studies.STUDIES}


def seeds_in_chunk(config: dict, job: Job) -> int:
    """The number of seeds in a run job's chunk, from the config's counts and chunk sizes."""
    wc, spj = job.wildcards, config["seeds_per_job"]
    if job.rule in STUDY_RUNS:
        section = config["studies"][STUDY_RUNS[job.rule]]
        return len(chunk_seeds(section["n_seeds"], section["seeds_per_job"])[int(wc["chunk"])])
    if job.rule.startswith("nonmanip"):
        chunks = nonmanip_runs.chunks(config["nonmanip"], spj, wc["strategy"])
        return len(chunks[int(wc["chunk"])])
    if job.rule.startswith("unknown_graph"):
        n, spj = config["unknown_graph"]["n_seeds"], config["unknown_graph"].get("seeds_per_job", spj)
        return len(chunk_seeds(n, spj)[int(wc["chunk"])])
    return spj


def model_cost(config: dict, job: Job, counts: dict[str, int], speedup: float) -> tuple[float, str]:
    """A job's modelled CPU seconds and the model entry it came from."""
    rule = job.rule
    if rule in (
        "nonmanip_run",
        "nonmanip_run_pomisplus",
        "refresh_run",
        "knobs_run",
        "same_means_run",
        "robustness_run",
    ):
        return nonmanip_run_cost(config, job, speedup)
    if rule == "fucb_radius_run":
        return MODEL["other"][0], "other"
    if rule == "unknown_graph_run":
        return seeds_in_chunk(config, job) * MODEL["ug_run_per_seed"][0], "ug_run_per_seed"
    if rule == "unknown_graph_discovery":
        per_job = MODEL["ug_discovery_per_job"][0]
        return per_job.get(job.wildcards["height"], per_job["other"]), "ug_discovery_per_job"
    if rule == "unknown_graph_lower_bounds":
        return MODEL["ug_lower_bounds_total"][0] / counts[rule], "ug_lower_bounds_total"
    if rule == "cpe_run":
        return MODEL["cpe_run"][0], "cpe_run"
    if rule == "cpe_run_budgets":  # a batch: one run job per budget
        return len(config["cpe"]["pb_budgets"]) * MODEL["cpe_run"][0], "cpe_run"
    if rule.startswith("cpe_"):
        return MODEL["cpe_other"][0], "cpe_other"
    for paper in ("bounds", "fairness"):
        if rule.startswith(paper + "_"):
            n = sum(c for r, c in counts.items() if r.startswith(paper + "_"))
            return MODEL[f"{paper}_total"][0] / n, f"{paper}_total"
    return MODEL["other"][0], "other"


def nonmanip_run_cost(config: dict, job: Job, speedup: float) -> tuple[float, str]:
    """A nonmanip run job's modelled CPU seconds (the paper's or a study's) and its model entry: BF / MIS / POMIS at
    the baseline rate, POMIS+ per seed by panel (robustness instances by their family, the refresh study at the
    every-round rate; the knob and same-means points at the main run's rate, P)."""
    seeds, wc = seeds_in_chunk(config, job), job.wildcards
    if wc["strategy"] != "POMISplus":
        start_up, per_seed = MODEL["baseline_job"][0]
        return start_up + seeds * per_seed, "baseline_job"
    scale = MODEL["pomisplus_now_over_then"][0]
    if job.rule == "robustness_run":
        key = "graph" if wc["point"] == "graphs" else wc["point"]
        now = scale["fig5c" if key in ("graph", "fig5c") else "other"]
        return seeds * MODEL["robust_pomisplus_per_seed"][0][key] * now / speedup, "robust_pomisplus_per_seed"
    if job.rule == "refresh_run":
        now = scale["fig5c" if wc["experiment"] == "fig5c" else "other"]
        rate = MODEL["spot_per_seed"][0][(wc["experiment"], wc["algorithm"])]
        return seeds * rate * now / speedup, "spot_per_seed"
    key = "pomisplus_per_seed_fig5c" if wc["experiment"] == "fig5c" else "pomisplus_per_seed_other"
    return seeds * MODEL[key][0] / speedup, key


def part(job: Job) -> str:
    """The part of the run a job belongs to: its study (``studies/<name>``) or its paper, by its rule's name."""
    for name in studies.STUDIES:
        if job.rule.startswith(name + "_"):
            return f"studies/{name}"
    return next((p for p in PAPERS if job.rule.startswith(p + "_")), "report and targets")


def archived_costs(manifests: list[Path]) -> dict[str, list[tuple[dict[str, str], float, float]]]:
    """Every job of archived runs (their ``manifest.json``) by rule: (wildcards, CPU seconds, peak MB)."""
    out: dict[str, list[tuple[dict[str, str], float, float]]] = defaultdict(list)
    for manifest in manifests:
        for job in json.loads(manifest.read_text())["jobs"]:
            if job["cpu_s"] is not None:
                out[job["rule"]].append((job["wildcards"], job["cpu_s"], job["max_rss_mb"] or 0.0))
    return out


def archived_cost(archived: dict[str, list[tuple[dict[str, str], float, float]]], job: Job) -> float | None:
    """The archived CPU seconds of ``job``: the archived job of its rule whose wildcards hold its label's and are
    among its own (the DAG's label leaves out the wildcards an input job has; :func:`parse_dag` adds them back,
    with some the job itself may lack)."""
    for wildcards, cpu_s, _ in archived.get(job.rule, []):
        if job.label.items() <= wildcards.items() <= job.wildcards.items():
            return cpu_s
    return None


def measured_costs(dirs: list[Path]) -> dict[str, dict[str, float]]:
    """Run jobs' benchmark rows by ``<paper>/<experiment>/<strategy>/<algorithm>/chunk-<k>``."""
    out = {}
    for d in dirs:
        for key, row in benchmark_rows(d):
            out[key] = row
    return out


def run_key(job: Job) -> str | None:
    """A run job's benchmark-file key, or None for other jobs."""
    paper = next((p for p in PAPERS if job.rule.startswith(p + "_run")), None)
    if paper is None or not {"experiment", "algorithm", "chunk"} <= job.wildcards.keys():
        return None
    wc = job.wildcards
    strategy = wc.get("strategy", "budgets")  # a batch of the parallel bandit's budgets (rule cpe_run_budgets)
    return f"{paper}/{wc['experiment']}/{strategy}/{wc['algorithm']}/chunk-{wc['chunk']}"


def schedule(jobs: dict[int, Job], cores: int) -> float:
    """Makespan (s) of a list schedule: a free core takes the longest ready job."""
    waiting = {j.id: len(j.parents) for j in jobs.values()}
    ready = [(-j.cost, j.id) for j in jobs.values() if not j.parents]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    now = 0.0
    while ready or running:
        while ready and len(running) < cores:
            cost, jid = heapq.heappop(ready)
            heapq.heappush(running, (now - cost, jid))
        now, jid = heapq.heappop(running)
        for child in jobs[jid].children:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, (-jobs[child].cost, child))
    return now


def critical_path(jobs: dict[int, Job]) -> list[Job]:
    """The chain of dependent jobs with the largest summed cost."""
    best: dict[int, tuple[float, int | None]] = {}
    order = [j.id for j in reversed(topological(jobs))]  # children before parents
    for jid in order:
        tail = max(((best[c][0], c) for c in jobs[jid].children), default=(0.0, None))
        best[jid] = (jobs[jid].cost + tail[0], tail[1])
    start = max(jobs, key=lambda j: best[j][0])
    path, cur = [], start
    while cur is not None:
        path.append(jobs[cur])
        cur = best[cur][1]
    return path


def hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f} h ({seconds / 60:.1f} min)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dag", type=Path, required=True, help="output of `snakemake -n --forceall --dag`")
    parser.add_argument("--config", type=Path, nargs="+", default=[Path("config/config.yaml")])
    parser.add_argument("--cores", type=int, nargs="+", default=[2, 16, 64])
    parser.add_argument("--pomisplus-speedup", type=float, default=1.0, help="divide POMIS+ run costs by this")
    parser.add_argument("--archive", type=Path, nargs="*", default=[], help="archive manifests of runs at this scale")
    parser.add_argument("--measured", type=Path, nargs="*", default=[], help="workflow dirs run at this scale")
    parser.add_argument("--top", type=int, default=15, help="longest jobs to list")
    args = parser.parse_args()
    if args.pomisplus_speedup <= 0:
        raise SystemExit("error: --pomisplus-speedup must be positive, e.g. 8")

    jobs = parse_dag(args.dag.read_text())
    config = load_config(args.config)
    counts: dict[str, int] = defaultdict(int)
    for job in jobs.values():
        counts[job.rule] += 1
    archived = archived_costs(args.archive)
    measured = measured_costs(args.measured)
    for job in jobs.values():
        key = run_key(job)
        found = archived_cost(archived, job)
        if found is not None:
            job.cost, job.source = found, "archived"
        elif key in measured:
            job.cost, job.source = measured[key]["cpu_s"], "measured"
        else:
            job.cost, job.source = model_cost(config, job, counts, args.pomisplus_speedup)

    total = sum(j.cost for j in jobs.values())
    n_archived = sum(j.source == "archived" for j in jobs.values())
    n_measured = sum(j.source == "measured" for j in jobs.values())
    print(
        f"{len(jobs)} jobs, {n_archived} costed from archived runs (exact), {n_measured} from benchmark files, "
        "the rest from the cost model"
    )
    print(f"POMIS+ speed-up applied to the model: {args.pomisplus_speedup:g}x")
    print(f"total CPU: {total:,.0f} s = {total / 3600:.2f} CPU-h")
    by_source: dict[str, list[float]] = defaultdict(list)
    for j in jobs.values():
        by_source[j.source].append(j.cost)
    print("\nCPU by cost source (M = measured, P = projected; see MODEL)")
    for source, costs in sorted(by_source.items(), key=lambda kv: -sum(kv[1])):
        note = MODEL[source][1] if source in MODEL else SOURCES[source]
        print(f"  {source:<28}{len(costs):>6} jobs{sum(costs) / 3600:>8.2f} CPU-h  {note}")
    by_part: dict[str, list[float]] = defaultdict(list)
    for j in jobs.values():
        by_part[part(j)].append(j.cost)
    print("\nCPU by part of the run (each paper, each study)")
    for name, costs in sorted(by_part.items()):
        print(f"  {name:<28}{len(costs):>6} jobs{sum(costs) / 3600:>8.2f} CPU-h")
    path = critical_path(jobs)
    floor = sum(j.cost for j in path)
    print(f"\ncritical path: {hours(floor)}, {len(path)} jobs")
    for j in path:
        print(f"  {j.cost:>9.1f} s  {j.name()}")
    print("\nprojected wall time (list schedule, longest ready job first)")
    for n in args.cores:
        print(f"  {n:>3} cores: {hours(schedule(jobs, n))}")
    longest = sorted(jobs.values(), key=lambda j: -j.cost)
    print(f"\nlongest {args.top} jobs")
    for j in longest[: args.top]:
        print(f"  {j.cost:>9.1f} s  [{j.source}]  {j.name()}")
    over = [j for j in longest if j.cost > TEN_MINUTES]
    print(f"\njobs over 10 CPU-minutes: {len(over)}")
    for j in over:
        print(f"  {j.cost:>9.1f} s  [{j.source}]  {j.name()}")
    if archived:
        peak = max(rss for runs in archived.values() for _, _, rss in runs)
        print(f"\npeak memory of one archived job: {peak:.0f} MB")
    memory = peak_memory(args.measured)
    if memory:
        print("\npeak memory (max_rss, MB) per rule from the benchmark files")
        for group, (n, rss) in sorted(memory.items(), key=lambda kv: -kv[1][1]):
            print(f"  {group:<44}{n:>6} files{rss:>10.1f}")


def peak_memory(dirs: list[Path]) -> dict[str, tuple[int, float]]:
    """Largest ``max_rss`` (MB) per rule group: run jobs by paper and strategy, others by file."""
    out: dict[str, tuple[int, float]] = {}
    for d in dirs:
        for key, row in benchmark_rows(d):
            parts = key.split("/")
            group = f"{parts[0]} run {parts[2]}" if parts[-1].startswith("chunk-") else parts[0]
            n, rss = out.get(group, (0, 0.0))
            out[group] = (n + 1, max(rss, row["max_rss"]))
    return out


if __name__ == "__main__":
    main()
