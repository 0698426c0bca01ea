"""The cost check's model (causal_bandits.cost) against an archived paper-scale run, and the constants that fit it.

For each paper: the model's CPU-hours for the config (``estimate``) beside the archive's exact per-job CPU
(``cost.measured``), and their ratio (the tests hold each within a factor of 2). For each run rule: its jobs, their
measured CPU, the model's simulation seconds for them (``cpu_seconds`` of every job the rule ran, at the rates in
``papers/<key>/config.py``), and the factor by which those rates would fit the run (after the start-up
``cost.START_UP_S`` per job); for each paper the share of its other jobs' CPU over its runs' (``OTHER_SHARE``). The
last line is one JSON object with every number.

Usage: ``python benchmarks/cost_model.py [--archive archive/paper-scale] [--configfile config/config.yaml ...]``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from resources import paper_of
from wall_time import describer

from causal_bandits import config as cb_config
from causal_bandits import cost

ROOT = Path(__file__).resolve().parents[1]


def number(value: float | None, width: int) -> str:
    """``value`` to three decimals in ``width`` characters, ``-`` where there is none (a paper without run jobs)."""
    return f"{'-':>{width}s}" if value is None else f"{value:{width}.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ROOT / "archive" / "paper-scale")
    parser.add_argument("--configfile", nargs="+", type=Path, default=[ROOT / "config" / "config.yaml"])
    args = parser.parse_args()
    manifest = json.loads((args.archive / "manifest.json").read_text())
    config = cb_config.check(cb_config.load(*args.configfile))
    model, found = cost.estimate(config).cpu_hours, cost.measured(manifest)

    rules: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])  # jobs, measured CPU-s, model simulation s
    runs_s: dict[str, float] = defaultdict(float)
    for job in manifest["jobs"]:
        if key := paper_of(job["rule"]):
            described = describer(job["rule"])(config, job["wildcards"])
            row = rules[job["rule"]]
            row[0] += 1
            row[1] += job["cpu_s"]
            row[2] += sum(cost.simulation_seconds(member) for member in cost.members(described))
            runs_s[key] += job["cpu_s"]

    print(
        f"the model against {args.archive.relative_to(ROOT) if args.archive.is_relative_to(ROOT) else args.archive}"
        f" (commit {manifest['provenance']['commit'][:7]}), CPU-h"
    )
    print(f"{'paper':15s} {'model':>7s} {'measured':>9s} {'ratio':>6s} {'other share':>12s}")
    share = {}
    for key, hours in found.items():
        share[key] = (hours * 3600 - runs_s[key]) / runs_s[key] if runs_s[key] else None
        ratio = model.get(key, 0.0) / hours if hours else float("nan")
        print(f"{key:15s} {model.get(key, 0.0):7.3f} {hours:9.3f} {ratio:6.2f} {number(share[key], 12)}")
    print(f"{'total':15s} {sum(model.values()):7.3f} {sum(found.values()):9.3f}")
    print(f"\nrun rules: simulation rates that fit (after {cost.START_UP_S} s start-up per job)")
    print(f"{'rule':28s} {'jobs':>5s} {'CPU-s':>8s} {'model s':>8s} {'fit x':>6s}")
    fits = {}
    for rule, (jobs, cpu, sim) in sorted(rules.items()):
        fits[rule] = (cpu - cost.START_UP_S * jobs) / sim if sim else None
        print(f"{rule:28s} {jobs:5d} {cpu:8.1f} {sim:8.1f} {number(fits[rule], 6)}")
    print(
        json.dumps(
            {
                "model_hours": model,
                "measured_hours": found,
                "other_share": share,
                "rate_fit": fits,
                "start_up_s": cost.START_UP_S,
                "commit": manifest["provenance"]["commit"],
            }
        )
    )


if __name__ == "__main__":
    main()
