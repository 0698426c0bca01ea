"""The ``experiments:`` config section: its schema and the checks a schema cannot make.

Everything is checked when the workflow is parsed, before any job: the diagram (acyclic, edges and
the reward between known nodes), the SCM (every table's size, probabilities in [0, 1]), the
explicit arms (manipulable nodes only), the algorithms (registered, :mod:`.algorithms`) and the
strategies each algorithm supports. A failure is one line naming the key and the fix.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from causal_bandits import yaml_io
from causal_bandits.causal.pomis import SET_LIMIT, TooManySets, pomis
from causal_bandits.errors import CausalBanditsError, ConfigError
from causal_bandits.experiments import KEY, algorithms
from causal_bandits.experiments import instance as own
from causal_bandits.papers.nonmanip import NOT_SETTINGS, PAPER, POMIS_PLUS
from causal_bandits.scm.graph_file import diagram as graph_diagram

SCHEMA = files("causal_bandits.experiments") / "config.schema.yaml"
#: Keys of nonmanip's ``pomis_plus`` an experiment does not take: the paper panels' job size and studies, and the
#: z²-KL-UCB switch (an experiment's runs pass their settings to both z² solvers as they are).
NONMANIP_ONLY = (*NOT_SETTINGS, "no_expression")


def schema(sections: Mapping[str, Any]) -> dict[str, Any]:
    """The section's schema; an experiment's ``pomis_plus`` takes the keys and defaults of the nonmanip
    section's ``pomis_plus`` (in ``sections``, the papers' section schemas by key), without :data:`NONMANIP_ONLY`."""
    out = yaml_io.load(SCHEMA.read_text())
    settings = copy.deepcopy(dict(sections[PAPER]["properties"]["pomis_plus"]))
    settings["properties"] = {k: v for k, v in settings["properties"].items() if k not in NONMANIP_ONLY}
    out["additionalProperties"]["properties"]["pomis_plus"] = {**settings, "default": {}}
    return out


def strategies(experiment: Mapping[str, Any]) -> list[str]:
    """The experiment's strategy keys: its computed arm sets, then its explicit arm lists."""
    return [*experiment["strategies"], *experiment.get("arms", {})]


def _check_one(name: str, experiment: Mapping[str, Any]) -> None:
    where = f"{KEY}.{name}"
    if not strategies(experiment):
        raise ConfigError(
            f"{where} plays no strategy (strategies: [] and no arms); name at least one of BF, MIS, POMIS, "
            "POMISplus under strategies, or an explicit arm list under arms"
        )
    data = own.graph(experiment["diagram"])
    try:
        G = graph_diagram(data)
    except CausalBanditsError as err:
        raise ConfigError(f"{where}.diagram: {err}") from None
    unknown = [v for v in (data["reward"], *data.get("non_manipulable", ())) if v not in G.nodes]
    if unknown:
        raise ConfigError(f"{where}.diagram names {unknown[0]!r}, which is not a node; use one of {list(G.nodes)}")
    try:
        pomis(G, data["reward"], data.get("non_manipulable", ()), limit=SET_LIMIT)
    except TooManySets as err:
        raise ConfigError(
            f"{where}.diagram: {err} (SET_LIMIT), each an arm set to explore; use fewer causes of the reward "
            "confounded with it"
        ) from None
    except CausalBanditsError as err:
        raise ConfigError(f"{where}.diagram: {err}") from None
    try:
        own.scm_model(name, G, experiment["scm"])
    except CausalBanditsError as err:
        message = str(err)
        raise ConfigError(message if message.startswith(where) else f"{where}.scm: {message}") from None
    manipulable = set(G.nodes) - {data["reward"], *data.get("non_manipulable", ())}
    for key, arms in experiment.get("arms", {}).items():
        for i, arm in enumerate(arms):
            bad = sorted(set(arm) - manipulable)
            if bad:
                raise ConfigError(
                    f"{where}.arms.{key}[{i}] sets {bad[0]!r}, which is not a manipulable node; set "
                    f"only {sorted(manipulable)}"
                )
    found = algorithms.variants(name, experiment)
    for algorithm in found.values():
        for strategy in strategies(experiment):
            if strategy != POMIS_PLUS and not algorithms.supports(algorithm.key, strategy):
                raise ConfigError(
                    f"{where}: algorithm {algorithm.key!r} does not support strategy {strategy!r} (see its "
                    f"entry in {algorithms.REGISTRY}); drop {strategy} from the experiment's strategies, or give "
                    "the algorithm that strategy"
                )
    if POMIS_PLUS in experiment["strategies"] and all(algorithms.skip_reason(a, POMIS_PLUS) for a in found.values()):
        raise ConfigError(
            f"{where}: {POMIS_PLUS} plays the z² version of a solver, and none of {list(found)} has one; "
            f"add a solver with a z² version (ts, kl_ucb) or drop {POMIS_PLUS} from the experiment's strategies"
        )


def skipped_pairs(name: str, experiment: Mapping[str, Any]) -> list[list[str]]:
    """The (strategy, algorithm id, reason) of every pair experiment ``name`` names and does not run."""
    return [
        [strategy, algorithm.id, reason]
        for algorithm in algorithms.variants(name, experiment).values()
        for strategy in strategies(experiment)
        if (reason := algorithms.skip_reason(algorithm, strategy))
    ]


def skipped(section: Mapping[str, Any]) -> list[str]:
    """One line per (strategy, algorithm) pair an experiment of ``section`` names and does not run, with why."""
    lines = []
    for name, experiment in section.items():
        shown = algorithms.labels(name, experiment)
        for strategy, algorithm, reason in skipped_pairs(name, experiment):
            lines.append(f"{KEY}.{name}: {strategy} with {shown[algorithm]} is not run: {reason}")
    return lines


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks of the (schema-valid) ``experiments`` section; raises a one-line ConfigError."""
    for name, experiment in section.items():
        _check_one(name, experiment)
