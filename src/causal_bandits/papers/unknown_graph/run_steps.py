"""The steps that call the run module (:mod:`causal_bandits.papers.unknown_graph.runs`) outside a run job: instances
written out as data (graph, SCM, the exact mean of every single-node intervention, the derived constants) and the V5
lower-bound runs."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from causal_bandits import store
from causal_bandits.papers.unknown_graph import families, inputs, runs

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def fig1_instance_step(job: Job) -> None:
    """Rule unknown_graph_fig1_instance: Figure 1's reconstructed tree (:func:`.families.figure1`) as data."""
    p = job.params
    store.write_json(job.output[0], inputs.instance_document(families.figure1(p.variant), p.delta, p.c_B, "tree"))
    log.info("wrote %s", job.output[0])


def instances_step(job: Job) -> None:
    """Rule unknown_graph_instances: every seed's instance of one V1-V4 cell, as its runs draw them
    (:func:`.runs.instance`), as data."""
    p = job.params
    algorithm = runs.CN_ALGORITHM[p.spec["family"]]
    doc = {
        "cell": p.cell,
        "spec": p.spec,
        "instances": [
            inputs.instance_document(runs.instance(p.cell, p.spec, seed), p.delta, p.c_B, algorithm)
            for seed in range(p.n_seeds)
        ],
    }
    store.write_json(job.output[0], doc)
    log.info("wrote %s", job.output[0])


def lower_bounds_step(job: Job) -> None:
    """Rule unknown_graph_lower_bounds: V5, one algorithm on every Thm 4 / Thm 5 instance
    (:func:`.runs.lower_bound_runs`)."""
    p, wc = job.params, job.wildcards
    science = {key: p.section[key] for key in ("lower_bounds", "ucb_c", "ucb_arms", "reading")}
    runs.lower_bound_runs(
        p.section,
        theorem=int(wc.theorem),
        algorithm=wc.algorithm,
        path=job.output[0],
        metadata=store.provenance(science),
    )
