"""An own experiment's table and report summary, from its aggregate (:mod:`causal_bandits.aggregate`).

The table gives, per (strategy, algorithm), the arms played and the best of their means, the mean
cumulative regret at the horizon with its 95 % interval (regret against the best arm the strategy
plays: an explicit arm list without the diagram's best arm shows it in a lower best mean) and the
probability of pulling an optimal arm in the last recorded round. A pair the experiment names and does not run
(POMIS+ with a solver that has no z² version) has a row too, saying so and why ("not run: no z² version").
The summary is what the report
shows: these numbers, no verdicts (an own experiment makes no paper's claim). The figure is
:mod:`.figure`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from causal_bandits import algorithms
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS

if TYPE_CHECKING:
    from causal_bandits.stages import Job

from causal_bandits import store
from causal_bandits.experiments import figure

COLUMNS = ("strategy", "algorithm", "arms", "best arm mean", "mean regret at T", "95% CI", "P(optimal arm) at T")


def _arms(instance: Mapping[str, Any], strategy: str) -> tuple[int, float]:
    """How many arms ``strategy`` plays and the best of their means."""
    arms = instance["arm_lists"]["POMIS" if strategy == POMIS_PLUS else strategy]
    return len(arms), max(instance["arms"][i]["mu"] for i in arms)


def rows(
    agg: pd.DataFrame,
    instance: Mapping[str, Any],
    labels: Mapping[str, str] | None = None,
    skipped: Sequence[Sequence[str]] = (),
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One row per (strategy, algorithm) of the aggregate at its last round, in the aggregate's order, then one per
    ``skipped`` (strategy, algorithm, reason) with its reason as ``not_run``; the algorithm by its label (what
    readers see: ``labels`` by algorithm id, else the registry's), not its key, and, for an algorithm id of
    ``params``, the values its class received (``params``, :func:`causal_bandits.experiments.algorithms.arguments`)."""

    shown = {**algorithms.labels(PAPER), **(labels or {})}
    last = agg[agg["round"] == agg["round"].max()]
    out: list[dict[str, Any]] = []
    for r in last.itertuples(index=False):
        n_arms, best = _arms(instance, r.strategy)
        out.append(
            {
                "strategy": r.strategy,
                "algorithm": shown[r.algorithm],
                "arms": n_arms,
                "best_mean": best,
                "round": int(r.round),
                "n_seeds": int(r.n_seeds),
                "mean_cum_regret": float(r.mean_cum_regret),
                "ci95_lo": float(r.ci95_lo),
                "ci95_hi": float(r.ci95_hi),
                "optimal_arm_prob": float(r.optimal_arm_prob),
                **({"params": dict(params[r.algorithm])} if params and r.algorithm in params else {}),
            }
        )
    for strategy, algorithm, reason in skipped:
        n_arms, best = _arms(instance, strategy)
        out.append(
            {"strategy": strategy, "algorithm": shown[algorithm], "arms": n_arms, "best_mean": best, "not_run": reason}
        )
    return out


def _cells(r: Mapping[str, Any]) -> tuple[Any, ...]:
    """A row's regret cells, or its reason where it was not run."""
    if "not_run" in r:
        return f"not run: {r['not_run']}", "", ""
    return (
        round(r["mean_cum_regret"], 3),
        f"[{r['ci95_lo']:.3f}, {r['ci95_hi']:.3f}]",
        round(r["optimal_arm_prob"], 3),
    )


def table(summary_rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The experiment's table (the CSV's columns)."""
    return pd.DataFrame(
        [(r["strategy"], r["algorithm"], r["arms"], round(r["best_mean"], 4), *_cells(r)) for r in summary_rows],
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
    summary_rows: Sequence[Mapping[str, Any]],
    horizon: int,
    table_path: str,
    figure_path: str,
) -> dict[str, Any]:
    """The report's summary of experiment ``name``."""
    return {
        "experiment": name,
        "title": instance["title"],
        "horizon": horizon,
        "n_seeds": next((r["n_seeds"] for r in summary_rows if "n_seeds" in r), 0),
        "mu_star": instance["mu_star"],
        "optimal_arms": instance["optimal_arms"],
        "rows": summary_rows,
        "table": table_path,
        "figure": figure_path,
    }


def summary_step(job: Job) -> None:
    """Rule experiments_summary: an own experiment's table (CSV, Markdown: :func:`table`, :func:`markdown`), regret
    figure (:func:`causal_bandits.experiments.figure.figure`) and report summary (:func:`document`)."""
    out, p = job.output, job.params
    instance = store.read_json(job.input.instance)
    agg = store.read_table(job.input.agg).to_pandas()
    summary_rows = rows(agg, instance, p.labels, p.skipped, p.arguments)
    frame = table(summary_rows)
    store.write_atomic(out.csv, partial(frame.to_csv, index=False))
    store.write_atomic(out.md, partial(Path.write_text, data=f"# {instance['title']}\n\n" + markdown(frame)))
    figure.figure(agg, instance["title"], out.pdf, out.png, labels=p.labels)
    doc = document(job.wildcards.experiment, instance, summary_rows, p.horizon, out.md, out.png)
    store.write_json(out.summary, doc)
