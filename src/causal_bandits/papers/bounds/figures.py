"""Figures of Huang & Wu, drawn from data: Figure 2 (the causal graph, from the SCM config),
Figure 3 (offline bounds and baselines per Table 1 index), Figure 4 (cumulative regret), and two
additions marked as such — the α sensitivity of Figure 4 and the appendix algorithms (UCB-PCB,
OAM-PCB), which the paper specifies but never runs.

Regret curves are mean cumulative (pseudo-)regret over runs with a ±1 standard-error band
(docs/papers/bounds.md#bounds-a-figure-band; the paper does not say what its band is). Each function writes a PDF and a
PNG atomically with deterministic bytes (:func:`causal_bandits.plots.save_figure`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D

from causal_bandits import algorithms, store
from causal_bandits.algorithms import ADDITION
from causal_bandits.papers.bounds import scm as bounds_scm
from causal_bandits.papers.bounds import tables
from causal_bandits.papers.bounds.runs import FIGURE4, LABELS
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.plots.diagram import draw_diagram, layered_layout
from causal_bandits.plots.regret import regret_panel
from causal_bandits.scm.cpt import CPTModel
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:
    from causal_bandits.stages import Job

PathLike = str | os.PathLike[str]
_SET1 = sns.color_palette("Set1", 9)
#: Each algorithm's colour: its registry entry's index in "Set1" (causal_bandits/papers/bounds/algorithms.py).
COLOURS = {k: _SET1[e.style["set1"]] for k, e in algorithms.registry("bounds").items()}
#: Figure 2's layout (the paper's drawing: users left, items, intermediate, outcome right).
FIGURE2_POS = {
    "U1": (0.0, 0.6),
    "U2": (0.0, -0.6),
    "X1": (1.0, 0.6),
    "X2": (1.0, -0.6),
    "C1": (2.0, 1.3),
    "I1": (2.0, 0.3),
    "S": (3.0, 0.3),
    "Y": (3.0, -0.6),
}


def figure2(m: CPTModel, pdf: PathLike, png: PathLike) -> None:
    """Figure 2: the causal graph of the SCM with the latent confounder (grey, dashed outline) and
    the selection node (blue) drawn as nodes; Y is the reward (double circle)."""
    diagram = CausalDiagram(m.variables, m.dag.edges)
    pos = {v: FIGURE2_POS.get(v, xy) for v, xy in layered_layout(diagram).items()}
    with paper_style():
        fig = new_figure((3.4, 2.0))
        ax = fig.add_subplot()
        draw_diagram(ax, diagram, reward=m.outcome, shaded=m.latent, border_nodes=[m.selection], pos=pos)
        for coll in ax.collections:  # the node markers (in diagram.nodes order): dash the latent ones
            if isinstance(coll, PathCollection) and len(cast(np.ndarray, coll.get_offsets())) == len(diagram.nodes):
                coll.set_linestyle([(0, (2, 1.5)) if v in m.latent else "solid" for v in diagram.nodes])
        ax.set_title(
            f"{', '.join(m.latent)}: latent (dashed); {m.selection}: selection; "
            f"context {', '.join(m.context)}; arms {', '.join(m.treatment)}",
            fontsize=6,
        )
        save_figure(fig, pdf, png)


def figure3(frame: pd.DataFrame, variant: str, pdf: PathLike, png: PathLike) -> None:
    """Figure 3: BCE interval, CP and Biased estimates, and the truth (red) per Table 1 index."""
    frame = frame.sort_values("index")
    x = frame["index"].to_numpy()
    with paper_style():
        fig = new_figure((5.0, 2.6))
        ax = fig.add_subplot()
        ax.vlines(x, frame["bce_lb"], frame["bce_ub"], color="0.35", linewidth=5, alpha=0.45, label="BCE")
        ax.hlines(frame["truth"], x - 0.32, x + 0.32, color="red", linewidth=1.6, label="Truth", zorder=4)
        ax.scatter(x - 0.12, frame["cp"], marker="o", s=14, color=_SET1[1], label="CP", zorder=5)
        ax.scatter(x + 0.12, frame["biased"], marker="^", s=16, color=_SET1[2], label="Biased", zorder=5)
        ax.set_xticks(x)
        ax.set_xlim(0.3, x.max() + 0.7)
        ax.set_ylim(0, 1)
        ax.set_xlabel("Value of the context vector (Table 1 index)")
        ax.set_ylabel("Estimated reward")
        title = {
            "conditional": "every column conditional on the context, as the text defines it; Truth = exact μ(a, c)",
            "paper_marginal": "Truth, Biased, lb, ub ignore the context (what the published Table 1 "
            "matches); CP conditional",
        }
        ax.set_title(f"Figure 3 ({variant})\n{title[variant]}", fontsize=7)
        handles, labels = ax.get_legend_handles_labels()
        order = [labels.index(k) for k in ("BCE", "CP", "Biased", "Truth")]
        ax.legend([handles[i] for i in order], [labels[i] for i in order], ncol=4, loc="upper left", frameon=False)
        sns.despine(ax=ax)
        save_figure(fig, pdf, png)


def with_band(agg: pd.DataFrame) -> pd.DataFrame:
    """The aggregate with ±1 standard-error columns ``lo`` / ``hi``."""
    se = agg["sd_cum_regret"] / np.sqrt(agg["n_seeds"])
    return agg.assign(lo=agg["mean_cum_regret"] - se, hi=agg["mean_cum_regret"] + se)


def _curves(
    ax: Axes, agg: pd.DataFrame, algorithms: Sequence[str], dashed: Sequence[str] = (), legend: bool = True, **kw
) -> None:
    """One curve per algorithm (colour per algorithm, ``dashed`` ones as references) and a legend."""
    frame = with_band(agg[agg["algorithm"].isin(algorithms)])
    frame = frame.assign(group=np.where(frame["algorithm"].isin(dashed), "reference", ""))
    regret_panel(
        ax,
        frame,
        lo="lo",
        hi="hi",
        hue="algorithm",
        style="group",
        xlabel="Round t",
        palette={a: COLOURS[a] for a in algorithms},
        styles={"": "-", "reference": "--"},
        **kw,
    )
    if legend:
        handles = [Line2D([], [], color=COLOURS[a], linestyle="--" if a in dashed else "-") for a in algorithms]
        ax.legend(handles, [LABELS[a] for a in algorithms], frameon=False, loc="upper left")


def figure4(agg: pd.DataFrame, algorithms: Sequence[str], pdf: PathLike, png: PathLike, *, subtitle: str) -> None:
    """Figure 4: mean cumulative regret of LinUCB-PCB, LinUCB, LinUCB_Biased, LinUCB_CP (±1 SE)."""
    with paper_style():
        fig = new_figure((3.6, 2.7))
        ax = fig.add_subplot()
        _curves(ax, agg, algorithms, title=f"Figure 4: contextual linear bandit\n{subtitle}")
        save_figure(fig, pdf, png)


def figure4_alpha(
    aggs: Mapping[float, pd.DataFrame], algorithms: Sequence[str], pdf: PathLike, png: PathLike, *, subtitle: str
) -> None:
    """Sensitivity of Figure 4 to LinUCB's α (an addition): one panel per α, shared y scale."""
    with paper_style():
        fig = new_figure((2.5 * len(aggs), 2.5))
        axes = fig.subplots(1, len(aggs), sharey=True, squeeze=False)[0]
        for i, (ax, (alpha, agg)) in enumerate(zip(axes, sorted(aggs.items()))):
            _curves(ax, agg, algorithms, legend=i == 0, title=f"α = {alpha:g}")
        fig.suptitle(f"Figure 4 vs. LinUCB's α ({ADDITION}; {subtitle})", fontsize=8)
        save_figure(fig, pdf, png)


