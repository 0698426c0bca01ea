"""Figures of the unknown_graph replication: Figure 1 (the paper's, redrawn from a run) and V1-V6
(designed for this replication, not in the paper; their titles say so).

Colours are fixed across figures (docs/papers/unknown_graph.md#unknown_graph-r-validation): CN-UCB, UCB, Oracle-UCB,
CN-UCB under the printed Alg. 7/8. Regret curves are mean pseudo-regret over seeds with a 95 % confidence band.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from causal_bandits import store
from causal_bandits.papers.unknown_graph.runs import LABELS
from causal_bandits.papers.unknown_graph.trace import panels
from causal_bandits.plots import new_figure, paper_style, save_figure

if TYPE_CHECKING:
    from causal_bandits.stages import Job

from causal_bandits.papers.unknown_graph import tables
from causal_bandits.papers.unknown_graph.cells import cells

PathLike = str | os.PathLike[str]
_C = sns.color_palette("colorblind", 8)
COLOURS = {"CN-UCB": _C[0], "UCB": _C[1], "Oracle-UCB": _C[2], "CN-UCB (literal Alg. 7/8)": _C[4]}
NOT_IN_PAPER = "designed for this replication, not in the paper"


def _tree_layout(nodes: Sequence[str], edges: Sequence[Sequence[str]]) -> dict[str, tuple[float, float]]:
    """Root on top, children left to right in node order, leaves evenly spaced."""
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(map(tuple, edges))
    root = next(v for v in nodes if g.in_degree(v) == 0)
    pos: dict[str, tuple[float, float]]
    pos, next_x = {}, [0.0]

    def place(v: str, depth: int) -> float:
        kids = sorted(g.successors(v), key=nodes.index)
        x = float(np.mean([place(c, depth + 1) for c in kids])) if kids else next_x[0]
        if not kids:
            next_x[0] += 1.0
        pos[v] = (x, -depth)
        return x

    place(root, 0)
    return pos


def _wrap(text: str, width: int = 34) -> str:
    return "\n".join(textwrap.wrap(text, width))


def _step_panel(ax, trace: Mapping[str, Any], panel: Mapping[str, Any], pos: Mapping[str, Any], title: str) -> None:
    """One step of Figure 1: the edges shown (oriented ones as arrows), then the nodes (X_R gold, the node
    intervened on red-outlined, eliminated ones grey and dashed)."""
    shown = set(panel["shown"])
    for kind in ("lines", "arrows"):
        for a, b in panel[kind]:
            if a in shown and b in shown:
                ax.annotate(
                    "",
                    xy=pos[b],
                    xytext=pos[a],
                    arrowprops={
                        "arrowstyle": "-|>" if kind == "arrows" else "-",
                        "color": "black",
                        "lw": 0.9,
                        "shrinkA": 9,
                        "shrinkB": 9,
                    },
                )
    for v in trace["nodes"]:
        if v not in shown:
            continue
        gone = v in panel["eliminated"]
        face = "gold" if v == trace["reward_node"] else ("0.82" if gone else "white")
        edge = "red" if v in panel["hot"] else "black"
        ax.scatter(
            *pos[v],
            s=260,
            c=[face],
            edgecolors=edge,
            linewidths=2.0 if v in panel["hot"] else 0.8,
            linestyle="--" if gone else "-",
            zorder=3,
        )
        ax.text(*pos[v], v, ha="center", va="center", fontsize=6, color="0.25" if gone else "black", zorder=4)
    ax.set_title(_wrap(title), fontsize=6)
    ax.set_xlim(min(p[0] for p in pos.values()) - 0.7, max(p[0] for p in pos.values()) + 0.7)
    ax.set_ylim(min(p[1] for p in pos.values()) - 0.6, 0.6)
    ax.axis("off")


def figure1(trace: Mapping[str, Any], pdf: PathLike, png: PathLike) -> None:
    """Figure 1: CN-UCB on the reconstructed tree, one panel per step of the run (X_R gold, the node
    intervened on red-outlined, eliminated nodes grey with a dashed outline and a grey name, oriented
    edges as arrows); a legend under the panels says so."""
    steps = panels(trace)
    pos = _tree_layout(trace["nodes"], trace["edges"])
    cols = 5
    rows = math.ceil(len(steps) / cols)
    with paper_style():
        fig = new_figure((11.0, 2.5 * rows + 0.4))
        for i, panel in enumerate(steps):
            _step_panel(fig.add_subplot(rows, cols, i + 1), trace, panel, pos, f"({chr(97 + i)}) {panel['caption']}")
        marks = [
            Line2D([], [], ls="", marker="o", ms=7, mfc="gold", mec="black", label=f"X_R = {trace['reward_node']}"),
            Line2D([], [], ls="", marker="o", ms=7, mfc="white", mec="red", mew=2.0, label="intervened on"),
            Line2D([], [], ls="", marker="o", ms=7, mfc="0.82", mec="black", label="eliminated (grey, dashed outline)"),
            Line2D([], [], color="black", marker=">", ms=4, lw=0.9, label="oriented edge"),
            Line2D([], [], color="black", lw=0.9, label="edge not yet oriented"),
        ]
        fig.legend(handles=marks, loc="outside lower center", ncol=len(marks), frameon=False, fontsize=6)
        fig.suptitle(
            f"Figure 1 redrawn from one run of CN-UCB's discovery (seed 0; B = {trace['B']:,}, "
            f"{trace['rounds']:,} rounds in all) on the reconstructed tree",
            fontsize=7,
        )
        save_figure(fig, pdf, png)


def _scale(scale: str) -> str:
    """The run's horizon and seeds as a second title line (every figure states them)."""
    return f"\n{scale}" if scale else ""


