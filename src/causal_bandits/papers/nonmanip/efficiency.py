"""The efficiency of a Figure 5 panel's z² estimators on its SCM (Table 1's note; the same-means study sweeps it).

What one sample of each source arm is worth to an arm's estimate, θ(1 − θ)/(n · Var) as n → ∞ with the exact
covariance of the catalogue's estimators (:mod:`causal_bandits.causal.efficiency`), per estimator instance and
per POMIS arm (its estimators combined with minimum variance, bMVWA, AAAI-19 Alg. 2); the panel efficiency E is
the mean over the POMIS arms that have an expression.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from causal_bandits import store
from causal_bandits.causal.efficiency import efficiencies
from causal_bandits.causal.estimators import InstanceEstimators
from causal_bandits.papers.nonmanip import scms
from causal_bandits.papers.nonmanip.catalogue import catalogue_document
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)


class PanelEfficiency:
    """The z² estimators of a panel (its catalogue, compiled once) and their efficiency on any SCM of
    the panel's graph."""

    def __init__(self, instance: Mapping[str, Any]):
        self.instance = instance
        self.diagram = CausalDiagram.from_dict(instance["graph"])
        self.estimators = InstanceEstimators.from_json(catalogue_document(instance))

    def tables(self, spec: Mapping[str, Any]) -> np.ndarray:
        """Exact P(V | do(x)) of every POMIS arm, (n_arms, n_cells) in the layout's cell order."""
        model = scms.exact_model(self.diagram, spec)
        layout = self.estimators.layout
        return np.stack([model.joint(layout.arm_values(a)).reshape(-1) for a in range(len(layout.arms))])

    def of(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        """Per-instance and per-arm efficiency (:func:`efficiencies`) and the panel efficiency E."""
        eff = efficiencies(self.estimators, self.tables(spec))
        combined = eff["combined"][np.isfinite(eff["combined"])]
        return {**eff, "panel": float(combined.mean()) if combined.size else float("nan")}

    def document(self, eff: Mapping[str, Any]) -> dict[str, Any]:
        """The efficiencies for a reader and the instance JSON: one row per estimator instance (arm,
        catalogue entry, free indices) and one per arm, at full precision."""
        est = self.estimators
        labels = [self.instance["arms"][i]["label"] for i in self.instance["arm_lists"]["POMIS"]]
        return {
            "panel_efficiency": eff["panel"],
            "instances": [
                {
                    "arm": labels[inst.arm],
                    "entry": inst.entry,
                    "formula": est.entries[inst.entry].formula(),
                    "free": dict(inst.free),
                    "theta": float(eff["theta"][i]),
                    "n_variance": float(eff["variance"][i]),
                    "efficiency": float(eff["efficiency"][i]),
                }
                for i, inst in enumerate(est.instances)
            ],
            "arms": [
                {"arm": labels[a], "combined_efficiency": None if np.isnan(c) else float(c)}
                for a, c in enumerate(eff["combined"])
            ],
        }


def canonical(instance: Mapping[str, Any]) -> dict[str, Any]:
    """The efficiency document (:meth:`PanelEfficiency.document`) of a panel's instance on its own SCM."""
    panel = PanelEfficiency(instance)
    return {"panel": instance["experiment"], **panel.document(panel.of(instance["scm"]))}


def efficiency_note(documents: Mapping[str, Mapping[str, Any]], titles: Mapping[str, str]) -> str:
    """Lines under Table 1: the efficiency of the panels' z² estimators per POMIS arm (combined with minimum
    variance) and the panel efficiency, from each panel's :func:`canonical` document."""
    lines = [
        "",
        (
            "Efficiency of the z² estimators on our SCMs (delta method: what one sample of each source arm is "
            "worth to an arm, θ(1 − θ)/(n · Var) as n → ∞, the arm's estimators combined with minimum variance; "
            "per (arm, expression) at full precision in results/nonmanip/efficiency/<panel>.json):"
        ),
    ]
    for panel, p0 in documents.items():
        arms = ", ".join(
            f"{a['arm']} {a['combined_efficiency']:.3f}" for a in p0["arms"] if a["combined_efficiency"] is not None
        )
        if not arms:
            lines.append(f"{titles.get(panel, panel)}: z²ID finds no expression, so there is no efficiency to give.")
        else:
            lines.append(f"{titles.get(panel, panel)}: E = {p0['panel_efficiency']:.3f} ({arms}).")
    return "\n".join(lines) + "\n"


def efficiency_step(job: Job) -> None:
    """Rule nonmanip_efficiency: the efficiency of a panel's z² estimators on its SCM (:func:`canonical`), as JSON."""
    doc = canonical(store.read_json(job.input.instance))
    store.write_json(job.output[0], doc)
    log.info("%s: panel efficiency %.6g", doc["panel"], doc["panel_efficiency"])
