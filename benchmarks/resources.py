"""Per-rule memory and time requests from an archived run's measured jobs, as the SLURM profile states them.

Reads an archive manifest (``archive/paper-scale/manifest.json``: each job's exact CPU, wall time and peak resident
memory) and prints, per rule, its jobs, the smallest and largest peak, the largest CPU and wall time, and the
requests: ``mem_mb`` = the largest peak times ``causal_bandits.runs.MEMORY_MARGIN`` (the one margin, 15 %), rounded up;
``runtime`` (minutes, SLURM) = twice the largest wall time, at least 10 minutes (the run shared two cores with other
work; a cluster core is not slower). A run rule's memory is its jobs' own request (``RunJob.memory_mb``: the margin
over the measured peak of the job's kind, its wildcards but its chunk, scaled by the seeds where the state grows with
them), one place for that fact, ``src/causal_bandits/run_peaks.yaml``: its line states the runtime only, and the table
gives its jobs' own requests over their peaks (``request/peak``, smallest and largest). ``--write-peaks`` writes that
file from the manifest: each kind's largest peak, but at most ``SPREAD`` times its smallest. ``--check PROFILE``
compares the profile's ``set-resources`` with these lines, and holds every run job's own request within 1.0-1.5 times
its peak (``RUN_JOB_BOUNDS``); it exits non-zero naming each difference. Without it the lines are printed, ready to
paste. Peaks move by up to a fifth from run to run of the same code: refit both files to the run that is archived
(docs/performance.md#memory-requests); neither is in the archive's code record, so a refit reruns nothing.

    python benchmarks/resources.py --write-peaks
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
from causal_bandits.papers import PAPERS, paper
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.runs import MEMORY_MARGIN, PEAKS_FILE, kind

MIN_RUNTIME = 10
#: What a run job's own request may be over its measured peak: at least the peak (a cluster kills a job over its
#: request), at most half again (MEMORY_MARGIN over a fitted figure leaves room for the jobs a figure covers).
RUN_JOB_BOUNDS = (1.0, 1.5)
#: The most a kind's figure may be over its smallest peak. Binding for one kind only, fig5a POMIS+ TS, whose first
#: chunks in a fresh run compile the z² kernels and peak some 100 MB (36-43 % in the archived run of 09ef0c6, 37 % in
#: fca8dd0's: 412.7 against 299.9 MB) over the rest: 15 % over that peak would ask the others for 1.6 times theirs.
#: Capped, a compiling chunk asks for less over its peak (1.02 and 1.06 in those runs), and the others for at most
#: 1.15 x 1.27 = 1.46 times theirs.
SPREAD = 1.27


#: Rules whose jobs are papers' run jobs under another rule name, so they size their own memory request too:
#: the planned seeds' runs (workflow/rules/planned.smk asks for each job's ``RunJob.memory_mb``).
OWN_MEMORY = {"planned_run"}


def paper_of(rule: str) -> str | None:
    """The paper key of a run rule (``<key>_run``, ``<key>_run_<more>``: ``nonmanip_run_pomisplus``), whose jobs size
    their own memory request (RunJob.memory_mb; the profile states their runtime only); None for any other rule."""
    key, run, rest = rule.partition("_run")
    return key if run and key in PAPERS and rest[:1] in ("", "_") else None


def kind_peaks(manifest: dict) -> dict[str, dict[str, float]]:
    """Paper -> kind of run job (``experiment/strategy/algorithm``) -> its figure: the largest peak of its jobs in
    ``manifest``, at most :data:`SPREAD` times the smallest (MB, rounded up to 0.1)."""
    peaks: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for job in manifest["jobs"]:
        if key := paper_of(job["rule"]):
            peaks[key]["/".join(kind(job["wildcards"]))].append(job["max_rss_mb"])
    return {
        key: {kind: math.ceil(10 * min(max(mb), SPREAD * min(mb))) / 10 for kind, mb in sorted(kinds.items())}
        for key, kinds in sorted(peaks.items())
    }


def per_measured_seeds(figures: dict[str, dict[str, float]], config: dict) -> dict[str, dict[str, float]]:
    """``figures`` (:func:`kind_peaks`) with nonmanip's POMIS+ kinds as a job of ``MEASURED_SEEDS`` seeds and
    ``MEASURED_BOOTSTRAP`` replicates would peak: the run module grows a figure's excess over the same panel and solver
    under POMIS (the process without the replicates) by a job's seeds and B over those, so a panel whose jobs hold
    other seeds in ``config`` (``pomis_plus.panel_seeds_per_job``) is scaled back to them (MB, rounded up to 0.1)."""
    section, out = config["nonmanip"], {key: dict(kinds) for key, kinds in figures.items()}
    for name, mb in figures.get("nonmanip", {}).items():
        panel, strategy, algorithm = name.split("/")
        base = figures["nonmanip"].get(f"{panel}/POMIS/{algorithm}")
        if strategy != POMIS_PLUS or base is None:
            continue
        seeds = len(nonmanip_runs.chunks(section, config["seeds_per_job"], POMIS_PLUS, panel)[0])
        growth = nonmanip_runs.state_growth(section["pomis_plus"], seeds)
        out["nonmanip"][name] = math.ceil(10 * (base + (mb - base) / growth)) / 10
    return out


def write_peaks(manifest: dict, path: Path, config: dict) -> None:
    """Write :func:`kind_peaks` of ``manifest`` (:func:`per_measured_seeds` under ``config``, the run's) to ``path``
    (``runs.PEAKS_FILE``). The file names the archive, not its commit: the archive's manifest records that, and the
    file is package data, which states current figures only (tests/test_docs_record.py)."""
    header = (
        "# The measured peak resident memory (MB, VmHWM) of each kind of run job (its wildcards but its chunk:\n"
        "# experiment/strategy/algorithm, strategy * for a batch of every budget), the largest of its jobs but\n"
        f"# at most {SPREAD} times the smallest, in the release's archived paper-scale run (its manifest.json).\n"
        "# A run job asks for causal_bandits.runs.MEMORY_MARGIN over its kind's figure\n"
        "# (causal_bandits.runs.measured_peak: a kind not here, the largest of those most like it). A POMIS+ figure\n"
        "# is that of a job of causal_bandits.papers.nonmanip.runs.MEASURED_SEEDS seeds (the jobs grow it with\n"
        "# their seeds): a panel measured in jobs of other seeds is scaled back to them.\n"
        "# Written by: python benchmarks/resources.py --write-peaks\n"
    )
    peaks = per_measured_seeds(kind_peaks(manifest), config)
    body = yaml.safe_dump({"peaks": peaks}, sort_keys=False, width=120)
    path.write_text(header + body)


def requests(manifest: dict) -> dict[str, dict[str, int]]:
    """Rule -> {"mem_mb": ..., "runtime": ...} (run rules: runtime only)."""
    jobs = defaultdict(list)
    for job in manifest["jobs"]:
        jobs[job["rule"]].append(job)
    out = {}
    for rule, js in sorted(jobs.items()):
        runtime = max(MIN_RUNTIME, math.ceil(2 * max(j["wall_s"] for j in js) / 60))
        out[rule] = {"runtime": runtime}
        if not paper_of(rule) and rule not in OWN_MEMORY:
            out[rule]["mem_mb"] = math.ceil(MEMORY_MARGIN * max(j["max_rss_mb"] for j in js))
    return out


def run_job_ratios(manifest: dict, config: dict) -> dict[str, list[float]]:
    """Run rule -> each of its jobs' own memory request (``RunJob.memory_mb``, from its paper's run module on
    ``config``) over the job's peak in ``manifest``."""
    ratios = defaultdict(list)
    for job in manifest["jobs"]:
        if key := paper_of(job["rule"]):
            module = importlib.import_module(paper(key).runs)
            ratios[job["rule"]].append(module.describe(config, job["wildcards"]).memory_mb / job["max_rss_mb"])
    return dict(ratios)


