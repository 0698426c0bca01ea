"""Which algorithms an experiment may name, and which strategies each supports.

An experiment's arms are interventions on a causal diagram, so it plays the solvers of Lee &
Bareinboim's paper: the nonmanip registry (:mod:`causal_bandits.papers.nonmanip.algorithms`, read
through :mod:`causal_bandits.algorithms`); a user's own algorithm is one more entry there. POMIS+
plays the POMIS arms with the z² version of a solver (AAAI-19 §5), so only a solver that declares
one supports it; the other pairs are skipped, each with its reason (:func:`skip_reason`), which the config
check, the workflow's plan and the experiment's table state.

An experiment names an algorithm by its key or with parameter values (``{key: moss, params: {horizon: T},
label: MOSS (T-aware)}``): each is a :class:`causal_bandits.algorithms.Variant`, its own algorithm in run
paths and tables (:func:`variants`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import algorithms
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import POMIS_PLUS

#: The registry experiments read.
PAPER = "nonmanip"
#: Strategies computed from the diagram (Lee & Bareinboim, AAAI-19): all interventions, minimal
#: intervention sets, possibly-optimal MISs, and POMIS+ (the POMIS arms with a z² solver).
STRATEGIES = ("BF", "MIS", "POMIS", POMIS_PLUS)
#: Where an algorithm is registered (named in error messages).
REGISTRY = algorithms.registry_module(PAPER).replace(".", "/") + ".py"


def solvers() -> list[str]:
    """The algorithms an experiment may name: registered solvers (not the z² versions)."""
    return algorithms.solvers(PAPER)


def played_key(key: str, strategy: str) -> str:
    """The registry key of the entry that plays ``key`` under ``strategy`` (its z² version under POMIS+)."""
    return algorithms.played(PAPER, key, z2=strategy == POMIS_PLUS).key


def variants(name: str, experiment: Mapping[str, Any]) -> dict[str, algorithms.Variant]:
    """Experiment ``name``'s algorithms by id, in config order (a ConfigError for an unregistered key, an
    undeclared parameter, or two items of one id)."""
    out: dict[str, algorithms.Variant] = {}
    for i, item in enumerate(experiment["algorithms"]):
        found = algorithms.variant(PAPER, item, where=f"experiments.{name}.algorithms.{i}")
        if found.id in out:
            raise ConfigError(
                f"experiments.{name}.algorithms.{i} names {found.id!r} a second time; drop one, or give it other params"
            )
        out[found.id] = found
    return out


def labels(name: str, experiment: Mapping[str, Any]) -> dict[str, str]:
    """What tables and legends print for each of the experiment's algorithm ids."""
    return {i: v.display(PAPER) for i, v in variants(name, experiment).items()}


def arguments(name: str, experiment: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The values each of the experiment's algorithm ids with parameters hands its class (``T`` replaced by the
    experiment's horizon), as its run files' metadata and its report row record them."""
    found = variants(name, experiment).items()
    return {i: v.arguments(experiment["horizon"]) for i, v in found if v.params}


def skip_reason(variant: algorithms.Variant, strategy: str) -> str | None:
    """Why ``variant`` does not play ``strategy`` (None when it does): POMIS+ plays the z² version of a solver,
    which must exist and take the variant's parameters (other arm sets are checked with the config)."""
    if strategy != POMIS_PLUS:
        return None
    z2 = algorithms.registry(PAPER)[variant.key].z2
    if z2 is None:
        return "no z² version"
    missing = sorted(set(variant.params) - set(algorithms.registry(PAPER)[z2].params))
    return f"its z² version {z2} takes no parameter {missing[0]}" if missing else None


def supports(key: str, strategy: str) -> bool:
    """Whether solver ``key`` can play ``strategy``: POMIS+ needs a z² version, other arm sets the entry's own
    ``strategies`` (every explicit arm list is allowed)."""
    entry = algorithms.registry(PAPER)[key]
    if strategy == POMIS_PLUS:
        return entry.z2 is not None
    return strategy not in STRATEGIES or entry.supports(strategy)
