"""A ``pure_exploration:`` experiment's summary for the report, from its Table 2
(:func:`causal_bandits.experiments.cpe.table`).

Per algorithm (by label): its runs and how many reached the sample cap, the arms its runs recommended with how
many did ("do(X1=1) 3/3"), the share of runs whose answer is within ε of the best mean with its Wilson 95 %
interval, and the mean samples to stop; per experiment: the exact best arm and its mean, δ, ε and the cap. An
algorithm the block names and does not run (CCPE-BGLM without a BGLM) has a row saying so and why. Numbers only,
no verdicts: an own experiment makes no paper's claim. The report prints it beside the ``experiments:`` block's
summaries (:mod:`causal_bandits.report.own`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from causal_bandits import algorithms
from causal_bandits.experiments.pure_exploration import SUMMARY_KEYS
from causal_bandits.papers.cpe import PAPER

#: The report table's columns.
COLUMNS = ("algorithm", "runs", "censored", "recommended", "correct", "95% Wilson CI", "mean samples to stop")
#: What each summary row keeps of a Table 2 row (:func:`causal_bandits.experiments.cpe.table`).
KEPT = (
    "algorithm",
    "n_runs",
    "n_censored",
    "recommended",
    "correct_rate",
    "correct_wilson_low",
    "correct_wilson_high",
    "samples_mean",
)


def rows(frame: pd.DataFrame, skipped: Mapping[str, str]) -> list[dict[str, Any]]:
    """One row per algorithm of the table ``frame`` (:data:`KEPT`), then one per ``skipped`` algorithm key with its
    reason as ``not_run``."""
    out = [{k: _plain(getattr(r, k)) for k in KEPT} for r in frame.itertuples(index=False)]
    shown = algorithms.labels(PAPER)
    return out + [{"algorithm": shown[key], "not_run": reason} for key, reason in skipped.items()]


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python number JSON writes; NaN (no run stopped: no samples to stop) as None."""
    value = value.item() if hasattr(value, "item") else value
    return None if isinstance(value, float) and math.isnan(value) else value


def table(summary_rows: list[Mapping[str, Any]]) -> pd.DataFrame:
    """The report's table of an experiment (:data:`COLUMNS`)."""

    def cells(r: Mapping[str, Any]) -> tuple[Any, ...]:
        if "not_run" in r:
            return r["algorithm"], f"not run: {r['not_run']}", "", "", "", "", ""
        interval = f"[{r['correct_wilson_low']:.3f}, {r['correct_wilson_high']:.3f}]"
        counts = (r["n_runs"], r["n_censored"], r["recommended"])
        samples = "none stopped" if r["samples_mean"] is None else f"{r['samples_mean']:,.0f}"
        return r["algorithm"], *counts, f"{r['correct_rate']:.3f}", interval, samples

    return pd.DataFrame([cells(r) for r in summary_rows], columns=list(COLUMNS))


def document(
    name: str,
    title: str,
    frame: pd.DataFrame,
    best: tuple[str, float],
    skipped: Mapping[str, str],
    experiment: Mapping[str, Any],
    path: str,
) -> dict[str, Any]:
    """The report's summary of experiment ``name`` (its config block ``experiment``): its table ``frame`` (written to
    ``path``), the instance's ``best`` arm and mean (:func:`causal_bandits.experiments.cpe.best_arm`) and the
    ``skipped`` algorithms."""
    return {
        "experiment": name,
        "title": title,
        **{k: experiment[k] for k in SUMMARY_KEYS},
        "best_arm": best[0],
        "best_mean": best[1],
        "rows": rows(frame, skipped),
        "table": path,
    }
