"""Combinatorial pure exploration: what the workflow's steps read, as plain functions of the config (and a job's
wildcards): the rule file wraps them (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.papers.cpe import PAPER, design
from causal_bandits.papers.cpe.design import Job
from causal_bandits.papers.cpe.runs import chunks
from causal_bandits.run_paths import run_path
from causal_bandits.store import summary_path


def jobs(section: Mapping[str, Any]) -> list[Job]:
    """The design jobs of the experiments this config runs, in config order."""
    chosen = design.experiments_run(section)
    return [j for j in design.jobs(section) if j.experiment in chosen]


def experiment_inputs(config: Mapping[str, Any], experiment: str) -> dict[str, list[str]]:
    """An experiment's aggregate reads: every run's per-seed summaries, its configs' instances and quantities."""
    found = [j for j in jobs(config[PAPER]) if j.experiment == experiment]
    template = summary_path(run_path(PAPER))
    runs = [
        template.format(experiment=j.key, strategy=j.strategy, algorithm=j.algorithm, chunk=k)
        for j in found
        for k in range(len(chunks(config, j)))
    ]
    configs = sorted({j.config for j in found})
    return {
        "runs": runs,
        "instances": [f"results/cpe/instances/{experiment}/{c}.json" for c in configs],
        "quantities": [f"results/cpe/quantities/{experiment}/{c}.json" for c in configs],
    }