def figure_appendix(appendix: pd.DataFrame, main: pd.DataFrame, pdf: PathLike, png: PathLike, *, subtitle: str) -> None:
    """The appendix algorithms (an addition): (a) UCB vs UCB-PCB on the arms do(x) without context,
    (b) OAM vs OAM-PCB with LinUCB and LinUCB-PCB (dashed) for reference."""
    with paper_style():
        fig = new_figure((6.4, 2.6))
        a, b = fig.subplots(1, 2)
        _curves(a, appendix, ["ucb_pcb", "ucb"], title="(a) UCB-PCB (Alg. 6), arms do(x), no context")
        both = pd.concat([appendix, main[main["algorithm"].isin(["linucb_pcb", "linucb"])]], ignore_index=True)
        pcb, plain = (appendix[appendix["algorithm"] == a]["mean_cum_regret"].to_numpy() for a in ("oam_pcb", "oam"))
        same = np.array_equal(pcb, plain)
        _curves(
            b,
            both,
            ["oam_pcb", "oam", "linucb_pcb", "linucb"],
            dashed=["linucb_pcb", "linucb"],
            title="(b) OAM-PCB (Alg. 5), contextual" + ("\nOAM-PCB = OAM: the bounds never bind" if same else ""),
        )
        fig.suptitle(f"Appendix algorithms ({ADDITION}; {subtitle})", fontsize=8)
        save_figure(fig, pdf, png)


def figure2_step(job: Job) -> None:
    """Rule bounds_figure2: the causal graph, drawn from the SCM config (:func:`figure2`)."""
    figure2(bounds_scm.model({"scm": job.params.scm}), job.output.pdf, job.output.png)


def figure3_step(job: Job) -> None:
    """Rule bounds_figure3: BCE intervals, CP, Biased and the truth per Table 1 index, one variant
    (:func:`figure3`)."""
    frame = store.read_table(job.input.estimates).to_pandas()
    figure3(frame, job.wildcards.variant, job.output.pdf, job.output.png)


def figure4_step(job: Job) -> None:
    """Rule bounds_figure4: Figure 4 (mean cumulative regret, ±1 SE band, :func:`figure4`) and its final regrets as a
    table."""
    out = job.output
    agg = store.read_table(job.input.agg).to_pandas()
    subtitle = f"{job.params.scale}, α = {job.params.online['alpha']:g}"
    figure4(agg, list(FIGURE4), out.figure4_pdf, out.figure4_png, subtitle=subtitle)
    final = tables.final_table(agg, list(FIGURE4))
    store.write_atomic(out.figure4_final_csv, lambda tmp: final.to_csv(tmp, index=False, float_format="%.4f"))


def figure4_alpha_step(job: Job) -> None:
    """Rule bounds_figure4_alpha: Figure 4 for each α of ``online.sensitivity_alphas`` (:func:`figure4_alpha`)."""
    alphas = job.params.online["sensitivity_alphas"]
    aggs = {a: store.read_table(path).to_pandas() for a, path in zip(alphas, job.input.agg)}
    figure4_alpha(aggs, list(FIGURE4), job.output.pdf, job.output.png, subtitle=job.params.scale)


def figure_appendix_step(job: Job) -> None:
    """Rule bounds_figure_appendix: UCB-PCB and OAM-PCB against their baselines (:func:`figure_appendix`)."""
    appendix = store.read_table(job.input.appendix).to_pandas()
    main = store.read_table(job.input.main).to_pandas()
    figure_appendix(appendix, main, job.output.pdf, job.output.png, subtitle=job.params.scale)
