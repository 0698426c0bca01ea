"""Huang, Zhang & Wu: what the workflow's steps read, as plain functions of the config (and a job's wildcards): the
rule file wraps them (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from causal_bandits.data.raw import RawFile, locate
from causal_bandits.papers.fairness import PAPER
from causal_bandits.papers.fairness.runs import run_jobs
from causal_bandits.run_paths import run_files
from causal_bandits.store import summary_path


def raw_files(section: Mapping[str, Any]) -> dict[str, list[RawFile]]:
    """The pinned raw files of each data set (``fairness.raw``)."""
    raw = section["raw"]
    return {"adult": [RawFile.from_config(raw["adult"])], "youtube": [RawFile.from_config(e) for e in raw["youtube"]]}


def source(config: Mapping[str, Any], spec: RawFile) -> str:
    """Where a pinned raw file comes from: the raw-data directory, a stand-in (``raw.on_missing: standin``), or a
    download into the raw-data directory."""
    raw_dir = config["data"]["raw_dir"]
    found = locate(raw_dir, spec)
    if found is not None:
        return str(found)
    if config[PAPER]["raw"]["on_missing"] == "standin":
        return f"data/standin/{spec.path}"
    return os.path.join(raw_dir, spec.path)


def raw_paths(config: Mapping[str, Any], dataset: str) -> list[str]:
    """The files of a data set's raw files, wherever they come from (:func:`source`)."""
    return [source(config, spec) for spec in raw_files(config[PAPER])[dataset]]


def experiment_runs(config: Mapping[str, Any], experiment: str) -> dict[str, list[str]]:
    """The trace files of every algorithm of an experiment, by algorithm, and all their summaries (the aggregate's
    inputs)."""
    files = run_files(PAPER, run_jobs(config), "{algorithm}", experiment=experiment)
    return {**files, "summaries": [summary_path(f) for paths in files.values() for f in paths]}
