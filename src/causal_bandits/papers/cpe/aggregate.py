"""cpe aggregation: per-seed run summaries -> one row per (config, strategy, algorithm), and error
against budget (docs/papers/cpe.md#cpe-common, docs/papers/cpe.md#cpe-outputs).

Correctness is judged with the config's ε: a recommendation a is correct when μ* − μ_a <= ε (the
engine's own ``correct`` is exact-best). Stopping-time statistics use the runs that stopped
(censored ones are counted, not averaged); the correctness rate counts every run, a censored run by
its recommendation at the cap. Wilson 95 % intervals: :func:`causal_bandits.claims.wilson`.
Error against budget: for a fixed-confidence algorithm, the share of seeds whose recommendation at
a checkpoint is wrong (a stopped seed keeps its output); for the parallel bandit, the share wrong
at the end of each budget. T_δ is the first checkpoint (or budget) with error <= δ.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from causal_bandits import algorithms, store
from causal_bandits.claims import wilson
from causal_bandits.papers.cpe import PAPER
from causal_bandits.papers.cpe import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.cpe.design import BUDGETED

REC_PREFIX = "cpe_rec_"


def read_summaries(paths: Iterable[str | Path]) -> pd.DataFrame:
    """Every per-seed summary row with its job's coordinates (key, strategy, algorithm) from the metadata."""
    frames = []
    for path in paths:
        meta = store.read_metadata(path)
        frame = store.read_table(path).to_pandas()
        frame["key"], frame["strategy"], frame["algorithm"] = meta["experiment"], meta["strategy"], meta["algorithm"]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _wrong(recommended: np.ndarray, mu: np.ndarray, epsilon: float) -> np.ndarray:
    return mu.max() - mu[np.asarray(recommended, dtype=np.int64)] > epsilon + 1e-12


def _settings(frame: pd.DataFrame):
    """The per-seed rows of each (key, strategy, algorithm), in that order, algorithms by label."""
    order = ["key", "strategy", "algorithm"]
    ordered = frame.sort_values(order, key=algorithms.label_order(PAPER))
    return ordered.groupby(order, sort=False)


def stopping_table(frame: pd.DataFrame, instances: Mapping[str, Mapping[str, Any]], delta: float) -> pd.DataFrame:
    """One row per (config, strategy, algorithm). ``instances[key]`` holds ``mu``, ``epsilon``,
    ``config``, ``params`` and the quantities ``summary`` of the run key's instance."""
    rows = []
    for (key, strategy, algorithm), g in _settings(frame):
        inst = instances[cast(str, key)]  # group keys are the string columns' values
        mu, eps, q = np.asarray(inst["mu"]), inst["epsilon"], inst["summary"]
        wrong = _wrong(g["recommended"].to_numpy(), mu, eps)
        stopped = g.loc[~g["censored"], "stopped_at"].to_numpy(dtype=float)
        n = len(g)
        low, high = wilson(n - wrong.sum(), n)
        H_m = q["H_m_G"]
        row = {
            "key": key,
            "config": inst["config"],
            "strategy": strategy,
            "algorithm": algorithm,
            **{f"param_{k}": v for k, v in inst["params"].items()},
            "epsilon": eps,
            "n_arms": q["n_arms"],
            "n_runs": n,
            "n_censored": int(g["censored"].sum()),
            "samples_mean": stopped.mean() if stopped.size else np.nan,
            "samples_se": stopped.std(ddof=1) / np.sqrt(stopped.size) if stopped.size > 1 else np.nan,
            "samples_median": np.median(stopped) if stopped.size else np.nan,
            "samples_q10": np.quantile(stopped, 0.1) if stopped.size else np.nan,
            "samples_q90": np.quantile(stopped, 0.9) if stopped.size else np.nan,
            "correct_rate": 1.0 - wrong.mean(),
            "correct_wilson_low": low,
            "correct_wilson_high": high,
            "ci_violation_rate": g["cpe_ci_violation"].mean() if "cpe_ci_violation" in g else np.nan,
            "n_empty_intersections": g["cpe_n_empty_intersections"].mean()
            if "cpe_n_empty_intersections" in g
            else np.nan,
            "H": q["H"],
            "H_m": H_m,
            "H_m_L": q["H_m_L"],
            "LB": q["LB_thm3"],
            "UB": q["UB"],
            "delta": delta,
        }
        row["samples_over_H"] = row["samples_mean"] / q["H"]
        row["samples_over_Hm"] = row["samples_mean"] / H_m
        rows.append(row)
    return pd.DataFrame(rows)


def budget_table(frame: pd.DataFrame, instances: Mapping[str, Mapping[str, Any]], delta: float) -> pd.DataFrame:
    """Error probability against samples: (key, strategy, algorithm, budget, error, n) rows, and T_δ
    per (key, strategy, algorithm) in column ``T_delta`` (NaN when no budget reaches δ)."""
    rows = []
    for (key, strategy, algorithm), g in _settings(frame):
        inst = instances[cast(str, key)]  # group keys are the string columns' values
        mu, eps = np.asarray(inst["mu"]), inst["epsilon"]
        if algorithm == BUDGETED:
            budget = int(cast(str, strategy).removeprefix("T"))
            points = [(budget, g["recommended"].to_numpy())]
            strategy = "budget"
        else:
            points = [
                (int(c.removeprefix(REC_PREFIX)), g[c].to_numpy())
                for c in g.columns
                if c.startswith(REC_PREFIX) and g[c].notna().all()
            ]
        rows += [
            {
                "key": key,
                "config": inst["config"],
                "strategy": strategy,
                "algorithm": algorithm,
                "budget": b,
                "error": float(_wrong(rec, mu, eps).mean()),
                "n": len(rec),
            }
            for b, rec in points
        ]
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table = table.sort_values(
        ["key", "strategy", "algorithm", "budget"], key=algorithms.label_order(PAPER), ignore_index=True
    )
    reached = table[table["error"] <= delta].groupby(["key", "strategy", "algorithm"])["budget"].min()
    table["T_delta"] = [reached.get((k, s, a), np.nan) for k, s, a in zip(table.key, table.strategy, table.algorithm)]
    return table
