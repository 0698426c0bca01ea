"""cpe tables, all designed for this replication (the paper has none; docs/papers/cpe.md#cpe-outputs).

* Table 1 — every instance's exact quantities (docs/papers/cpe.md#cpe-quantities), one row per (experiment, config), and
  the E4b theory rows; full precision in the CSV.
* Table 2 — PAC correctness (rate, Wilson 95 %), censoring, CI violations (E0) and stopping times
  per (experiment, config, strategy, algorithm); the fixed-budget parallel bandit is left out.
* Table 3 — E5 (Theorem 3 class): mean samples against the lower bound and the upper-bound term.
* Table 4 — log-log slopes of mean samples against |A| (E1, E4) with 95 % intervals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from causal_bandits import algorithms
from causal_bandits.papers.cpe import PAPER
from causal_bandits.papers.cpe import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.cpe.design import BUDGETED

DESIGNED = "Designed for this replication (docs/papers/cpe.md#cpe-experiments); the paper reports no experiment."

TITLES = {
    "instances": "Table 1 [designed]: exact complexity quantities of every instance "
    "(docs/papers/cpe.md#cpe-quantities).",
    "pac": "Table 2 [designed]: correctness (Wilson 95 %), censoring, CI violations and samples to stop.",
    "lower_bound": "Table 3 [designed]: E5 (Theorem 3 class) — samples against the lower bound LB and the "
    "upper-bound term UB (constants unknown: compare ratios across configs).",
    "slopes": "Table 4 [designed]: log-log slope of mean samples against |A| (E1, E4), 95 % interval.",
}


def instances_table(
    quantities: Mapping[tuple[str, str], Mapping[str, Any]], theory: Sequence[Mapping[str, Any]]
) -> pd.DataFrame:
    """Table 1: one row per (experiment, config) from the quantities documents, then E4b rows."""
    rows = [{"experiment": e, "config": c, **q["summary"]} for (e, c), q in sorted(quantities.items())]
    rows += [{"experiment": "E4b", "config": f"k{r['param_k']}", "family": "bglm", **r} for r in theory]
    return pd.DataFrame(rows)


def pac_table(stopping: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Table 2 from the experiments' stopping tables (parallel-bandit rows dropped)."""
    frames = [f.assign(experiment=e) for e, f in stopping.items() if not f.empty]
    if not frames:
        return pd.DataFrame()
    table = pd.concat(frames, ignore_index=True)
    table = table[table["algorithm"] != BUDGETED]
    cols = [
        "experiment",
        "config",
        "strategy",
        "algorithm",
        "epsilon",
        "n_arms",
        "n_runs",
        "n_censored",
        "correct_rate",
        "correct_wilson_low",
        "correct_wilson_high",
        "ci_violation_rate",
        "samples_mean",
        "samples_se",
        "samples_median",
        "samples_q10",
        "samples_q90",
        "H",
        "H_m",
        "samples_over_H",
        "samples_over_Hm",
        "n_empty_intersections",
    ]
    return table[cols].reset_index(drop=True)


def lower_bound_table(
    stopping: Mapping[str, pd.DataFrame],
    quantities: Mapping[tuple[str, str], Mapping[str, Any]],
    experiment: str = "E5",
) -> pd.DataFrame:
    """Table 3: samples, LB, UB and their ratios for the Theorem 3 experiment."""
    frame = stopping.get(experiment)
    if frame is None or frame.empty:
        return pd.DataFrame(
            columns=[
                "config",
                "algorithm",
                "samples_mean",
                "LB",
                "UB",
                "samples_over_LB",
                "samples_over_UB",
                "in_thm3_class",
            ]
        )
    out = frame[frame["algorithm"] != BUDGETED][
        ["config", "algorithm", "samples_mean", "samples_se", "LB", "UB"]
    ].copy()
    out["samples_over_LB"] = np.where(out["LB"] > 0, out["samples_mean"] / out["LB"], np.nan)
    out["samples_over_UB"] = out["samples_mean"] / out["UB"]
    out["in_thm3_class"] = [quantities[experiment, c]["summary"]["in_thm3_class"] for c in out["config"]]
    return out.reset_index(drop=True)


def slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares slope of log y on log x with its 95 % interval (NaN with fewer than 3 points)."""
    ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if ok.sum() < 3:
        return float("nan"), float("nan"), float("nan")
    fit = stats.linregress(np.log(x[ok]), np.log(y[ok]))
    half = stats.t.ppf(0.975, ok.sum() - 2) * fit.stderr
    return float(fit.slope), float(fit.slope - half), float(fit.slope + half)


def slopes_table(stopping: Mapping[str, pd.DataFrame], experiments: Sequence[str] = ("E1", "E4")) -> pd.DataFrame:
    """Table 4: per (experiment, strategy, algorithm) the slope of mean samples against |A|."""
    rows = []
    for e in experiments:
        frame = stopping.get(e)
        if frame is None or frame.empty:
            continue
        fixed_confidence = frame[frame["algorithm"] != BUDGETED]
        ordered = fixed_confidence.sort_values(["strategy", "algorithm"], key=algorithms.label_order(PAPER))
        for (strategy, algorithm), g in ordered.groupby(["strategy", "algorithm"], sort=False):
            s, lo, hi = slope(g["n_arms"].to_numpy(float), g["samples_mean"].to_numpy(float))
            rows.append(
                {
                    "experiment": e,
                    "strategy": strategy,
                    "algorithm": algorithm,
                    "n_configs": len(g),
                    "slope": s,
                    "slope_ci_low": lo,
                    "slope_ci_high": hi,
                }
            )
    return pd.DataFrame(
        rows, columns=["experiment", "strategy", "algorithm", "n_configs", "slope", "slope_ci_low", "slope_ci_high"]
    )


def printed(table: pd.DataFrame) -> pd.DataFrame:
    """A table as its CSV and Markdown show it: algorithms by their registry labels, not their keys."""
    return algorithms.shown(PAPER, table)


def markdown(table: pd.DataFrame, name: str) -> str:
    """A table as Markdown under its title and the 'designed' note (10 significant digits)."""
    body = table.to_markdown(index=False, floatfmt=".10g") if not table.empty else "(no rows in this run)"
    return f"{TITLES[name]} {DESIGNED}\n\n{body}\n"
