"""Projected wall time of the paper-scale workflow on N cores, from its DAG and per-job CPU costs.

Takes the workflow's job graph (``snakemake -n --forceall --dag``, Graphviz text: every job with its
rule and wildcards, and the edges between jobs; ``--d3dag`` omits the wildcards and the dry run's job
list omits the edges, and neither is faster to produce) and gives every job a CPU cost:

* archived, when an archive's manifest given with ``--archive archive/paper-scale/manifest.json`` lists the job
  (same rule and wildcards): its exact CPU seconds (``causal-bandits archive``);
* measured, when a workflow directory given with ``--measured DIR`` holds the job's Snakemake
  benchmark file (run jobs: ``benchmarks/out/<paper>/<experiment>/<strategy>/<algorithm>/chunk-<k>.tsv``,
  read with ``benchmarks/job_costs.py``'s reader); only directories run at the scale being projected;
* else modelled (:data:`MODEL`): a run job, a paper's or a study's, by the cost check's model
  (:func:`causal_bandits.cost.seconds` of the job its owner describes from ``--config``: one start-up and the
  paper's ``cpu_seconds``, fitted to the archived paper-scale run, ``benchmarks/cost_model.py``); any other job as
  the mean CPU of its rule's jobs in the archives given, else in ``archive/paper-scale`` and then
  ``archive/studies``; a rule no archive holds, one start-up.

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

``--pomisplus-speedup S`` divides every POMIS+ run's modelled simulation (the paper's and the studies') by S, to
project the workflow after a speed-up of the z² solvers. The CPU is also given per part of the run: each paper
and each study (config/studies.yaml), by the rule that made each job.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job_costs import PAPERS, benchmark_rows
from resources import paper_of

from causal_bandits import config as cb_config
from causal_bandits import cost, studies
from causal_bandits.archive.quotes import list_schedule
from causal_bandits.papers import paper
from causal_bandits.papers.nonmanip import POMIS_PLUS

NODE = re.compile(r'^\s*(\d+)\[label = "([^"]*)"')
EDGE = re.compile(r"^\s*(\d+) -> (\d+)")
TEN_MINUTES = 600.0
#: Where a job's cost comes from when not from the model.
SOURCES = {"archived": "archive manifests (exact)", "measured": "benchmark files"}

#: The archives whose rule means cost the jobs that are not runs when no ``--archive`` is given: the papers' paper-scale
#: run, then the studies' (its jobs of the papers' rules are older).
DEFAULT_ARCHIVES = [
    Path(__file__).resolve().parents[1] / "archive" / name / "manifest.json" for name in ("paper-scale", "studies")
]
#: Where a job's cost comes from when neither archived nor measured: a run job (a paper's or a study's) from the cost
#: check's model (causal_bandits.cost, fitted to the archived paper-scale run), any other job as the mean of its rule's
#: archived jobs (:func:`rule_means` of ``--archive``, else of :data:`DEFAULT_ARCHIVES`), else one start-up.
MODEL = {
    "cost model": "run job: causal_bandits.cost.seconds (start-up + the paper's cpu_seconds, fitted to the archive)",
    "rule mean": "the mean CPU of the rule's archived jobs (--archive, else archive/paper-scale, then studies)",
    "start-up": "causal_bandits.cost.START_UP_S: a rule no archive holds",
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


#: The run rules of the studies, by study.
STUDY_RUNS = {f"{name}_run": name for name in studies.STUDIES}


def describer(rule: str) -> Callable | None:
    """The ``describe(config, wildcards)`` of the module that owns ``rule``'s run jobs (a paper's run rule
    ``<key>_run...``, a study's ``<name>_run``), None for any other rule."""
    if rule in STUDY_RUNS:
        return studies.module(STUDY_RUNS[rule]).describe
    key = paper_of(rule)
    return importlib.import_module(paper(key).runs).describe if key else None


def model_cost(config: dict, job: Job, means: dict[str, float], speedup: float) -> tuple[float, str]:
    """A job's modelled CPU seconds and where they come from (:data:`MODEL`): a run job's from the cost model, with
    its POMIS+ simulations divided by ``speedup``; any other job's from its rule's archived mean, else a start-up."""
    describe = describer(job.rule)
    if describe is not None:
        described = describe(config, job.wildcards)
        sims = sum(
            cost.simulation_seconds(m) / (speedup if m.strategy == POMIS_PLUS else 1.0) for m in cost.members(described)
        )
        return cost.START_UP_S + sims, "cost model"
    if job.rule in means:
        return means[job.rule], "rule mean"
    return cost.START_UP_S, "start-up"


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


def rule_means(manifests: list[Path]) -> dict[str, float]:
    """The mean CPU seconds of each rule's jobs, from the first of ``manifests`` that holds the rule."""
    means: dict[str, float] = {}
    for manifest in manifests:
        for rule, done in archived_costs([manifest]).items():
            means.setdefault(rule, sum(cpu for _, cpu, _ in done) / len(done))
    return means


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
    """Makespan (s) of a list schedule: a free core takes the longest ready job
    (:func:`causal_bandits.archive.quotes.list_schedule`)."""
    order = sorted(jobs)
    index = {jid: k for k, jid in enumerate(order)}
    needs = [[index[parent] for parent in jobs[jid].parents] for jid in order]
    return list_schedule([jobs[jid].cost for jid in order], needs, cores)


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
    config = cb_config.check(cb_config.load(*args.config))
    archived = archived_costs(args.archive)
    means = rule_means(args.archive or DEFAULT_ARCHIVES)
    measured = measured_costs(args.measured)
    for job in jobs.values():
        key = run_key(job)
        found = archived_cost(archived, job)
        if found is not None:
            job.cost, job.source = found, "archived"
        elif key in measured:
            job.cost, job.source = measured[key]["cpu_s"], "measured"
        else:
            job.cost, job.source = model_cost(config, job, means, args.pomisplus_speedup)

    total = sum(j.cost for j in jobs.values())
    n_archived = sum(j.source == "archived" for j in jobs.values())
    n_measured = sum(j.source == "measured" for j in jobs.values())
    print(
        f"{len(jobs)} jobs, {n_archived} costed from archived runs (exact), {n_measured} from benchmark files, "
        "the rest modelled"
    )
    print(f"POMIS+ speed-up applied to the model: {args.pomisplus_speedup:g}x")
    print(f"total CPU: {total:,.0f} s = {total / 3600:.2f} CPU-h")
    by_source: dict[str, list[float]] = defaultdict(list)
    for j in jobs.values():
        by_source[j.source].append(j.cost)
    print("\nCPU by cost source")
    for source, costs in sorted(by_source.items(), key=lambda kv: -sum(kv[1])):
        note = MODEL.get(source) or SOURCES[source]
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