def _curve(ax, frame: pd.DataFrame, algorithm: str) -> None:
    sub = frame[frame["algorithm"] == algorithm].sort_values("round")
    label = LABELS[algorithm]
    ax.fill_between(sub["round"], sub["ci95_lo"], sub["ci95_hi"], color=COLOURS[label], alpha=0.2, lw=0)
    ax.plot(sub["round"], sub["mean_cum_regret"], color=COLOURS[label], label=label, lw=1.2)


def figV1(
    aggs: Mapping[str, pd.DataFrame],
    summaries: Mapping[str, pd.DataFrame],
    cells: Mapping[str, Any],
    pdf: PathLike,
    png: PathLike,
    *,
    scale: str = "",
) -> None:
    """V1: regret curves on trees, rows = regimes, columns = heights; dashed line: CN-UCB's mean end of
    discovery."""
    tree_cells = [c for c in aggs if cells[c]["family"] == "tree"]
    regimes = sorted({cells[c]["regime"] for c in tree_cells})
    heights = sorted({cells[c]["h"] for c in tree_cells})
    chosen = [h for h in heights if h in (4, 6, 8)] or heights[:3]
    with paper_style():
        fig = new_figure((max(3.0 * len(chosen), 6.0), 2.4 * len(regimes)))
        for r, regime in enumerate(regimes):
            for c, h in enumerate(chosen):
                cell = f"V2-tree{regime}-h{h}"
                ax = fig.add_subplot(len(regimes), len(chosen), r * len(chosen) + c + 1)
                for algorithm in ("ucb", "cn_ucb", "oracle"):
                    _curve(ax, aggs[cell], algorithm)
                disc = summaries[cell].query("algorithm == 'cn_ucb'")["unknown_graph_discovery_rounds"].mean()
                ax.axvline(disc, color=COLOURS["CN-UCB"], ls="--", lw=0.8, label="CN-UCB's discovery ends (mean)")
                ax.set_title(f"regime {regime}, tree(h={h}), n = {2 ** (h + 1) - 1}", fontsize=7)
                ax.set_xlabel("t")
                ax.set_ylabel("cumulative pseudo-regret")
        fig.axes[0].legend(fontsize=6)
        fig.suptitle(f"V1: regret on causal trees ({NOT_IN_PAPER})" + _scale(scale), fontsize=8)
        save_figure(fig, pdf, png)


def figV2(table: pd.DataFrame, pdf: PathLike, png: PathLike, K: int = 2, *, scale: str = "") -> None:
    """V2: R_T against n on trees (log-log), per regime, with Lemma 1's bound and a c n K reference."""
    trees = table[table["family"] == "tree"]
    regimes = sorted(trees["regime"].unique())
    with paper_style():
        fig = new_figure((max(3.4 * len(regimes), 6.0), 2.6))
        for i, regime in enumerate(regimes):
            ax = fig.add_subplot(1, len(regimes), i + 1)
            sub = trees[trees["regime"] == regime]
            for label in ("CN-UCB", "UCB", "Oracle-UCB"):
                s = sub[sub["algorithm"] == label].sort_values("n")
                ax.errorbar(
                    s["n"],
                    s["mean_R_T"],
                    yerr=[s["mean_R_T"] - s["ci95_lo"], s["ci95_hi"] - s["mean_R_T"]],
                    color=COLOURS[label],
                    marker="o",
                    ms=3,
                    lw=1,
                    label=label,
                )
            cn = sub[sub["algorithm"] == "CN-UCB"].sort_values("n")
            if "T1_bound" in cn:
                ax.plot(cn["n"], cn["T1_bound"], color=COLOURS["CN-UCB"], ls=":", lw=1, label="KB(2+d)log2 n + B")
            ucb = sub[sub["algorithm"] == "UCB"].sort_values("n")
            if len(ucb):
                scale = ucb["mean_R_T"].iloc[0] / (ucb["n"].iloc[0] * K)
                ax.plot(ucb["n"], scale * ucb["n"] * K, color=COLOURS["UCB"], ls=":", lw=1, label="c n K")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("n")
            ax.set_ylabel("R_T")
            ax.set_title(f"regime {regime}", fontsize=7)
        fig.axes[0].legend(fontsize=5)
        fig.suptitle(f"V2: regret at T against n ({NOT_IN_PAPER})" + _scale(scale), fontsize=8)
        save_figure(fig, pdf, png)


