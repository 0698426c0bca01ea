"""What a config plans, said before any job runs: the cost of what it adds beside the papers, and the pairs it
names and does not run.

``causal-bandits check-config`` and the workflow (when it parses) print these lines under the run's estimated
cost (:mod:`causal_bandits.cost`):

* one line per own experiment, per study and per algorithm added to a paper's section (an entry registered with
  ``addition=True``, :attr:`causal_bandits.cost.Estimate.additions`): its CPU-hours and run jobs, apart from the
  papers' total, so that the cost of what a researcher adds to the paper-scale config is not lost in the papers'
  hours;
* one line per (strategy, algorithm) pair a config names and does not run, with why: POMIS+ plays the z² version
  of a solver (Lee & Bareinboim, AAAI-19, §5), so a solver without one does not play it (nonmanip's section and
  own experiments, :func:`causal_bandits.experiments.config.skipped_pairs`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from causal_bandits import algorithms, cost
from causal_bandits.errors import ConfigError
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
    """One line per own experiment, per study and per algorithm added to a paper of the (checked) config: its cost
    apart from the papers' (under a line of the papers' own hours, where the config adds anything)."""
    return [line for lines in _lines(config, found).values() for line in lines]


def _lines(config: Mapping[str, Any], found: cost.Estimate) -> dict[str, list[str]]:
    """:func:`added`'s lines by what they cost: ``""`` the papers', a paper's key its additions', an experiment's
    or a study's name its own."""
    out: dict[str, list[str]] = {}
    papers = [p for p in PAPERS if p in config]
    if papers and (
        config.get("experiments") or config.get("studies") or config.get(pure_exploration.KEY) or found.additions
    ):
        hours = sum(found.cpu_hours.get(p, 0.0) for p in papers) - sum(h for h, _ in found.additions.values())
        out[""] = [f"  the papers ({', '.join(papers)}): {hours:.2g} CPU-h"]
    for (key, algorithm), (hours, runs) in found.additions.items():
        label = algorithms.registry(key)[algorithm].label
        out.setdefault(key, []).append(
            f"  {label} added to {key}: {hours:.2g} CPU-h, {runs} runs of one seed chunk each"
        )
    alone = {k: v for k, v in config.items() if k not in (*PAPERS, "experiments", "studies", pure_exploration.KEY)}
    for name, experiment in (config.get("experiments") or {}).items():
        own = cost.estimate({**alone, "experiments": {name: experiment}})
        out.setdefault(name, []).append(
            f"  own experiment {name}: {own.total:.2g} CPU-h, {own.jobs} run jobs "
            f"(T = {experiment['horizon']:,}, {experiment['n_seeds']} seeds)"
        )
    for name, experiment in (config.get(pure_exploration.KEY) or {}).items():
        own = cost.estimate({**alone, pure_exploration.KEY: {name: experiment}})
        out.setdefault(name, []).append(
            f"  pure exploration {name}: {own.total:.2g} CPU-h, {own.jobs} run jobs "
            f"({experiment['n_seeds']} seeds, at most {experiment['max_samples']:,} samples each)"
        )
    counts = cost.run_job_counts(config)
    for name in config.get("studies") or {}:
        if name in found.cpu_hours:
            hours, jobs = found.cpu_hours[name], counts.get(name, 0)
            out.setdefault(name, []).append(f"  study {name}: {hours:.2g} CPU-h, {jobs} run jobs")
    return out


def parts(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """What one name of the (checked) config stands for, as Snakemake targets: an own experiment or a pure-exploration
    experiment its output files, a configured paper or study the workflow's rule of that name."""
    from causal_bandits.experiments.rule_inputs import figures

    out: dict[str, list[str]] = {name: figures(name) for name in config.get("experiments") or {}}
    out |= {name: pure_exploration.outputs(name) for name in config.get(pure_exploration.KEY) or {}}
    out |= {name: [name] for name in [*(p for p in PAPERS if p in config), *(config.get("studies") or {})]}
    return out


def targets(config: Mapping[str, Any], name: str) -> list[str]:
    """The Snakemake targets of ``name`` (:func:`parts`); a name the config does not hold raises a one-line
    ConfigError with the closest one."""
    found = parts(config)
    if name not in found:
        close = difflib.get_close_matches(name, list(found), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ConfigError(
            f"{name!r} (EXPERIMENT=, --experiment) is no experiment, paper or study of this config; {hint}use one "
            f"of {', '.join(found)}, or name the config file that holds it (CONFIGS=)"
        )
    return found[name]


def cost_of(config: Mapping[str, Any], found: cost.Estimate, name: str) -> list[str]:
    """The cost lines of ``name`` alone (:func:`targets` checks the name): a paper's hours (its additions among them)
    and its additions' lines, or the line :func:`added` gives that experiment or study."""
    targets(config, name)
    own = _lines(config, found).get(name, [])
    if name in PAPERS and name in found.cpu_hours:
        among = ", the additions below among them" if own else ""
        return [f"  {name}: {found.cpu_hours[name]:.2g} CPU-h{among}", *own]
    return own
