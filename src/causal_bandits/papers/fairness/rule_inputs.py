"""Huang, Zhang & Wu: what the workflow's steps read, as plain functions of the config (and a job's wildcards): the
rule file wraps them (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from causal_bandits.data.raw import STANDIN_DIR, RawFile, present
from causal_bandits.papers.fairness import PAPER
from causal_bandits.papers.fairness.runs import run_jobs
from causal_bandits.run_paths import run_files
from causal_bandits.store import summary_path


def raw_entries(section: Mapping[str, Any]) -> dict[str, list[Mapping[str, Any]]]:
    """The config entries of each data set's pinned raw files (``fairness.raw``): the one map from a data set
    (``adult``, ``youtube``) to its raw files."""
    raw = section["raw"]
    return {"adult": [raw["adult"]], "youtube": list(raw["youtube"])}


class RawSource(NamedTuple):
    """One pinned raw file as a run finds it: its data set, config ``entry``, pinned ``spec``, the ``path`` a rule
    reads it from, and whether it was ``found`` under the raw-data directory (and its sha256 checked)."""

    dataset: str
    entry: Mapping[str, Any]
    spec: RawFile
    path: str
    found: bool


def raw_sources(config: Mapping[str, Any], cache: str) -> dict[str, RawSource]:
    """Every pinned raw file by its pinned path, located once under the raw-data directory and, when found there,
    checked against its sha256 once (through the checksum ``cache``: :func:`causal_bandits.data.raw.present`; a
    wrong file raises the one-line DataError); a missing one comes from a stand-in (``raw.on_missing: standin``,
    under :data:`~causal_bandits.data.raw.STANDIN_DIR`) or a download into the raw-data directory."""
    raw_dir, section = config["data"]["raw_dir"], config[PAPER]
    pinned = [(dataset, e, RawFile.from_config(e)) for dataset, es in raw_entries(section).items() for e in es]
    found = present(raw_dir, [spec for _, _, spec in pinned], cache)
    missing = STANDIN_DIR if section["raw"]["on_missing"] == "standin" else raw_dir
    return {
        spec.path: RawSource(
            dataset,
            entry,
            spec,
            os.path.join(missing, spec.path) if found[spec.path] is None else str(found[spec.path]),
            found[spec.path] is not None,
        )
        for dataset, entry, spec in pinned
    }


def dataset_files(sources: Mapping[str, RawSource], dataset: str) -> list[RawSource]:
    """The raw files of ``dataset``, in config order."""
    return [s for s in sources.values() if s.dataset == dataset]


def experiment_runs(config: Mapping[str, Any], experiment: str) -> dict[str, list[str]]:
    """The trace files of every algorithm of an experiment, by algorithm, and all their summaries (the aggregate's
    inputs)."""
    files = run_files(PAPER, run_jobs(config), "{algorithm}", experiment=experiment)
    return {**files, "summaries": [summary_path(f) for paths in files.values() for f in paths]}
