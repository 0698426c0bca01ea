"""What the studies' report steps read: the per-seed summaries of their runs (and of the main run's seeds they pair
with), as plain functions of the config, by the study's :attr:`~causal_bandits.studies.Study.run_key`. Every file is
one a run rule makes: the paths come from the study's ``run_jobs`` (the enumeration the cost check reads too) through
:func:`causal_bandits.run_paths.run_files`. The studies' rule files pass them to their report rules (Snakemake's
linter keeps functions out of rule files)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from causal_bandits import studies
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.run_paths import run_files
from causal_bandits.store import summary_path
from causal_bandits.studies import knobs


def _summaries(group: str, jobs: Iterable[Mapping[str, str]], key: str) -> dict[str, list[str]]:
    """The summary files of the run jobs ``jobs`` of ``group``, by ``key`` (a template of their wildcards)."""
    return {name: [summary_path(f) for f in found] for name, found in run_files(group, jobs, key).items()}


def summaries(name: str, config: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every run of study ``name``, by its run key (``<point>/<panel>/<strategy>/<solver>``, ...)."""
    record = studies.study(name)
    return _summaries(f"studies/{name}/{{point}}", studies.module(name).run_jobs(config), record.run_key)


def main_summaries(config: Mapping[str, Any], n_seeds: int, solvers: list[str]) -> dict[str, list[str]]:
    """The main run's POMIS+ chunks that hold seeds 0..n_seeds-1, by ``<panel>/<solver>`` for each of ``solvers``."""
    section = config["nonmanip"]
    held = {
        panel: {
            str(k)
            for k, chunk in enumerate(nonmanip_runs.chunks(section, config["seeds_per_job"], POMIS_PLUS, panel))
            if chunk.start < n_seeds
        }
        for panel in section["panels"]
    }
    jobs = (
        wc
        for wc in nonmanip_runs.run_jobs(config)
        if wc["strategy"] == POMIS_PLUS and wc["chunk"] in held[wc["experiment"]]
    )
    main = _summaries("nonmanip", jobs, "{experiment}/{algorithm}")
    return {f"{panel}/{a}": main[f"{panel}/{a}"] for panel in config["nonmanip"]["panels"] for a in solvers}


def refresh_summaries(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The refresh study's runs and the main POMIS+ chunks that hold its seeds, by ``main|study/<panel>/<solver>``."""
    section = config["studies"]["refresh"]
    main = main_summaries(config, section["n_seeds"], section["algorithms"])
    study = summaries("refresh", config)
    return {f"{run}/{key}": found[key] for key in study for run, found in (("main", main), ("study", study))}


def knobs_summaries(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The main run's chunks that hold the study's seeds (point ``main``) and every point's runs, by
    ``<point>/<panel>/<solver>``."""
    section = config["studies"]["knobs"]
    main = main_summaries(config, section["n_seeds"], section["algorithms"])
    return {**{f"{knobs.MAIN}/{key}": found for key, found in main.items()}, **summaries("knobs", config)}