def figV3(table: pd.DataFrame, pdf: PathLike, png: PathLike, *, scale: str = "") -> None:
    """V3: forests: (a) R_T against C; (b) CN-UCB's discovery rounds against the Thm 2 bound."""
    sub = table[table["family"] == "forest"].copy()
    sub["C"] = sub["cell"].str.extract(r"C(\d+)").astype(int)
    with paper_style():
        fig = new_figure((6.8, 2.6))
        ax = fig.add_subplot(1, 2, 1)
        for label in ("CN-UCB", "UCB", "Oracle-UCB"):
            s = sub[sub["algorithm"] == label].sort_values("C")
            ax.plot(s["C"], s["mean_R_T"], marker="o", ms=3, color=COLOURS[label], label=label)
        ax.set_xlabel("C (trees)")
        ax.set_ylabel("R_T")
        ax.set_title("(a) regret at T", fontsize=7)
        ax.legend(fontsize=6)
        ax = fig.add_subplot(1, 2, 2)
        s = sub[sub["algorithm"] == "CN-UCB"].sort_values("C")
        ax.plot(s["C"], s["mean_discovery_rounds"], marker="o", ms=3, color=COLOURS["CN-UCB"], label="measured")
        ax.plot(s["C"], s["T1_bound"], ls=":", color="black", label="2KB(d + C) log2 n + B")
        ax.set_xlabel("C (trees)")
        ax.set_ylabel("discovery rounds")
        ax.set_title("(b) discovery rounds", fontsize=7)
        ax.legend(fontsize=6)
        fig.suptitle(f"V3: causal forests ({NOT_IN_PAPER})" + _scale(scale), fontsize=8)
        save_figure(fig, pdf, png)


def figV4(table: pd.DataFrame, cells: Mapping[str, Any], pdf: PathLike, png: PathLike, *, scale: str = "") -> None:
    """V4: general graphs (path_power): R_T against n, one panel per omega = k + 1."""
    sub = table[table["family"] == "path_power"].copy()
    sub["k"] = [cells[c]["k"] for c in sub["cell"]]
    ks = sorted(sub["k"].unique())
    with paper_style():
        fig = new_figure((max(3.0 * len(ks), 6.0), 2.6))
        for i, k in enumerate(ks):
            ax = fig.add_subplot(1, len(ks), i + 1)
            for label in ("CN-UCB", "CN-UCB (literal Alg. 7/8)", "UCB", "Oracle-UCB"):
                s = sub[(sub["k"] == k) & (sub["algorithm"] == label)].sort_values("n")
                ax.plot(s["n"], s["mean_R_T"], marker="o", ms=3, color=COLOURS[label], label=label)
            ax.set_xlabel("n")
            ax.set_ylabel("R_T")
            ax.set_title(f"omega = {k + 1}", fontsize=7)
        fig.axes[0].legend(fontsize=5)
        fig.suptitle(f"V4: general graphs, path_power(n, k) ({NOT_IN_PAPER})" + _scale(scale), fontsize=8)
        save_figure(fig, pdf, png)


