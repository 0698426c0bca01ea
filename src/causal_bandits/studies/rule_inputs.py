"""What the studies' report steps read: the per-seed summaries of their runs (and of the main run's seeds they pair
with), as plain functions of the config, by ``<run or point>/<panel or instance>/.../<solver>``. The studies' rule
files pass them to their report rules (Snakemake's linter keeps functions out of rule files)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.run_paths import run_path, study_run_path
from causal_bandits.store import summary_path
from causal_bandits.studies import knobs, robustness, robustness_instances, same_means
from causal_bandits.studies.runs import chunks


def _main_chunks(config: Mapping[str, Any], n_seeds: int) -> list[int]:
    """The main run's POMIS+ chunks that hold seeds 0..n_seeds-1."""
    found = nonmanip_runs.chunks(config["nonmanip"], config["seeds_per_job"], POMIS_PLUS)
    return [k for k, chunk in enumerate(found) if chunk.start < n_seeds]


def refresh_summaries(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The refresh study's runs and the main POMIS+ chunks that hold its seeds, by ``main|study/<panel>/<solver>``."""
    section = config["studies"]["refresh"]
    paths = {
        "main": (run_path("nonmanip"), _main_chunks(config, section["n_seeds"])),
        "study": (study_run_path("refresh"), range(len(chunks(section)))),
    }
    return {
        f"{run}/{panel}/{algorithm}": [
            summary_path(path).format(
                point=section["schedule"], experiment=panel, strategy=POMIS_PLUS, algorithm=algorithm, chunk=k
            )
            for k in found
        ]
        for panel in config["nonmanip"]["panels"]
        for algorithm in section["algorithms"]
        for run, (path, found) in paths.items()
    }


def knobs_summaries(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every point's runs and the main run's chunks that hold the study's seeds, by ``<point>/<panel>/<solver>``."""
    section, panels = config["studies"]["knobs"], list(config["nonmanip"]["panels"])
    main, path = _main_chunks(config, section["n_seeds"]), summary_path(study_run_path("knobs"))
    out = {
        f"{knobs.MAIN}/{panel}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=panel, strategy=POMIS_PLUS, algorithm=a, chunk=k)
            for k in main
        ]
        for panel in panels
        for a in section["algorithms"]
    }
    for point, spec in knobs.runs_of(section, config["nonmanip"]["pomis_plus"]).items():
        for panel in panels:
            for a in section["algorithms"]:
                if knobs.plays(spec, a):
                    out[f"{point}/{panel}/{a}"] = [
                        path.format(point=point, experiment=panel, strategy=POMIS_PLUS, algorithm=a, chunk=k)
                        for k in range(len(chunks(section)))
                    ]
    return out


def same_means_summaries(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every point's runs, by ``<point>/<panel>/<strategy>/<solver>``."""
    section, path = config["studies"]["same_means"], summary_path(study_run_path("same_means"))
    return {
        f"{point}/{panel}/{s}/{a}": [
            path.format(point=point, experiment=panel, strategy=s, algorithm=a, chunk=k)
            for k in range(len(chunks(section)))
        ]
        for panel in config["nonmanip"]["panels"]
        for point in map(str, range(section["n_points"]))
        for s in same_means.STRATEGIES
        for a in section["algorithms"]
    }


def robustness_summaries(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every instance's runs, by ``<instance>/<strategy>/<solver>``."""
    section, path = config["studies"]["robustness"], summary_path(study_run_path("robustness"))
    found = robustness_instances.instances(section, list(config["nonmanip"]["panels"]))
    return {
        f"{i.id}/{s}/{a}": [
            path.format(point=i.family, experiment=i.id, strategy=s, algorithm=a, chunk=k)
            for k in range(len(chunks(section)))
        ]
        for i in found.values()
        for s in section["strategies"]
        for a in section["algorithms"]
        if robustness.plays(s, a)
    }
