"""Lee & Bareinboim (AAAI-19): the config checks a schema cannot make (diagrams, SCM parameters, the
refresh spot check against the main POMIS+ run)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.causal.pomis import pomis
from causal_bandits.errors import CausalBanditsError, ConfigError
from causal_bandits.papers.nonmanip.graphs import GRAPHS, REWARD
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM


def panel_diagram(panel: Mapping[str, Any]) -> tuple[CausalDiagram, str]:
    """(diagram, reward) of a panel: a paper graph by name or an inline diagram."""
    graph = panel["graph"]
    if isinstance(graph, str):
        return GRAPHS[graph], REWARD
    diagram = CausalDiagram(graph["nodes"], graph.get("directed", ()), graph.get("bidirected", ()))
    return diagram, graph["reward"]


def check_config(config: Mapping[str, Any]) -> None:
    """Semantic checks the schema cannot make; raises a one-line CausalBanditsError."""
    for name, panel in config["panels"].items():
        try:
            diagram, reward = panel_diagram(panel)
            pomis(diagram, reward, panel.get("non_manipulable", ()))
            XorBernoulliSCM(diagram, panel["scm"]["q"], panel["scm"]["c"])
        except CausalBanditsError as err:
            raise type(err)(f"nonmanip panel {name!r}: {err}") from err
    counts = config.get("robustness", {}).get("scms_per_panel")
    if isinstance(counts, Mapping):
        unknown = sorted(set(counts) - set(config["panels"]))
        if unknown:
            raise ConfigError(f"nonmanip.robustness.scms_per_panel names {unknown}, which are not panels; use panel "
                              f"names from nonmanip.panels ({', '.join(config['panels'])})")
    spot = config.get("pomis_plus", {}).get("spot_check")
    if spot and spot["refresh"] == config["pomis_plus"]["refresh"]:
        raise ConfigError(f"nonmanip.pomis_plus.spot_check.refresh = {spot['refresh']!r} is the main run's own schedule; "
                          "set the other one or spot_check: null")
    if spot and spot["n_seeds"] > config["n_seeds"]:
        raise ConfigError(f"nonmanip.pomis_plus.spot_check.n_seeds = {spot['n_seeds']} exceeds nonmanip.n_seeds = "
                          f"{config['n_seeds']}: the spot check reruns the main run's first seeds; lower it")
