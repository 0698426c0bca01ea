"""What a config plans, said before any job runs: the cost of what it adds beside the papers, and the pairs it
names and does not run.

``causal-bandits check-config`` and the workflow (when it parses) print these lines under the run's estimated
cost (:mod:`causal_bandits.cost`):

* one line per own experiment and per study: its CPU-hours and run jobs, apart from the papers' total, so that
  the cost of an experiment added to the paper-scale config is not lost in the papers' hours;
* one line per (strategy, algorithm) pair a config names and does not run, with why: POMIS+ plays the z² version
  of a solver (Lee & Bareinboim, AAAI-19, §5), so a solver without one does not play it (nonmanip's section and
  own experiments, :func:`causal_bandits.experiments.config.skipped_pairs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import cost
from causal_bandits.experiments import config as experiments_config
from causal_bandits.experiments import pure_exploration
from causal_bandits.papers import PAPERS, paper


def skipped(config: Mapping[str, Any]) -> list[str]:
    """One line per (strategy, algorithm) pair the config names and does not run, with the reason."""
    lines = [line for key in PAPERS if key in config for line in paper(key).skipped(config[key])]
    lines += experiments_config.skipped(config.get("experiments") or {})
    for name, experiment in (config.get(pure_exploration.KEY) or {}).items():
        for algorithm, reason in pure_exploration.skipped(experiment["algorithms"], experiment.get("bglm")).items():
            lines.append(f"{pure_exploration.KEY}.{name}: {algorithm} is not run: {reason}")
    return lines


def added(config: Mapping[str, Any], found: cost.Estimate) -> list[str]:
    """One line per own experiment and per study of the (checked) config: its cost apart from the papers'."""
    lines = []
    papers = [p for p in PAPERS if p in config]
    if papers and (config.get("experiments") or config.get("studies") or config.get(pure_exploration.KEY)):
        hours = sum(found.cpu_hours.get(p, 0.0) for p in papers)
        lines.append(f"  the papers ({', '.join(papers)}): {hours:.2g} CPU-h")
    alone = {k: v for k, v in config.items() if k not in (*PAPERS, "experiments", "studies", pure_exploration.KEY)}
    for name, experiment in (config.get("experiments") or {}).items():
        own = cost.estimate({**alone, "experiments": {name: experiment}})
        lines.append(
            f"  own experiment {name}: {own.total:.2g} CPU-h, {own.jobs} run jobs "
            f"(T = {experiment['horizon']:,}, {experiment['n_seeds']} seeds)"
        )
    for name, experiment in (config.get(pure_exploration.KEY) or {}).items():
        own = cost.estimate({**alone, pure_exploration.KEY: {name: experiment}})
        lines.append(
            f"  pure exploration {name}: {own.total:.2g} CPU-h, {own.jobs} run jobs "
            f"({experiment['n_seeds']} seeds, at most {experiment['max_samples']:,} samples each)"
        )
    counts = cost.run_job_counts(config)
    for name in config.get("studies") or {}:
        if name in found.cpu_hours:
            lines.append(f"  study {name}: {found.cpu_hours[name]:.2g} CPU-h, {counts.get(name, 0)} run jobs")
    return lines
