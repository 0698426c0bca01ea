"""Lee & Bareinboim (AAAI-19): the stages between the config and the runs.

The arm-set documents of every (graph, N) case (projection, MUCT, IB,
BF / MIS / POMIS, docs/papers/nonmanip.md#nonmanip-numbers-structural) and the experiment instance of each Figure 5
panel (arms in canonical order with exact means from the SCM).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

import numpy as np

from causal_bandits.causal.pomis import (
    brute_force_sets,
    interventional_border,
    minimal_intervention_sets,
    muct,
    n_arms,
    pomis,
)
from causal_bandits.papers.nonmanip import scms
from causal_bandits.papers.nonmanip.graphs import CASES, GRAPHS, REWARD, panel_diagram

STRATEGIES = ("BF", "MIS", "POMIS")


def _sets(sets) -> list[list[str]]:
    return [list(s) for s in sets]


def arm_sets_document(graph: str) -> dict[str, Any]:
    """Every (graph, N) case of docs/papers/nonmanip.md#nonmanip-numbers-structural for ``graph``: projection, MUCT, IB,
    BF/MIS/POMIS."""
    G = GRAPHS[graph]
    cases = []
    for case in (c for c in CASES if c["graph"] == graph):
        N = case["N"]
        H = G.latent_projection(set(G.nodes) - set(N))
        bf, mis, po = brute_force_sets(G, REWARD, N), minimal_intervention_sets(G, REWARD, N), pomis(G, REWARD, N)
        cases.append(
            {
                "N": list(N),
                "projection": H.to_dict(),
                "muct": list(muct(H, REWARD)),
                "ib": list(interventional_border(H, REWARD)),
                "bf_sets": _sets(bf),
                "mis": _sets(mis),
                "pomis": _sets(po),
                "n_arms": {"BF": n_arms(bf), "MIS": n_arms(mis), "POMIS": n_arms(po)},
                "stated_in_paper": case["stated_in_paper"],
            }
        )
    return {"graph": graph, "reward": REWARD, **G.to_dict(), "cases": cases}


def _label(values: Mapping[str, int]) -> str:
    return "do(" + ",".join(f"{v}={x}" for v, x in values.items()) + ")"


def instance_document(name: str, panel: Mapping[str, Any]) -> dict[str, Any]:
    """The experiment of one Figure 5 panel: arms in canonical order with exact means.

    Arm order (docs/papers/nonmanip.md#nonmanip-pomis): intervention sets by (size, names), values lexicographic over
    sorted names; this brute-force list defines ``arm_id``; MIS and POMIS lists are sublists of it.
    """
    diagram, reward = panel_diagram(panel)
    N = tuple(panel.get("non_manipulable", ()))
    scm = scms.scm(diagram, panel["scm"])
    families = {
        "BF": brute_force_sets(diagram, reward, N),
        "MIS": minimal_intervention_sets(diagram, reward, N),
        "POMIS": pomis(diagram, reward, N),
    }
    arms: list[dict[str, Any]] = []
    for xs in families["BF"]:
        for bits in product((0, 1), repeat=len(xs)):
            values = dict(zip(xs, bits))
            arms.append(
                {
                    "arm_id": len(arms),
                    "label": _label(values),
                    "set": list(xs),
                    "values": values,
                    "mu": scm.interventional_mean(reward, values),
                    "in_mis": xs in families["MIS"],
                    "in_pomis": xs in families["POMIS"],
                }
            )
    lists = {s: [a["arm_id"] for a in arms if tuple(a["set"]) in families[s]] for s in STRATEGIES}
    mu = np.array([a["mu"] for a in arms])
    mu_star = float(mu.max())
    for strategy, ids in lists.items():
        if not np.isclose(mu[ids].max(), mu_star, rtol=0, atol=1e-12):
            raise RuntimeError(f"{name}: {strategy} arms miss the optimum; the POMIS theory says they cannot")
    return {
        "experiment": name,
        "title": panel.get("title", name),
        "graph": diagram.to_dict(),
        "graph_name": panel["graph"] if isinstance(panel["graph"], str) else None,
        "reward": reward,
        "N": list(N),
        "scm": scms.spec(scm),
        "mu_star": mu_star,
        "optimal_arms": [a["label"] for a in arms if np.isclose(a["mu"], mu_star, rtol=0, atol=1e-12)],
        "arms": arms,
        "arm_lists": lists,
        "sets": {s: _sets(f) for s, f in families.items()},
        "identical": identical_strategies(lists),
    }


def identical_strategies(lists: Mapping[str, list[int]]) -> dict[str, str]:
    """For each strategy whose arm list equals a smaller strategy's, that smaller strategy."""
    out = {}
    for i, s in enumerate(STRATEGIES):
        for smaller in STRATEGIES[i + 1 :]:
            if s in lists and smaller in lists and lists[s] == lists[smaller]:
                out[s] = smaller
                break
    return out
