"""The run jobs of the studies that rerun nonmanip's experiments (refresh, knobs, same_means, robustness).

Each ``<study>(config, wildcards)`` describes one seed chunk (:class:`causal_bandits.runs.RunJob`) for
nonmanip's runner (:func:`causal_bandits.papers.nonmanip.runs.solver_job`): the study's seeds, what the
study changes and what else its results depend on. Their random streams are the paper's, keyed by the
experiment (the panel, or the study instance's own name), so seed s of a study pairs with seed s of the main
run. Read at planning time only: a run job imports its runner, never this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from causal_bandits import runs
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import knobs as study_knobs
from causal_bandits.studies import refresh as study_refresh
from causal_bandits.studies import robustness as study_robustness
from causal_bandits.studies import robustness_instances
from causal_bandits.studies import same_means as study_same_means
from causal_bandits.studies.same_means_family import stream_key


def chunks(section: Mapping[str, Any]) -> runs.Chunks:
    """Seed chunks of a study's runs (speed only: a seed's streams do not depend on its chunk)."""
    return runs.chunk_seeds(section["n_seeds"], section["seeds_per_job"])


def _panel_science(config: Mapping[str, Any], panel: str) -> dict[str, Any]:
    """What a rerun of a Figure 5 panel depends on, as the main run's (:func:`nonmanip_runs.describe`)."""
    section = config["nonmanip"]
    return {"panel": section["panels"][panel], "horizon": section["horizon"], "record_points": config["record_points"]}


def refresh(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """POMIS+ on a panel under the study's refresh schedule, the main run's settings otherwise."""
    section = config["studies"]["refresh"]
    science = _panel_science(config, wildcards["experiment"])
    return nonmanip_runs.solver_job(config, wildcards, chunks(section), science, changes=study_refresh.changes(section))


def knobs(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """POMIS+ on a panel with the point's z² setting changed, the main run's otherwise."""
    section = config["studies"]["knobs"]
    point = study_knobs.runs_of(section, config["nonmanip"]["pomis_plus"])[wildcards["point"]]
    science = _panel_science(config, wildcards["experiment"])
    return nonmanip_runs.solver_job(config, wildcards, chunks(section), science, changes={point.knob: point.value})


def same_means(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """POMIS or POMIS+ on a same-means point of a panel: the point's instance has streams of its own."""
    section, panel = config["studies"]["same_means"], wildcards["experiment"]
    science = {**_panel_science(config, panel), "sweep": study_same_means.settings(section, panel)}
    return nonmanip_runs.solver_job(
        config, wildcards, chunks(section), science, experiment=stream_key(panel, int(wildcards["point"]))
    )


def robustness(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A strategy with a solver on one of the study's instances (a graph, or a random SCM of a panel), at the
    study's horizon."""
    section = config["studies"]["robustness"]
    panels = config["nonmanip"]["panels"]
    instance = robustness_instances.instances(section, list(panels))[wildcards["experiment"]]
    science = {
        "panel": robustness_instances.instance_config(instance, section, panels),
        "horizon": section["horizon"],
        "record_points": config["record_points"],
    }
    return nonmanip_runs.solver_job(config, wildcards, chunks(section), science)


def _wildcards(point: str, experiment: str, strategy: str, algorithm: str, section: Mapping[str, Any]):
    """One job's wildcards per chunk of a study's runs."""
    for k in range(len(chunks(section))):
        yield {"point": point, "experiment": experiment, "strategy": strategy, "algorithm": algorithm, "chunk": str(k)}


def refresh_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study ``refresh``: each panel and solver."""
    section = config["studies"]["refresh"]
    for panel in config["nonmanip"]["panels"]:
        for algorithm in section["algorithms"]:
            yield from _wildcards(section["schedule"], panel, POMIS_PLUS, algorithm, section)


def knobs_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study ``knobs``: each point, panel and solver it changes."""
    section = config["studies"]["knobs"]
    for point, spec in study_knobs.runs_of(section, config["nonmanip"]["pomis_plus"]).items():
        for panel in config["nonmanip"]["panels"]:
            for algorithm in section["algorithms"]:
                if study_knobs.plays(spec, algorithm):
                    yield from _wildcards(point, panel, POMIS_PLUS, algorithm, section)


def same_means_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study ``same_means``: each panel, point, strategy and solver."""
    section = config["studies"]["same_means"]
    for panel in config["nonmanip"]["panels"]:
        for point in range(section["n_points"]):
            for strategy in study_same_means.STRATEGIES:
                for algorithm in section["algorithms"]:
                    yield from _wildcards(str(point), panel, strategy, algorithm, section)


def robustness_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study ``robustness``: each instance, strategy and solver."""
    section = config["studies"]["robustness"]
    for instance in robustness_instances.instances(section, list(config["nonmanip"]["panels"])).values():
        for strategy in section["strategies"]:
            for algorithm in section["algorithms"]:
                if study_robustness.plays(strategy, algorithm):
                    yield from _wildcards(instance.family, instance.id, strategy, algorithm, section)


Describe = Callable[[Mapping[str, Any], Mapping[str, str]], runs.RunJob]
#: Each study with run jobs: how a job is described, and the wildcards of all of them.
RUNS: dict[str, tuple[Describe, Callable[[Mapping[str, Any]], Iterator[dict[str, str]]]]] = {
    "refresh": (refresh, refresh_jobs),
    "knobs": (knobs, knobs_jobs),
    "same_means": (same_means, same_means_jobs),
    "robustness": (robustness, robustness_jobs),
}
