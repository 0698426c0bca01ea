"""Combinatorial pure exploration: what the workflow's steps read, as plain functions of the config (and a job's
wildcards): the rule file wraps them (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from causal_bandits.papers.cpe import PAPER, design
from causal_bandits.papers.cpe.design import Job
from causal_bandits.papers.cpe.runs import chunks
from causal_bandits.run_paths import run_files
from causal_bandits.store import summary_path


def jobs(section: Mapping[str, Any]) -> list[Job]:
    """The design jobs of the experiments this config runs, in config order."""
    chosen = design.experiments_run(section)
    return [j for j in design.jobs(section) if j.experiment in chosen]


def run_files_of_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run's files, in design order: each design job (a budget batch's jobs one by one, each
    writing its own files), each chunk, with the ``design`` experiment it belongs to."""
    for j in jobs(config[PAPER]):
        for k in range(len(chunks(config, j))):
            yield {"design": j.experiment, "experiment": j.key, "strategy": j.strategy, "algorithm": j.algorithm} | {
                "chunk": str(k)
            }


def experiment_inputs(config: Mapping[str, Any], experiment: str) -> dict[str, list[str]]:
    """An experiment's aggregate reads: every run's per-seed summaries (:func:`causal_bandits.run_paths.run_files`),
    its configs' instances and quantities."""
    traces = run_files(PAPER, run_files_of_jobs(config), "{design}", design=experiment).get(experiment, [])
    configs = sorted({j.config for j in jobs(config[PAPER]) if j.experiment == experiment})
    return {
        "runs": [summary_path(trace) for trace in traces],
        "instances": [f"results/cpe/instances/{experiment}/{c}.json" for c in configs],
        "quantities": [f"results/cpe/quantities/{experiment}/{c}.json" for c in configs],
    }
