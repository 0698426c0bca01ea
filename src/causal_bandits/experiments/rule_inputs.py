"""Own experiments: what the workflow's steps read and write, as plain functions of the config (and a job's
wildcards): the rule file wraps them (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.papers.nonmanip import POMIS_PLUS

#: Where an own experiment's results go.
RESULTS = "results/experiments"


def figures(name: str) -> list[str]:
    """An own experiment's final outputs: its table (CSV, Markdown) and regret figure (PDF, PNG)."""
    return [f"figures/experiments/{name}/{f}" for f in ("table.csv", "table.md", "regret.pdf", "regret.png")]


def instance_inputs(config: Mapping[str, Any], name: str) -> list[str]:
    """The diagram's JSON file when the experiment names one (else its diagram is written in the config)."""
    diagram = config["experiments"][name]["diagram"]
    return [diagram] if isinstance(diagram, str) else []


def run_inputs(name: str, strategy: str) -> dict[str, str]:
    """A run job's inputs: the instance, and under POMIS+ its expression catalogue."""
    out = {"instance": f"{RESULTS}/{name}/instance.json"}
    if strategy == POMIS_PLUS:
        out["catalogue"] = f"{RESULTS}/{name}/catalogue.json"
    return out
