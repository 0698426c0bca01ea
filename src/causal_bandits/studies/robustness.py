"""Study ``robustness``: the paper's orderings on Fig. 5d-consistent graphs and random SCMs of every panel (the
instances: :mod:`causal_bandits.studies.robustness_instances`; the orderings, shares, claims and figure:
:mod:`causal_bandits.studies.robustness_outputs`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from causal_bandits import algorithms, runs, studies
from causal_bandits.artefacts import Artefact
from causal_bandits.claims import Claim
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import Study, robustness_instances
from causal_bandits.studies import robustness_outputs as outputs

STUDY = Study(
    name="robustness",
    paper=PAPER,
    title="Robustness: the paper's orderings on Fig. 5d-consistent graphs and random SCMs",
    question="Do the paper's orderings (POMIS+ < POMIS ≤ MIS ≤ BF) hold beyond our reconstruction of its unpublished "
    "SCMs and Fig. 5d graph?",
    varies="the graph (every diagram consistent with the paper's Fig. 5d facts, a seeded sample) and the SCM "
    "(random SCMs on each panel's graph); every strategy with each solver",
    docs="papers/nonmanip.md#nonmanip-robustness",
    locates=(r"order-", r"pomis-plus-below-pomis-", r"arms-fig5d-", r"expressions-fig5c"),
    run_key="{experiment}/{strategy}/{algorithm}",
)


def check_config(section: Mapping[str, Any], paper: Mapping[str, Any]) -> None:
    """Panels named by ``scms_per_panel`` must exist; the solvers must be registered (checked by the schema)."""
    counts = section["scms_per_panel"]
    if isinstance(counts, Mapping):
        unknown = sorted(set(counts) - set(paper["panels"]))
        if unknown:
            raise ConfigError(
                f"studies.robustness.scms_per_panel names {unknown}, which are not panels; use panel "
                f"names from nonmanip.panels ({', '.join(paper['panels'])})"
            )
    algorithms.check(
        PAPER,
        section["algorithms"],
        [s for s in section["strategies"] if s != POMIS_PLUS],
        where="studies.robustness.algorithms",
    )


def plays(strategy: str, algorithm: str) -> bool:
    """Whether a solver plays a strategy: POMIS+ only with a z² version."""
    return strategy != POMIS_PLUS or bool(algorithms.registry(PAPER)[algorithm].z2)


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study: each instance, strategy and solver that plays it, each chunk."""
    section = config["studies"]["robustness"]
    for instance in robustness_instances.instances(section, list(config["nonmanip"]["panels"])).values():
        for strategy in section["strategies"]:
            for algorithm in section["algorithms"]:
                if plays(strategy, algorithm):
                    point = {"point": instance.family, "experiment": instance.id}
                    yield from studies.chunk_jobs(section, **point, strategy=strategy, algorithm=algorithm)


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``robustness_run``): a strategy with a solver on one of the study's instances (a graph, or a
    random SCM of a panel), at the study's horizon."""
    section = config["studies"]["robustness"]
    panels = config["nonmanip"]["panels"]
    instance = robustness_instances.instances(section, list(panels))[wildcards["experiment"]]
    science = nonmanip_runs.panel_science(
        config,
        wildcards["experiment"],
        instance=robustness_instances.instance_config(instance, section, panels),
        horizon=section["horizon"],
    )
    return nonmanip_runs.solver_job(config, wildcards, studies.chunks(section), science)


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's tables and figures (:func:`causal_bandits.studies.robustness_outputs.artefacts`)."""
    return outputs.artefacts(paper)


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims (:func:`causal_bandits.studies.robustness_outputs.claims`)."""
    return outputs.claims(paper)
