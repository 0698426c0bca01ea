"""Figures 1, 2(a), 2(b) and 3 of Huang, Zhang & Wu (AAAI-22), drawn from data.

* Figure 1: the schematic causal graph of a contextual bandit, with the policy pi as a soft
  intervention on the arm features.
* Figure 2(a): the Email Campaign graph built from the CPTs; arm features framed blue (can be
  intervened), the sensitive attribute framed red, the d-separation set W shaded — all computed.
* Figure 2(b): mean cumulative regret (± 1 sd band over seeds) of UCB, C-UCB, D-UCB and F-UCB.
* Figure 3: the Adult-Video graph learned by PC; parents of R shaded (bold in the paper), the
  sensitive attribute framed red.

Every figure built from stand-in data says so in its title. Each function writes a PDF and a PNG
(atomic, deterministic bytes: :func:`causal_bandits.plots.save_figure`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import pandas as pd
import seaborn as sns
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D

from causal_bandits import store
from causal_bandits.papers.fairness.runs import algorithm_label, fucb_name
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.plots.diagram import draw_diagram
from causal_bandits.plots.regret import coincide_text, coinciding, regret_panel
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:
    from causal_bandits.stages import Job


PathLike = str | os.PathLike[str]
logging.getLogger("fontTools").setLevel(logging.WARNING)  # its INFO lines on PDF font subsetting drown the logs
STANDIN_MARK = " [SYNTHETIC STAND-IN DATA]"


def _column(names: Sequence[str], x: float, top: float, step: float = 1.0) -> dict[str, tuple[float, float]]:
    return {v: (x, top - i * step) for i, v in enumerate(names)}


def _caption(ax, text: str) -> None:
    """``text`` under a diagram, as an x label (inside the constrained layout)."""
    ax.set_axis_on()
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel(text, fontsize=6.5)


def figure1(path_pdf: PathLike, path_png: PathLike) -> None:
    """Figure 1: X -> A, X -> I, A -> I, I -> R, A -> R, X -> R; pi -> A is the soft intervention."""
    graph = CausalDiagram(
        ["X", "A", "I", "R", "π"], [("X", "A"), ("X", "I"), ("A", "I"), ("I", "R"), ("A", "R"), ("X", "R"), ("π", "A")]
    )
    pos = {"π": (1.0, 1.6), "A": (1.0, 0.7), "X": (0.0, 0.0), "I": (1.0, -0.7), "R": (2.0, 0.0)}
    with paper_style():
        fig = new_figure((2.8, 2.2))
        ax = fig.add_subplot()
        draw_diagram(
            ax, graph, reward="R", border_nodes=["A"], pos=pos, title="Figure 1: contextual bandit as a causal graph"
        )
        _caption(
            ax, "X user, A arm (blue: intervened), I intermediate,\nR reward; π: soft intervention on arm selection"
        )
        save_figure(fig, path_pdf, path_png)


def figure2a(instance: Mapping[str, Any], path_pdf: PathLike, path_png: PathLike) -> None:
    """Figure 2(a): the Email graph (policy edges X -> A left out, as in the paper)."""
    g = instance["graph"]
    policy = {tuple(e) for e in g["policy_edges"]}
    graph = CausalDiagram(g["nodes"], [tuple(e) for e in g["edges"] if tuple(e) not in policy])
    x_vars, a_vars = instance["user_features"], instance["arm_features"]
    pos = {
        **_column(x_vars, 0.0, 3.0),
        **_column(a_vars, 0.0, -0.5),
        "I4": (1.2, 2.0),
        "I2": (2.4, 0.6),
        "I3": (3.6, 1.6),
        "I1": (3.6, -0.6),
        instance["reward"]["name"]: (4.8, 0.3),
    }
    W, S = instance["dsep"]["W"], instance["sensitive"]["name"]
    with paper_style():
        fig = new_figure((4.2, 3.0))
        ax = fig.add_subplot()
        draw_diagram(
            ax,
            graph,
            reward=instance["reward"]["name"],
            border_nodes=a_vars,
            thick_nodes=[S],
            shaded=W,
            pos=pos,
            title="Figure 2(a): Email Campaign graph",
        )
        _caption(
            ax,
            f"blue frame: arm features (can be intervened); red frame: sensitive {S};\nshaded: minimum "
            f"d-separation set W = {{{', '.join(W)}}} (|W| = {instance['dsep']['domain_W']});\npolicy edges "
            f"X → A not drawn",
        )
        save_figure(fig, path_pdf, path_png)


def figure2b(curves: pd.DataFrame, tau: float, scale: str, path_pdf: PathLike, path_png: PathLike) -> None:
    """Figure 2(b): cumulative regret of UCB, C-UCB, D-UCB and F-UCB (tau), mean ± 1 sd over seeds.

    F-UCB plays D-UCB's arm in every round it certifies no arm fair (its fallback), so the two
    curves can coincide: :func:`causal_bandits.plots.regret.regret_panel` then marks both along the one line
    and the legend reads "D-UCB = F-UCB"."""
    names = ["ucb", "cucb", "ducb", fucb_name(tau)]
    frame = curves[curves["algorithm"].isin(names)].copy()
    frame["label"] = frame["algorithm"].map(algorithm_label)
    frame["line"] = ""
    frame["lo"] = frame["mean_cum_regret"] - frame["sd_cum_regret"]
    frame["hi"] = frame["mean_cum_regret"] + frame["sd_cum_regret"]
    labels = [algorithm_label(n) for n in names]
    palette = dict(zip(labels, sns.color_palette("Set1", len(labels))))
    with paper_style():
        fig = new_figure((3.4, 2.5))
        ax = fig.add_subplot()
        lines = regret_panel(
            ax,
            frame,
            x="round",
            y="mean_cum_regret",
            lo="lo",
            hi="hi",
            hue="label",
            style="line",
            palette=palette,
            styles={"": "-"},
            xlabel="Round t",
            ylabel="Cumulative regret",
            title=f"Figure 2(b): bandit algorithms (τ = {tau:g} for F-UCB)\n{scale}, mean ± 1 sd",
        )
        by_label = {cast(str, line.get_label()).strip(): line for line in lines}  # labels are strings
        group_of = {v: g for g in coinciding(frame, hue="label", style="line") for v in g}
        shown = list(dict.fromkeys(coincide_text(group_of[v]) if v in group_of else v for v in labels))
        marked = {
            coincide_text(g): tuple(
                Line2D([], [], color=palette[v], marker="o", ms=3.2, mec="white", mew=0.4) for v in g
            )
            for g in group_of.values()
        }
        ax.legend(
            [marked.get(v, by_label[v]) for v in shown],
            shown,
            frameon=False,
            loc="upper left",
            handler_map={tuple: HandlerTuple(ndivide=None)},
        )
        save_figure(fig, path_pdf, path_png)


#: Short node names for Figure 3 (the drawing's circles hold about three letters).
SHORT = {
    "age": "age",
    "sex": "sex",
    "race": "race",
    "income": "inc",
    "video_age": "vage",
    "length": "len",
    "views": "vie",
    "rate": "rte",
    "ratings": "rat",
    "comments": "com",
}


def figure3_title(instance: Mapping[str, Any]) -> str:
    """Figure 3's title, marked when the graph was learned from stand-in data."""
    mark = STANDIN_MARK if instance["data_provenance"] == "synthetic-standin" else ""
    return f"Figure 3: causal graph for Adult-Video data{mark}"


