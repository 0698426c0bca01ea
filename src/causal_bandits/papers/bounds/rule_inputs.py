"""Huang & Wu: what the workflow's steps read, as plain functions of the config (and a job's wildcards): the rule
file wraps them (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.papers.bounds import PAPER
from causal_bandits.papers.bounds.runs import coordinates, run_jobs
from causal_bandits.run_paths import run_files


def run_inputs(section: Mapping[str, Any]) -> dict[str, str]:
    """A run job's inputs: the exact truth, the offline estimates and their summary, and the offline rows when
    the contexts come from them (``online.context_source``)."""
    inputs = {
        "exact": "results/bounds/exact.json",
        "estimates": "results/bounds/offline/estimates_conditional.parquet",
        "summary": "results/bounds/offline/summary.json",
    }
    if section["online"]["context_source"] == "offline_rows":
        inputs["full"] = "data/generated/bounds/full.parquet"
    return inputs


def setting_runs(config: Mapping[str, Any], setting: str) -> dict[str, list[str]]:
    """The trace files of a setting's runs, by algorithm (the aggregate's inputs)."""
    experiment, strategy = coordinates(setting)
    return run_files(PAPER, run_jobs(config), "{algorithm}", experiment=experiment, strategy=strategy)
