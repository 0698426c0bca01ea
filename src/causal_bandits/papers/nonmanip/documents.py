"""Rules nonmanip_arm_sets and nonmanip_instance: a paper graph's structural facts and a Figure 5 panel's arms and
exact means (:mod:`causal_bandits.papers.nonmanip.experiments`), as JSON documents. Apart from ``experiments``, which
own experiments' run jobs execute, so that these steps' code is not theirs."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from causal_bandits import store
from causal_bandits.papers.nonmanip import experiments

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def arm_sets_step(job: Job) -> None:
    """Rule nonmanip_arm_sets: the structural facts of one paper graph (:func:`.experiments.arm_sets_document`)."""
    doc = experiments.arm_sets_document(job.wildcards.graph)
    store.write_json(job.output[0], doc)
    log.info("%s: %d cases", job.wildcards.graph, len(doc["cases"]))


def instance_step(job: Job) -> None:
    """Rule nonmanip_instance: one Figure 5 panel's arms and exact means (:func:`.experiments.instance_document`)."""
    doc = experiments.instance_document(job.wildcards.experiment, job.params.panel)
    store.write_json(job.output[0], doc)
    log.info("%s", instance_line(doc))


def instance_line(doc: Mapping[str, Any]) -> str:
    """The log line of an instance document (:func:`.experiments.instance_document`'s shape): its best mean, its
    optimal arms and how many arms each strategy plays."""
    arms = {k: len(v) for k, v in doc["arm_lists"].items()}
    return f"{doc['experiment']}: mu* = {doc['mu_star']:.6f} ({', '.join(doc['optimal_arms'])}); arms {arms}"