def figure3(graph_doc: Mapping[str, Any], instance: Mapping[str, Any], path_pdf: PathLike, path_png: PathLike) -> None:
    """Figure 3: the learned Adult-Video graph (parents of R shaded, the sensitive attribute red)."""
    reward = instance["reward"]["name"]
    short = {**SHORT, reward: reward}
    users = [short[v] for v in graph_doc["settings"]["tiers"][0]]
    videos = [short[v] for v in graph_doc["settings"]["tiers"][1]]
    graph = CausalDiagram([short[v] for v in graph_doc["nodes"]], [(short[a], short[b]) for a, b in graph_doc["edges"]])
    pos = {**_column(users, 0.0, 1.5), **_column(videos, 2.2, 1.5), reward: (4.0, 0.0)}
    with paper_style():
        fig = new_figure((4.0, 3.1))
        ax = fig.add_subplot()
        draw_diagram(
            ax,
            graph,
            reward=reward,
            shaded=[short[v] for v in graph_doc["pa_R"]],
            thick_nodes=[short[instance["sensitive"]["name"]]],
            pos=pos,
            title=figure3_title(instance),
        )
        s = graph_doc["settings"]
        legend = ", ".join(f"{short[v]} = {v}" for v in graph_doc["nodes"] if short[v] != v)
        _caption(
            ax,
            f"learned by PC-stable (χ², α = {s['alpha']}, ≤ {s['max_cond_vars']} conditioning variables) "
            f"from {s['n_rows']} offline users;\nshaded: parents of R; red frame: sensitive attribute; "
            f"users left, videos middle;\n{legend}",
        )
        save_figure(fig, path_pdf, path_png)


def diagrams_step(job: Job) -> None:
    """Rule fairness_diagrams: Figure 1 (:func:`figure1`, the schematic) and Figure 2(a) (:func:`figure2a`, the Email
    graph)."""
    out = job.output
    figure1(out.figure1_pdf, out.figure1_png)
    figure2a(store.read_json(job.input.instance), out.figure2a_pdf, out.figure2a_png)


def figure2b_step(job: Job) -> None:
    """Rule fairness_figure2b: Figure 2(b), cumulative regret on Email (:func:`figure2b`)."""
    curves = store.read_table(job.input.curves).to_pandas()
    figure2b(curves, job.params.tau, job.params.scale, job.output.pdf, job.output.png)


def figure3_step(job: Job) -> None:
    """Rule fairness_figure3: Figure 3, the learned Adult-Video graph (:func:`figure3`)."""
    graph, instance = store.read_json(job.input.graph), store.read_json(job.input.instance)
    figure3(graph, instance, job.output.pdf, job.output.png)
