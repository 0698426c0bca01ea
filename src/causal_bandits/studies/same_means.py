"""Study ``same_means``: POMIS and POMIS+ on SCMs with exactly the canonical arm means of a Figure 5 panel, along
the efficiency of the z² estimators (the family: :mod:`causal_bandits.studies.same_means_family`; the table,
findings, claims and figures: :mod:`causal_bandits.studies.same_means_outputs`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from causal_bandits import runs, studies
from causal_bandits.artefacts import Artefact
from causal_bandits.claims import Claim
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import Study
from causal_bandits.studies import same_means_outputs as outputs
from causal_bandits.studies.refresh import check_solvers
from causal_bandits.studies.same_means_family import stream_key

STUDY = Study(
    name="same_means",
    paper=PAPER,
    title="Same-means SCMs: POMIS+ regret against the efficiency of the z² estimators",
    question="Does some SCM with exactly our arm means (so the same BF / MIS / POMIS regrets) reproduce both of a "
    "panel's POMIS+ cells of Table 1, and at what efficiency of the z² estimators?",
    varies="the SCM's parameters within the set that keeps every arm mean, along the steepest path of the panel "
    "efficiency; POMIS and POMIS+ with each solver at every point",
    docs="papers/nonmanip.md#nonmanip-same-means",
    locates=(r"table1-[a-z0-9_]+-POMIS\+-",),
    run_key="{point}/{experiment}/{strategy}/{algorithm}",
)
#: The strategies run at every point: POMIS, whose regret must stay flat (the arm means do not move), and POMIS+.
STRATEGIES = ("POMIS", POMIS_PLUS)


def settings(section: Mapping[str, Any], panel: str) -> dict[str, Any]:
    """What a panel's sweep depends on, from the study's block: points, direction and where it ends (changing
    another panel's direction reruns nothing of this one)."""
    towards = section["towards"].get(panel, "low")
    return {
        "n_points": section["n_points"],
        "towards": towards,
        "end_ratio": section["lowest_ratio"] if towards == "low" else section["highest_ratio"],
    }


def check_config(section: Mapping[str, Any], paper: Mapping[str, Any]) -> None:
    """Panels named in ``towards`` must exist; POMIS+ must run in the paper (the study sweeps its SCMs)."""
    unknown = sorted(set(section["towards"]) - set(paper["panels"]))
    if unknown:
        raise ConfigError(
            f"studies.same_means.towards names {unknown}, which are not panels; use panel names from "
            f"nonmanip.panels ({', '.join(paper['panels'])})"
        )
    check_solvers("same_means", section["algorithms"], paper)


# ---------------------------------------------------------------------------------- arm means
def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study: each panel, point, strategy and solver, each chunk."""
    section = config["studies"]["same_means"]
    for panel in config["nonmanip"]["panels"]:
        for point in range(section["n_points"]):
            for strategy in STRATEGIES:
                for algorithm in section["algorithms"]:
                    where = {"point": str(point), "experiment": panel}
                    yield from studies.chunk_jobs(section, **where, strategy=strategy, algorithm=algorithm)


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``same_means_run``): POMIS or POMIS+ on a same-means point of a panel, with the panel's
    settings (:func:`causal_bandits.papers.nonmanip.runs.panel_science`) and the sweep's; the point's instance has
    random streams of its own."""
    section, panel = config["studies"]["same_means"], wildcards["experiment"]
    science = {**nonmanip_runs.panel_science(config, panel), "sweep": settings(section, panel)}
    stream = stream_key(panel, int(wildcards["point"]))
    return nonmanip_runs.solver_job(config, wildcards, studies.chunks(section), science, experiment=stream)


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's tables and figures (:func:`causal_bandits.studies.same_means_outputs.artefacts`)."""
    return outputs.artefacts(paper)


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims (:func:`causal_bandits.studies.same_means_outputs.claims`)."""
    return outputs.claims(paper)
