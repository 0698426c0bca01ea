"""Tables of the unknown_graph replication. The paper has none: every table here is designed for this
replication (docs/papers/unknown_graph.md#unknown_graph-r-validation) and says so in its title.

* ``figure1_trace``: the constants and steps of the run behind Figure 1;
* ``final_regret``: R_T per V1-V4 cell and algorithm (mean, 95 % CI), with CN-UCB's discovery;
* ``tableV4_clique_success``: X_R in C0, |C0| and discovery rounds against Thm 3's bound;
* ``tableV5_lower_bounds``: max and mean over instances of the mean R_T beside sqrt(nKT)/8, with the max's
  Monte-Carlo error (standard error at the max, one-sided 95 % upper bound on the max);
* ``tableV6_discovery`` and ``tableV6_readings``: sampled discovery reliability, exact readings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa
from scipy import stats

from causal_bandits import store
from causal_bandits.papers.unknown_graph.runs import LABELS

if TYPE_CHECKING:
    from causal_bandits.stages import Job

from causal_bandits.papers.unknown_graph.cells import cells
from causal_bandits.papers.unknown_graph.runs import instance

NOT_IN_PAPER = "designed for this replication, not in the paper"


def markdown(frame: pd.DataFrame, title: str, note: str = "") -> str:
    """A pipe table with a title line (and a note under it)."""

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return f"{v:,.4g}" if abs(cast(float, v)) < 1e4 else f"{v:,.0f}"
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
        for algorithm, sub in cast(Iterable[tuple[str, pd.DataFrame]], frame.groupby("algorithm", sort=False)):
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
        cn = frame[frame["algorithm"].str.startswith("cn_ucb")]
        for algorithm, sub in cast(Iterable[tuple[str, pd.DataFrame]], cn.groupby("algorithm")):
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


def lower_bounds(frame: pd.DataFrame, bound: float, level: float = 0.95) -> pd.DataFrame:
    """tableV5: per family and algorithm, max and mean over instances of the mean R_T, beside the bound, with the
    Monte-Carlo error of the max.

    ``se_at_max`` is the standard error of the mean R_T of the instance attaining the max; ``max_upper`` is
    max_i (mean_i + t_{level, n_i - 1} se_i), a one-sided ``level`` upper confidence bound on the max over
    instances of the expected R_T: it fails only if the instance whose expectation is largest has its own
    one-sided bound fail, which happens with probability <= 1 - level (no correction for the number of
    instances is needed). NaN when an instance has fewer than two seeds.
    """
    per_instance = (
        frame.groupby(["theorem", "algorithm", "j", "k"], sort=True)["final_regret"]
        .agg(["mean", "std", "count"])
        .reset_index()
    )
    n = per_instance["count"]
    se = per_instance["std"] / np.sqrt(n)
    quantile = stats.t.ppf(level, np.maximum(n - 1, 1))
    per_instance["se"] = se.where(n >= 2)
    per_instance["upper"] = (per_instance["mean"] + quantile * se).where(n >= 2)
    rows = []
    groups = cast(
        Iterable[tuple[tuple[Any, str], pd.DataFrame]], per_instance.groupby(["theorem", "algorithm"], sort=True)
    )
    for (theorem, algorithm), sub in groups:
        at_max = sub.loc[cast(Any, sub["mean"].idxmax())]  # a row label (pandas-stubs: Hashable)
        upper = float(sub["upper"].max()) if sub["upper"].notna().all() else float("nan")
        rows.append(
            {
                "theorem": theorem,
                "algorithm": LABELS[algorithm],
                "max_mean_R_T": float(sub["mean"].max()),
                "mean_mean_R_T": float(sub["mean"].mean()),
                "bound_sqrt_nKT_over_8": bound,
                "max_at_least_bound": bool(sub["mean"].max() >= bound),
                "n_seeds_min": int(sub["count"].min()),
                "se_at_max": float(at_max["se"]),
                f"max_upper{round(level * 100)}": upper,
                f"upper{round(level * 100)}_at_least_bound": bool(upper >= bound) if upper == upper else None,
            }
        )
    return pd.DataFrame(rows)


def ordering(table: pd.DataFrame, algorithms: Sequence[str] = ("CN-UCB", "UCB")) -> pd.DataFrame:
    """Per cell: CN-UCB's and UCB's mean R_T side by side and which is lower."""
    wide = table.pivot_table(index="cell", columns="algorithm", values="mean_R_T")
    wide = wide[[a for a in algorithms if a in wide.columns]].reset_index()
    if set(algorithms) <= set(wide.columns):
        wide["lower"] = np.where(wide[algorithms[0]] < wide[algorithms[1]], algorithms[0], algorithms[1])
    return wide


def tables_step(job: Job) -> None:
    """Rule unknown_graph_tables: R_T per cell (:func:`final_regret`) and tables V4-V6 (designed for this
    replication), each as CSV and Markdown."""
    inp, out, section = job.input, job.output, job.params.section

    def write(name: str, frame: pd.DataFrame, title: str) -> None:
        store.write_atomic(out[f"{name}_csv"], partial(frame.to_csv, index=False))
        store.write_atomic(out[f"{name}_md"], partial(Path.write_text, data=markdown(frame, title, NOT_IN_PAPER)))

    specs = cells(section)
    summaries = {
        Path(p).name.removesuffix(".summaries.parquet"): store.read_table(p).to_pandas() for p in inp.summaries
    }
    sizes = {c: instance(c, specs[c], 0).n for c in summaries}
    regret = final_regret(summaries, specs, sizes)
    store.write_table(out.regret, pa.Table.from_pandas(regret, preserve_index=False), {})
    write("table_final_regret", regret, f"R_T at T = {section['horizon']:,} per cell and algorithm")
    write(
        "tableV4",
        clique_success(regret, summaries),
        "V4: X_R in C0, |C0| and discovery rounds against Thm 3's T1 (corrected and literal Alg. 7/8)",
    )
    lb = pd.concat([store.read_table(p).to_pandas() for p in inp.v5], ignore_index=True)
    cfg = section["lower_bounds"]
    write(
        "tableV5",
        lower_bounds(lb, math.sqrt(cfg["n"] * cfg["K"] * cfg["horizon"]) / 8),
        f"V5: lower-bound families, n = {cfg['n']}, K = {cfg['K']}, T = {cfg['horizon']:,}",
    )
    write(
        "tableV6_discovery",
        pd.concat([store.read_table(p).to_pandas() for p in inp.v6], ignore_index=True),
        "V6: discovery reliability on tree(h) (sampled, no stage 3)",
    )
    write(
        "tableV6_readings",
        store.read_table(inp.readings).to_pandas(),
        "V6: exact-test outcomes of the printed and corrected readings of the pseudo-code",
    )
