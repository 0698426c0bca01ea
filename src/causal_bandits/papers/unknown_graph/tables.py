"""Tables of the unknown_graph replication. The paper has none: every table here is designed for this
replication (docs/papers/unknown_graph.md#unknown_graph-r-validation) and says so in its title.

* ``figure1_trace``: the constants and steps of the run behind Figure 1;
* ``final_regret``: R_T per V1-V4 cell and algorithm (mean, 95 % CI), with CN-UCB's discovery;
* ``tableV4_clique_success``: X_R in C0, |C0| and discovery rounds against Thm 3's bound;
* ``tableV5_lower_bounds``: max and mean over instances of the mean R_T beside sqrt(nKT)/8;
* ``tableV6_discovery`` and ``tableV6_readings``: sampled discovery reliability, exact readings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from causal_bandits.papers.unknown_graph.runs import LABELS

NOT_IN_PAPER = "designed for this replication, not in the paper"


def markdown(frame: pd.DataFrame, title: str, note: str = "") -> str:
    """A pipe table with a title line (and a note under it)."""

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return f"{v:,.4g}" if abs(v) < 1e4 else f"{v:,.0f}"
        return str(v)

    lines = [f"### {title}", ""]
    if note:
        lines += [note, ""]
    lines.append("| " + " | ".join(frame.columns) + " |")
    lines.append("|" + "---|" * len(frame.columns))
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def figure1_trace(trace: Mapping[str, Any]) -> pd.DataFrame:
    """One row per step: stage, step, central node, interventions, which moved the reward, oriented
    edges, candidates left; B and the rounds in the title (see :func:`figure1_title`)."""
    return pd.DataFrame(
        [
            {
                "stage": s["stage"],
                "t": s["t"],
                "central": s["central"],
                "intervened": " ".join(s["intervened"]),
                "reward moved": " ".join(v for v, hit in s["reward_trigger"].items() if hit) or "-",
                "oriented": " ".join(f"{a}->{b}" for a, b in s["oriented_edges"]) or "-",
                "candidates after": " ".join(s["cand_after"]),
            }
            for s in trace["steps"]
        ]
    )


def figure1_title(trace: Mapping[str, Any]) -> str:
    return (
        f"Figure 1 run (reconstructed tree, {trace['variant']}): B = {trace['B']:,}, Delta = {trace['Delta']:.5g}, "
        f"eps = {trace['eps']:.4g}, delta = {trace['delta']}; output {trace['output']} after {trace['rounds']:,} "
        f"rounds (bound T1 + B = {trace['bound_T1_plus_B']:,.0f}); discovery regret {trace['discovery_regret']:,.1f}"
    )


def final_regret(
    summaries: Mapping[str, pd.DataFrame], cells: Mapping[str, Mapping[str, Any]], sizes: Mapping[str, int]
) -> pd.DataFrame:
    """R_T per cell and algorithm from the per-seed summaries (one frame per cell, column ``algorithm``);
    ``sizes``: the number of nodes of each cell."""
    rows = []
    for cell, frame in summaries.items():
        spec = cells[cell]
        for algorithm, sub in frame.groupby("algorithm", sort=False):
            r = sub["final_regret"].to_numpy(float)
            half = 1.96 * r.std(ddof=1) / np.sqrt(r.size) if r.size > 1 else 0.0
            row = {
                "cell": cell,
                "experiment": spec["experiment"],
                "family": spec["family"],
                "regime": spec.get("regime", "B"),
                "n": int(sizes[cell]),
                "algorithm": LABELS[algorithm],
                "n_seeds": r.size,
                "mean_R_T": r.mean(),
                "ci95_lo": r.mean() - half,
                "ci95_hi": r.mean() + half,
            }
            if "unknown_graph_correct" in sub and sub["unknown_graph_correct"].notna().all():
                row.update(
                    correct_rate=float(sub["unknown_graph_correct"].mean()),
                    mean_discovery_rounds=float(sub["unknown_graph_discovery_rounds"].mean()),
                    T1_bound=float(sub["unknown_graph_T1_bound"].mean()),
                )
            rows.append(row)
    return pd.DataFrame(rows)


def clique_success(table: pd.DataFrame, summaries: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """tableV4: per path_power cell and CN-UCB mode, X_R in C0, mean |C0|, discovery rounds vs Thm 3."""
    rows = []
    for cell, frame in summaries.items():
        if not cell.startswith("V4"):
            continue
        for algorithm, sub in frame[frame["algorithm"].str.startswith("CNUCB")].groupby("algorithm"):
            rows.append(
                {
                    "cell": cell,
                    "mode": "literal" if algorithm.endswith("literal") else "corrected",
                    "n_seeds": len(sub),
                    "XR_in_C0": float(sub["unknown_graph_correct"].mean()),
                    "mean_C0_size": float(sub["unknown_graph_found_size"].mean()),
                    "nonterminating": float(sub["unknown_graph_nonterminating"].mean()),
                    "mean_discovery_rounds": float(sub["unknown_graph_discovery_rounds"].mean()),
                    "Thm3_T1_bound": float(sub["unknown_graph_T1_bound"].mean()),
                }
            )
    return pd.DataFrame(rows)


def lower_bounds(frame: pd.DataFrame, bound: float) -> pd.DataFrame:
    """tableV5: per family and algorithm, max and mean over instances of the mean R_T, beside the bound."""
    per_instance = frame.groupby(["theorem", "algorithm", "j", "k"], sort=True)["final_regret"].mean().reset_index()
    out = per_instance.groupby(["theorem", "algorithm"], sort=True)["final_regret"].agg(["max", "mean"]).reset_index()
    out.columns = ["theorem", "algorithm", "max_mean_R_T", "mean_mean_R_T"]
    out["algorithm"] = out["algorithm"].map(LABELS)
    out["bound_sqrt_nKT_over_8"] = bound
    out["max_at_least_bound"] = out["max_mean_R_T"] >= bound
    return out


def ordering(table: pd.DataFrame, algorithms: Sequence[str] = ("CN-UCB", "UCB")) -> pd.DataFrame:
    """Per cell: CN-UCB's and UCB's mean R_T side by side and which is lower."""
    wide = table.pivot_table(index="cell", columns="algorithm", values="mean_R_T")
    wide = wide[[a for a in algorithms if a in wide.columns]].reset_index()
    if set(algorithms) <= set(wide.columns):
        wide["lower"] = np.where(wide[algorithms[0]] < wide[algorithms[1]], algorithms[0], algorithms[1])
    return wide
