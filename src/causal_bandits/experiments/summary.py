"""An own experiment's table and report summary, from its aggregate (:mod:`causal_bandits.aggregate`).

The table gives, per (strategy, algorithm), the arms played and the best of their means, the mean
cumulative regret at the horizon with its 95 % interval (regret against the best arm the strategy
plays: an explicit arm list without the diagram's best arm shows it in a lower best mean) and the
probability of pulling an optimal arm in the last recorded round. The summary is what the report
shows: these numbers, no verdicts (an own experiment makes no paper's claim). The figure is
:mod:`.figure`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from causal_bandits import algorithms
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS

COLUMNS = ("strategy", "algorithm", "arms", "best arm mean", "mean regret at T", "95% CI", "P(optimal arm) at T")


def rows(agg: pd.DataFrame, instance: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per (strategy, algorithm) of the aggregate at its last round, in the aggregate's order; the
    algorithm by its registry label (what readers see), not its key."""

    shown = algorithms.labels(PAPER)
    last = agg[agg["round"] == agg["round"].max()]
    out = []
    for r in last.itertuples(index=False):
        arms = instance["arm_lists"]["POMIS" if r.strategy == POMIS_PLUS else r.strategy]
        best = max(instance["arms"][i]["mu"] for i in arms)
        out.append(
            {
                "strategy": r.strategy,
                "algorithm": shown[r.algorithm],
                "arms": len(arms),
                "best_mean": best,
                "round": int(r.round),
                "n_seeds": int(r.n_seeds),
                "mean_cum_regret": float(r.mean_cum_regret),
                "ci95_lo": float(r.ci95_lo),
                "ci95_hi": float(r.ci95_hi),
                "optimal_arm_prob": float(r.optimal_arm_prob),
            }
        )
    return out


def table(summary_rows: list[Mapping[str, Any]]) -> pd.DataFrame:
    """The experiment's table (the CSV's columns)."""
    return pd.DataFrame(
        [
            (
                r["strategy"],
                r["algorithm"],
                r["arms"],
                round(r["best_mean"], 4),
                round(r["mean_cum_regret"], 3),
                f"[{r['ci95_lo']:.3f}, {r['ci95_hi']:.3f}]",
                round(r["optimal_arm_prob"], 3),
            )
            for r in summary_rows
        ],
        columns=list(COLUMNS),
    )


def markdown(frame: pd.DataFrame) -> str:
    """A Markdown table of ``frame``."""
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body]) + "\n"


def document(
    name: str,
    instance: Mapping[str, Any],
    summary_rows: list[Mapping[str, Any]],
    horizon: int,
    table_path: str,
    figure_path: str,
) -> dict[str, Any]:
    """The report's summary of experiment ``name``."""
    return {
        "experiment": name,
        "title": instance["title"],
        "horizon": horizon,
        "n_seeds": summary_rows[0]["n_seeds"] if summary_rows else 0,
        "mu_star": instance["mu_star"],
        "optimal_arms": instance["optimal_arms"],
        "rows": summary_rows,
        "table": table_path,
        "figure": figure_path,
    }
