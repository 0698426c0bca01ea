"""Where ignoring confounding gives a wrong answer on E3 (``confounded``): an exact study, no simulation.

The naive ablation estimates E[Y | S = s] instead of μ_do(S=s). On the E3 family both are in closed form
(:func:`causal_bandits.papers.cpe.families.confounded`): the naive mean of an action adds, for each pair
partner X' of a conditioned X outside S, w_{X'} ρ² (s − 1/2), and 0.15 ρ_Y (x_7 − 1/2) when X_7 ∈ S.
Over a grid of (ρ, ρ_Y) this module computes exactly whether the naive estimand's best arm is the true
best arm, and by how much it misleads. A naive run that converges to its estimand answers wrongly
exactly where ``differs`` is true; a run that answers rightly there takes its answer from elsewhere
(interventional samples).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe.families import confounded

COLUMNS = (
    "rho",
    "rho_Y",
    "best_arm",
    "best_mu",
    "naive_best_arm",
    "naive_best_naive_mu",
    "naive_best_mu",
    "differs",
    "regret",
    "naive_gap",
)


def _label(action) -> str:
    return ", ".join(f"{v}={x}" for v, x in action.assignment) or "observe"


def grid(rhos: Sequence[float], rho_Ys: Sequence[float]) -> pd.DataFrame:
    """One row per (ρ, ρ_Y): the true and the naive best arm, whether they differ, the true regret of the naive
    best arm (μ* − μ of it) and the naive gap (its naive mean minus the naive mean of the true best arm)."""
    if not rhos or not rho_Ys:
        raise ConfigError("cpe.naive_study needs a non-empty rho and rho_Y grid; give lists of values in [0, 1]")
    rows = []
    for rho in rhos:
        for rho_Y in rho_Ys:
            inst = confounded(float(rho), float(rho_Y))
            best, naive_best = int(np.argmax(inst.mu)), int(np.argmax(inst.naive_mu))
            rows.append(
                {
                    "rho": float(rho),
                    "rho_Y": float(rho_Y),
                    "best_arm": _label(inst.actions[best]),
                    "best_mu": float(inst.mu[best]),
                    "naive_best_arm": _label(inst.actions[naive_best]),
                    "naive_best_naive_mu": float(inst.naive_mu[naive_best]),
                    "naive_best_mu": float(inst.mu[naive_best]),
                    "differs": bool(inst.mu[naive_best] < inst.mu[best]),
                    "regret": float(inst.mu[best] - inst.mu[naive_best]),
                    "naive_gap": float(inst.naive_mu[naive_best] - inst.naive_mu[best]),
                }
            )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def finding(table: pd.DataFrame) -> str:
    """One sentence: the grid's ρ at which the naive estimand first picks a wrong arm, or that it never does."""
    wrong = table[table["differs"]]
    rho, rho_Y = table["rho"], table["rho_Y"]
    span = f"ρ ∈ [{rho.min():g}, {rho.max():g}], ρ_Y ∈ [{rho_Y.min():g}, {rho_Y.max():g}]"
    if wrong.empty:
        return f"the naive estimand's best arm is the true best arm at every grid point ({span})"
    ok = table[~table["differs"]]
    below = f"; right for ρ ≤ {ok['rho'].max():g}" if not ok.empty else ""
    top = wrong.iloc[int(wrong["regret"].to_numpy().argmax())]
    return (
        f"the naive estimand picks a wrong arm for ρ ≥ {wrong['rho'].min():g} at every ρ_Y ({len(wrong)}/{len(table)} "
        f"grid points){below}; worst: {top['naive_best_arm']} (regret {top['regret']:.3f}, naive margin "
        f"{top['naive_gap']:.2g}) at ρ = {top['rho']:g}"
        if wrong.groupby("rho").size().eq(table["rho_Y"].nunique()).all()
        else f"the naive estimand picks a wrong arm at {len(wrong)}/{len(table)} grid points ({span}), from ρ = "
        f"{wrong['rho'].min():g}{below}; worst regret {top['regret']:.3f} at ρ = {top['rho']:g}, ρ_Y = {top['rho_Y']:g}"
    )


def markdown(table: pd.DataFrame) -> str:
    """The table as Markdown with the finding under it."""
    shown = table.copy()
    for c in ("best_mu", "naive_best_naive_mu", "naive_best_mu", "regret", "naive_gap"):
        shown[c] = shown[c].map(lambda v: f"{v:.4f}")
    return (
        "# E3: does ignoring confounding change the best arm? (exact, designed for this replication)\n\n"
        + shown.to_markdown(index=False)
        + f"\n\nFinding: {finding(table)}.\n"
    )
