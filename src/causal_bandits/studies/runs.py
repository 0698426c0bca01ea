"""The run jobs of the studies that rerun nonmanip's experiments (refresh, knobs, same_means, robustness).

Each ``<study>(config, wildcards)`` describes one seed chunk (:class:`causal_bandits.runs.RunJob`) for
nonmanip's runner (:func:`causal_bandits.papers.nonmanip.runs.solver_job`): the study's seeds, what the
study changes and what else its results depend on. Their random streams are the paper's, keyed by the
experiment (the panel, or the study instance's own name), so seed s of a study pairs with seed s of the main
run. Read at planning time only: a run job imports its runner, never this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import runs
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import knobs as study_knobs
from causal_bandits.studies import refresh as study_refresh
from causal_bandits.studies import robustness_instances
from causal_bandits.studies import same_means as study_same_means
from causal_bandits.studies.same_means_family import stream_key


def chunks(section: Mapping[str, Any]) -> list[range]:
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