def figV5(frame: pd.DataFrame, bound: float, pdf: PathLike, png: PathLike, *, scale: str = "") -> None:
    """V5: mean R_T per lower-bound instance and algorithm (bars), the bound sqrt(nKT)/8 as a line."""
    per = frame.groupby(["theorem", "algorithm", "j", "k"], sort=True)["final_regret"].mean().reset_index()
    theorems = sorted(per["theorem"].unique())
    with paper_style():
        fig = new_figure((max(3.6 * len(theorems), 6.0), 2.6))
        for i, th in enumerate(theorems):
            ax = fig.add_subplot(1, len(theorems), i + 1)
            sub = per[per["theorem"] == th]
            algorithms = [a for a in ("cn_ucb", "ucb", "oracle") if a in set(sub["algorithm"])]
            width = 0.8 / max(len(algorithms), 1)
            for a_i, algorithm in enumerate(algorithms):
                s = sub[sub["algorithm"] == algorithm]
                x = np.arange(len(s)) + a_i * width
                ax.bar(x, s["final_regret"], width=width, color=COLOURS[LABELS[algorithm]], label=LABELS[algorithm])
            ax.axhline(bound, color="black", ls="--", lw=0.8, label="sqrt(nKT)/8")
            ax.set_xlabel("instance (0, then (j, k))")
            ax.set_ylabel("mean R_T")
            ax.set_title(f"Thm {th} family", fontsize=7)
        fig.axes[0].legend(fontsize=5)
        fig.suptitle(f"V5: lower-bound instances ({NOT_IN_PAPER})" + _scale(scale), fontsize=8)
        save_figure(fig, pdf, png)


def figV6(frame: pd.DataFrame, pdf: PathLike, png: PathLike, *, scale: str = "") -> None:
    """V6: success rate of discovery against c_B, one line per n, one panel per (regime, delta)."""
    keys = sorted({(r, d) for r, d in zip(frame["regime"], frame["delta"])})
    with paper_style():
        fig = new_figure((max(3.0 * len(keys), 6.0), 2.4))
        for i, (regime, delta) in enumerate(keys):
            ax = fig.add_subplot(1, len(keys), i + 1)
            sub = frame[(frame["regime"] == regime) & (frame["delta"] == delta)]
            for n, s in sub.groupby("n"):
                s = s.sort_values("c_B")
                ax.plot(s["c_B"], s["success_rate"], marker="o", ms=3, label=f"n = {n}")
            ax.set_xscale("log")
            ax.set_ylim(0, 1.05)
            ax.axhline(1 - delta, color="black", ls=":", lw=0.8)
            ax.set_xlabel("c_B")
            ax.set_ylabel("P(X_hat = X_R)")
            ax.set_title(f"regime {regime}, delta = {delta:g}", fontsize=7)
        fig.axes[0].legend(fontsize=5)
        fig.suptitle(f"V6: discovery reliability ({NOT_IN_PAPER}); dotted: 1 - delta" + _scale(scale), fontsize=8)
        save_figure(fig, pdf, png)


def figure1_step(job: Job) -> None:
    """Rule unknown_graph_figure1: Figure 1's panels (:func:`figure1`) and the run's trace table."""
    out = job.output
    trace = store.read_json(job.input.trace)
    figure1(trace, out.figure1_pdf, out.figure1_png)
    frame = tables.figure1_trace(trace)
    store.write_atomic(out.figure1_trace_csv, partial(frame.to_csv, index=False))
    text = tables.markdown(frame, tables.figure1_title(trace))
    store.write_atomic(out.figure1_trace_md, partial(Path.write_text, data=text))


def figures_step(job: Job) -> None:
    """Rule unknown_graph_figures: figures V1-V6 (designed for this replication, not in the paper)."""
    inp, out, section = job.input, job.output, job.params.section
    specs = cells(section)
    runs_scale = f"T = {section['horizon']:,}, {section['n_seeds']} seeds per cell and algorithm"
    aggs = {Path(p).stem: store.read_table(p).to_pandas() for p in inp.agg}
    summaries = {
        Path(p).name.removesuffix(".summaries.parquet"): store.read_table(p).to_pandas() for p in inp.summaries
    }
    regret = store.read_table(inp.regret).to_pandas()
    if any(specs[c]["family"] == "tree" for c in aggs):
        figV1(aggs, summaries, specs, out.figV1_pdf, out.figV1_png, scale=runs_scale)
    figV2(regret, out.figV2_pdf, out.figV2_png, scale=runs_scale)
    figV3(regret, out.figV3_pdf, out.figV3_png, scale=runs_scale)
    figV4(regret, specs, out.figV4_pdf, out.figV4_png, scale=runs_scale)
    cfg = section["lower_bounds"]
    lb = pd.concat([store.read_table(p).to_pandas() for p in inp.v5], ignore_index=True)
    figV5(
        lb,
        math.sqrt(cfg["n"] * cfg["K"] * cfg["horizon"]) / 8,
        out.figV5_pdf,
        out.figV5_png,
        scale=f"T = {cfg['horizon']:,}, {cfg['n_seeds']} seeds per instance",
    )
    v6 = pd.concat([store.read_table(p).to_pandas() for p in inp.v6], ignore_index=True)
    figV6(
        v6,
        out.figV6_pdf,
        out.figV6_png,
        scale=f"discovery only (stages 0-2, no horizon), {section['discovery']['n_seeds']} seeds per setting",
    )