def profile_lines(wanted: dict[str, dict[str, int]]) -> list[str]:
    """The requests as a profile's ``set-resources`` entries, one line a rule."""
    lines = []
    for rule, want in wanted.items():
        items = ", ".join(f'{key}: "{value} * attempt"' for key, value in sorted(want.items()))
        lines.append(f"  {rule}: {{{items}}}")
    return lines


def write_profile(wanted: dict[str, dict[str, int]], path: Path) -> None:
    """Replace the ``set-resources:`` block of the profile at ``path`` (its comments and other keys kept)."""
    lines = path.read_text().splitlines()
    if "set-resources:" not in lines:
        raise SystemExit(f"{path} has no 'set-resources:' line to rewrite: add one")
    start = end = lines.index("set-resources:") + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    lines[start:end] = profile_lines(wanted)
    path.write_text("\n".join(lines) + "\n")


def stated(value: str | int) -> int:
    """A profile's ``"400 * attempt"`` as 400 (the first attempt's request)."""
    return int(str(value).split("*")[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=Path("archive/paper-scale/manifest.json"))
    parser.add_argument("--check", type=Path, help="a profile whose set-resources must state these requests")
    parser.add_argument("--configfile", type=Path, default=Path("config/config.yaml"), help="the run's config")
    parser.add_argument("--write-profile", type=Path, help="rewrite this profile's set-resources with these requests")
    parser.add_argument(
        "--write-peaks", nargs="?", type=Path, const=PEAKS_FILE, help=f"write the run jobs' peaks (to {PEAKS_FILE})"
    )
    args = parser.parse_args()
    manifest = json.loads(args.archive.read_text())
    config = cb_config.validate(cb_config.load(args.configfile))
    if args.write_peaks:
        write_peaks(manifest, args.write_peaks, config)
        print(f"wrote {args.write_peaks}")
    wanted = requests(manifest)
    ratios = run_job_ratios(manifest, config)
    peaks = defaultdict(list)
    for job in manifest["jobs"]:
        peaks[job["rule"]].append(job["max_rss_mb"])
    print(f"request/peak: each run job's own request, from {PEAKS_FILE}, over its peak in {args.archive}")
    print(f"{'rule':34s} {'jobs':>5s} {'peak MB':>15s} {'mem_mb':>7s} {'runtime':>8s}  request/peak")
    for rule, want in wanted.items():
        low, high = min(peaks[rule]), max(peaks[rule])
        mem = want.get("mem_mb", "job")
        over = f"  {min(ratios[rule]):.2f}-{max(ratios[rule]):.2f}" if rule in ratios else ""
        print(f"{rule:34s} {len(peaks[rule]):5d} {low:7.0f}-{high:<7.0f} {mem!s:>7s} {want['runtime']:7d}m{over}")
    if args.write_profile:
        write_profile(wanted, args.write_profile)
        print(f"wrote the set-resources of {args.write_profile}")
    if args.check is None:
        print("\n".join(profile_lines(wanted)))
        return
    profile = yaml.safe_load(args.check.read_text()).get("set-resources", {})
    differ = []
    for rule, want in wanted.items():
        have = {k: stated(v) for k, v in profile.get(rule, {}).items() if k in ("mem_mb", "runtime")}
        if have != want:
            differ.append(f"{rule}: profile {have}, measured {want}")
    low, high = RUN_JOB_BOUNDS
    outside = [
        f"{rule}: its jobs ask for {min(over):.2f}-{max(over):.2f} times their peaks, not {low}-{high}: refit "
        "the peaks (--write-peaks, docs/performance.md#memory-requests)"
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
