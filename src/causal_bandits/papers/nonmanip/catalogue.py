"""Lee & Bareinboim (AAAI-19): the POMIS+ expression catalogue of a Figure 5 panel, validated.

Algorithm 3 lines 2-4: on the panel's POMIS arms, every expression z²ID finds for an arm set from
the other arm sets (:func:`causal_bandits.causal.z2id.catalogue`, docs/papers/nonmanip.md#nonmanip-catalogue). The
document holds the catalogue in the form the z² solvers compile
(:meth:`~causal_bandits.causal.estimators.InstanceEstimators.to_json`: arms in the instance's POMIS
order, expression trees), each expression's formula, sources and free indices for the reader, and
its validation: every expression evaluated on the exact experimental distributions of the panel's
SCM must equal the exact P_x(y) (Theorem 5, soundness). An expression that does not stops the
workflow (:class:`~causal_bandits.errors.CausalBanditsError` naming the panel and the expression).
A panel where z²ID finds nothing is valid: POMIS+ then plays exactly POMIS (z²-TS is TS and
z²-KL-UCB is kl-UCB without expressions), and the document says so.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from causal_bandits import store
from causal_bandits.causal.estimators import InstanceEstimators
from causal_bandits.causal.evaluation import ArmLayout
from causal_bandits.causal.z2id import catalogue, validate
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers.nonmanip import scms
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

#: An expression is sound on the panel's SCM when it is within this of the exact P_x(y)
#: (docs/papers/nonmanip.md#nonmanip-catalogue).
VALIDATION_TOLERANCE = 1e-9


def pomis_layout(instance: Mapping[str, Any]) -> ArmLayout:
    """The POMIS arms of an instance document, in its order, as an arm layout over the diagram's nodes."""
    arms = [instance["arms"][i] for i in instance["arm_lists"]["POMIS"]]
    nodes = CausalDiagram.from_dict(instance["graph"]).nodes
    return ArmLayout(
        tuple(nodes), tuple((tuple(sorted(a["set"])), tuple(a["values"][v] for v in sorted(a["set"]))) for a in arms)
    )


def catalogue_document(instance: Mapping[str, Any]) -> dict[str, Any]:
    """The validated POMIS+ catalogue of the panel of ``instance`` (an instance document)."""
    name = instance["experiment"]
    G = CausalDiagram.from_dict(instance["graph"])
    reward = instance["reward"]
    layout = pomis_layout(instance)
    entries = catalogue(G, reward, instance["sets"]["POMIS"])
    errors = validate(entries, layout, scms.exact_model(G, instance["scm"]).joint)
    for entry, error in zip(entries, errors):
        if np.isnan(error):
            raise CausalBanditsError(
                f"nonmanip panel {name!r}: catalogue expression {entry.formula()} is undefined (0/0) on the panel's "
                f"SCM; give every q of the SCM a value strictly between 0 and 1"
            )
        if error > VALIDATION_TOLERANCE:
            raise CausalBanditsError(
                f"nonmanip panel {name!r}: catalogue expression {entry.formula()} differs from the exact P_x(y) by "
                f"{error:.3g} (> {VALIDATION_TOLERANCE:g}); z²ID is unsound here, please report this graph"
            )
    estimators = InstanceEstimators(entries, layout, reward)
    doc = {
        "experiment": name,
        "title": instance["title"],
        **estimators.to_json(),
        "n_expressions": len(entries),
        "n_instances": sum(e.n_instances for e in entries),
        "n_arm_instances": [int(n) for n in (estimators.slots >= 0).sum(axis=1)],
        "max_error": max(errors, default=0.0),
        "tolerance": VALIDATION_TOLERANCE,
    }
    for entry, error in zip(doc["entries"], errors):
        entry["max_error"] = error
    if not entries:
        doc["note"] = (
            "z²ID finds no expression for any POMIS arm from the other POMIS arms: POMIS+ plays exactly "
            "POMIS (z²-TS is TS, z²-KL-UCB is kl-UCB)"
        )
    return doc


def catalogue_step(job: Job) -> None:
    """Rule nonmanip_catalogue: a panel's POMIS+ expression catalogue, validated on its exact SCM
    (:func:`catalogue_document`), as JSON."""
    doc = catalogue_document(store.read_json(job.input.instance))
    store.write_json(job.output[0], doc)
    log.info(
        "%s: %d expressions, %d estimator instances over %d POMIS arms; max error on the exact SCM %.2g%s",
        doc["experiment"],
        doc["n_expressions"],
        sum(doc["n_arm_instances"]),
        len(doc["arms"]),
        doc["max_error"],
        f"; {doc['note']}" if "note" in doc else "",
    )


def write_with_catalogue(instance_path: str, catalogue_path: str, doc: Mapping[str, Any]) -> dict[str, Any]:
    """Write the instance document ``doc`` and its catalogue (:func:`catalogue_document`); the catalogue."""
    store.write_json(instance_path, doc)
    found = catalogue_document(doc)
    store.write_json(catalogue_path, found)
    return found
