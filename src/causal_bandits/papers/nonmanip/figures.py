"""Figures 1–5 of Lee & Bareinboim, "Structural Causal Bandits with Non-Manipulable Variables"
(AAAI-19), drawn from data: diagrams from :data:`~causal_bandits.papers.nonmanip.graphs.GRAPHS`
with MUCT / IB / projections *computed* (never hard-coded), regret curves from aggregated runs.

Each function writes one PDF and one PNG (atomically, deterministic bytes; see
:func:`causal_bandits.plots.save_figure`). Items our reading (docs/papers/nonmanip.md#nonmanip-readings) marks as
reconstructions [R] (the Fig. 3 graph, the Fig. 5c/5d graph) say so in their panel titles.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pandas as pd
from matplotlib.axes import Axes

from causal_bandits import algorithms, store
from causal_bandits.causal.pomis import interventional_border, muct, pomis
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.nonmanip.graphs import GRAPHS, REWARD
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.plots.diagram import diagram_limits, draw_diagram, layered_layout, union_limits
from causal_bandits.plots.regret import coincide_text, coinciding, legend_handles, regret_panel, scale_text
from causal_bandits.scm.diagram import CausalDiagram

if TYPE_CHECKING:
    from causal_bandits.stages import Job

PathLike = str | os.PathLike[str]

__all__ = [
    "figure1",
    "figure2",
    "figure3",
    "figure4",
    "figure5",
    "figure5_optimal_arm",
    "projection_added_edges",
]

PANEL_LETTERS = "abcdefgh"
#: Fig. 5's legend and colour order of the strategies (seaborn "Set1" in this order; the first is drawn
#: on top) and of the solvers (registry order: causal_bandits/papers/nonmanip/algorithms.py), their
#: labels (additions marked) and line styles (TS solid, KL-UCB dashed; a solver registered without a
#: line style gets the next of dotted, dash-dotted, ...). ``POMISplus`` is the file-safe key of POMIS+.
STRATEGY_ORDER = ("POMIS+", "POMIS", "MIS", "BF")
ALGORITHM_ORDER = tuple(algorithms.solvers(PAPER))
LABELS = {
    POMIS_PLUS: "POMIS+",
    **{k: v for k, v in algorithms.labels(PAPER).items() if k != v and k in ALGORITHM_ORDER},
}
_SPARE_STYLES = iter([":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3))] * 10)
LINESTYLES = {k: algorithms.registry(PAPER)[k].style.get("linestyle") or next(_SPARE_STYLES) for k in ALGORITHM_ORDER}


def _rank(value: str) -> tuple[int, str]:
    """Sort key: strategies and solvers in the paper's order, any other value after them by name."""
    label = LABELS.get(value, value)
    for order in (STRATEGY_ORDER, ALGORITHM_ORDER):
        if label in order or value in order:
            return order.index(label if label in order else value), label
    return len(STRATEGY_ORDER), label


def palette(strategies: Iterable[str]) -> dict[str, object]:
    """seaborn "Set1" colours: POMIS+, POMIS, MIS, BF first (fixed), further strategies after, by name."""
    import seaborn as sns  # here: the studies' outputs, which the workflow plans with, import this module (1 s)

    labels = {s: LABELS.get(s, s) for s in strategies}
    extra = sorted(set(labels.values()) - set(STRATEGY_ORDER))
    colours = dict(zip([*STRATEGY_ORDER, *extra], sns.color_palette("Set1", len(STRATEGY_ORDER) + len(extra))))
    return {s: colours[label] for s, label in labels.items()}


def _set_text(names: Iterable[str]) -> str:
    names = sorted(names)
    return "{" + ", ".join(names) + "}" if names else "∅"


def _family_text(sets: Iterable[Sequence[str]]) -> str:
    return "{" + ", ".join(_set_text(s) for s in sets) + "}"


def _caption(ax: Axes, text: str) -> None:
    """Put ``text`` under a diagram panel as an x label (kept inside the constrained layout)."""
    ax.set_axis_on()
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel(text, fontsize=7, linespacing=1.3)


def _lettered(letter: str, title: str) -> str:
    return title if title.lstrip().startswith("(") else f"({letter}) {title}"


def projection_added_edges(G: CausalDiagram, H: CausalDiagram) -> list[tuple[str, str, str]]:
    """Edges of the projection ``H`` that ``G`` does not have, as ``("->", a, b)`` / ``("<->", a, b)``."""
    added = [("->", a, b) for a, b in sorted(H.directed - G.directed)]
    added += [
        cast(tuple[str, str, str], ("<->", *sorted(e))) for e in sorted((H.bidirected - G.bidirected), key=sorted)
    ]
    return added


# ------------------------------------------------------------------------------------ Fig. 1
def figure1(path_pdf: PathLike, path_png: PathLike, *, graph: CausalDiagram | None = None) -> None:
    """AAAI-19 Fig. 1: the front-door graph X → Z → Y, X ↔ Y, with Y the reward (double circle)."""
    G = GRAPHS["frontdoor"] if graph is None else graph
    with paper_style():
        fig = new_figure((2.4, 1.15))
        ax = fig.add_subplot()
        draw_diagram(ax, G, reward=REWARD)
        save_figure(fig, path_pdf, path_png)


# ------------------------------------------------------------------------------------ Fig. 2
FIG2_PANELS: tuple[tuple[tuple[str, ...], str], ...] = (
    ((), r"$\mathcal{G}$"),
    (("A",), r"$\mathcal{G}_{\overline{A}}$"),
    (("B",), r"$\mathcal{G}_{\overline{B}}$"),
    (("A", "C"), r"$\mathcal{G}_{\overline{A,C}}$"),
)


def figure2(path_pdf: PathLike, path_png: PathLike, *, graph: CausalDiagram | None = None) -> None:
    """AAAI-19 Fig. 2: the Fig. 2a graph G and the manipulated graphs G_{\\bar A}, G_{\\bar B},
    G_{\\bar{A,C}}, each with its MUCT (thick red) and interventional border (blue), computed with
    :func:`~causal_bandits.causal.pomis.muct` / :func:`~causal_bandits.causal.pomis.interventional_border`.
    All panels keep the node positions of G."""
    G = GRAPHS["fig2a"] if graph is None else graph
    pos = layered_layout(G)
    graphs = [G.do(X) if X else G for X, _ in FIG2_PANELS]
    limits = union_limits(diagram_limits(Gx, pos) for Gx in graphs)
    with paper_style():
        fig = new_figure((7.5, 1.85))
        axes = fig.subplots(1, len(FIG2_PANELS))
        for ax, letter, Gx, (_, title) in zip(axes, PANEL_LETTERS, graphs, FIG2_PANELS):
            T, ib = muct(Gx, REWARD), interventional_border(Gx, REWARD)
            draw_diagram(
                ax,
                Gx,
                reward=REWARD,
                thick_nodes=T,
                border_nodes=ib,
                title=f"({letter}) {title}",
                pos=pos,
                limits=limits,
            )
            _caption(ax, f"MUCT = {_set_text(T)}\nIB = {_set_text(ib)}")
        fig.suptitle(f"MUCT: thick red; IB: blue.   POMISs of G: {_family_text(pomis(G, REWARD))}", fontsize=7)
        save_figure(fig, path_pdf, path_png)


# ------------------------------------------------------------------------------------ Fig. 3
def figure3(
    path_pdf: PathLike,
    path_png: PathLike,
    *,
    graph: CausalDiagram | None = None,
    keep: Sequence[str] = ("X", "Z", "Y"),
) -> None:
    """AAAI-19 Fig. 3 [R]: a larger graph whose marginalised variables (here H, W1, W2, shaded)
    project away to the front-door graph of Fig. 1; left the graph, right its latent projection
    onto ``keep`` (computed). The graph is our illustrative reconstruction
    (docs/papers/nonmanip.md#nonmanip-r-fig3-graph)."""
    G = GRAPHS["fig3"] if graph is None else graph
    hidden = sorted(set(G.nodes) - set(keep))
    H = G.latent_projection(keep)
    with paper_style():
        fig = new_figure((6.0, 1.9))
        ax_g, ax_h = fig.subplots(1, 2, width_ratios=[2.2, 1.0])
        draw_diagram(ax_g, G, reward=REWARD, shaded=hidden, title=r"(a) $\mathcal{G}$ [R: reconstructed graph]")
        _caption(ax_g, f"shaded (marginalised): {_set_text(hidden)}")
        draw_diagram(ax_h, H, reward=REWARD, title=f"(b) projection onto {_set_text(keep)}")
        _caption(ax_h, f"POMISs with N = {_set_text(hidden)}:\n{_family_text(pomis(G, REWARD, hidden))}")
        save_figure(fig, path_pdf, path_png)


# ------------------------------------------------------------------------------------ Fig. 4
def figure4(
    path_pdf: PathLike,
    path_png: PathLike,
    *,
    graph: CausalDiagram | None = None,
    marginalise: Sequence[str] = ("A", "B", "C"),
) -> None:
    """AAAI-19 Fig. 4: latent projections of the Fig. 2a graph marginalising A, B and C in turn
    (computed with :meth:`CausalDiagram.latent_projection`); edges the projection adds (edges of the
    projection absent from G) are thick red. Captions give ℙ^N = ℙ of the projection (Theorem 4)."""
    G = GRAPHS["fig2a"] if graph is None else graph
    pos = layered_layout(G)
    projections = [G.latent_projection(set(G.nodes) - {v}) for v in marginalise]
    limits = union_limits(diagram_limits(H, {u: pos[u] for u in H.nodes}) for H in projections)
    with paper_style():
        fig = new_figure((6.0, 1.85))
        axes = fig.subplots(1, len(marginalise))
        for ax, letter, v, H in zip(axes, PANEL_LETTERS, marginalise, projections):
            draw_diagram(
                ax,
                H,
                reward=REWARD,
                added_edges=projection_added_edges(G, H),
                title=f"({letter}) marginalising ${v}$",
                pos={u: pos[u] for u in H.nodes},
                limits=limits,
            )
            _caption(ax, f"POMISs: {_family_text(pomis(G, REWARD, [v]))}")
        fig.suptitle("Edges added by the projection: thick red", fontsize=7)
        save_figure(fig, path_pdf, path_png)


# ------------------------------------------------------------------------------------ Fig. 5
def _strategies(frames: Iterable[pd.DataFrame]) -> tuple[list[str], list[str]]:
    strategies: set[str] = set()
    algorithms: set[str] = set()
    for f in frames:
        strategies |= set(f["strategy"].unique())
        algorithms |= set(f["algorithm"].unique())
    return sorted(strategies, key=_rank), sorted(algorithms, key=_rank)


def figure5(
    agg: Mapping[str, pd.DataFrame],
    titles: Mapping[str, str],
    graph_5d: CausalDiagram,
    non_manipulable_5d: Iterable[str],
    path_pdf: PathLike,
    path_png: PathLike,
) -> None:
    """AAAI-19 Fig. 5: (a)–(c) average cumulative regret (mean with a translucent 95 % CI band) of
    every strategy × algorithm, one panel per key of ``agg`` in order, titled ``titles[key]``;
    (d) the graph of (c) with its non-manipulable variables shaded — a reconstruction [R], since the
    paper only draws it (docs/papers/nonmanip.md#nonmanip-r-fig5d-graph).

    Colours per strategy (seaborn "Set1": POMIS+, POMIS, MIS, BF; POMIS+ may be absent), TS solid,
    KL-UCB dashed; one shared legend of strategies and line styles; the horizon and seeds on top.
    Strategies with identical arm sets give identical runs, hence one curve: the panel's title says
    "POMIS = MIS = BF" and the curve carries markers in each of their colours.
    """
    if not agg:
        raise ValueError("figure5 needs at least one aggregated frame")
    strategies, algorithms = _strategies(agg.values())
    colours = palette(strategies)
    with paper_style():
        fig = new_figure((7.5, 2.15))
        axes = fig.subplots(1, len(agg) + 1, width_ratios=[1.0] * len(agg) + [1.1])
        for i, (ax, letter, (key, frame)) in enumerate(zip(axes, PANEL_LETTERS, agg.items())):
            _regret(ax, frame, _lettered(letter, titles.get(key, key)), colours, first=i == 0)
        letter = PANEL_LETTERS[len(agg)]
        draw_diagram(
            axes[-1],
            graph_5d,
            reward=REWARD,
            shaded=non_manipulable_5d,
            title=f"({letter}) graph of ({PANEL_LETTERS[len(agg) - 1]}) [R]",
        )
        _caption(axes[-1], f"shaded: N = {_set_text(non_manipulable_5d)}\n[R] reconstructed graph")
        handles, labels = legend_handles(strategies, algorithms, palette=colours, styles=LINESTYLES, labels=LABELS)
        fig.legend(
            handles,
            labels,
            loc="outside upper center",
            ncol=len(labels),
            frameon=False,
            handlelength=2.4,
            columnspacing=1.4,
            title=f"{scale_text(agg.values())} per curve; mean with 95 % CI band",
            title_fontsize=7,
        )
        save_figure(fig, path_pdf, path_png)


def _regret(ax, frame: pd.DataFrame, title: str, colours: Mapping[str, Any], *, first: bool) -> None:
    """One regret panel of Fig. 5 (a)-(c); strategies with the same arms, hence one curve, named in its title."""
    same = coinciding(frame, hue="strategy", style="algorithm", order=_rank)
    if same:
        title += "\n" + "; ".join(coincide_text(g, LABELS) for g in same) + " (same arms)"
    regret_panel(
        ax,
        frame,
        palette=colours,
        styles=LINESTYLES,
        order=_rank,
        labels=LABELS,
        title=title,
        ylabel="Cumulative regret" if first else "",
    )


def figure5_optimal_arm(
    agg: Mapping[str, pd.DataFrame],
    titles: Mapping[str, str],
    path_pdf: PathLike,
    path_png: PathLike,
) -> None:
    """Addition to AAAI-19 Fig. 5 (not in the paper): the fraction of simulations pulling an
    optimal arm per round (column ``optimal_arm_prob``), one panel per key of ``agg``."""
    if not agg:
        raise ValueError("figure5_optimal_arm needs at least one aggregated frame")
    strategies, algorithms = _strategies(agg.values())
    colours = palette(strategies)
    with paper_style():
        fig = new_figure((7.5, 2.3))
        axes = fig.subplots(1, len(agg), squeeze=False)[0]
        for i, (ax, letter, (key, frame)) in enumerate(zip(axes, PANEL_LETTERS, agg.items())):
            regret_panel(
                ax,
                frame,
                y="optimal_arm_prob",
                lo=None,
                hi=None,
                palette=colours,
                styles=LINESTYLES,
                order=_rank,
                labels=LABELS,
                title=_lettered(letter, titles.get(key, key)),
                ylabel="P(optimal arm)" if i == 0 else "",
            )
            ax.set_ylim(0, 1.02)
        handles, labels = legend_handles(strategies, algorithms, palette=colours, styles=LINESTYLES, labels=LABELS)
        fig.legend(
            handles,
            labels,
            loc="outside lower center",
            ncol=len(labels),
            frameon=False,
            handlelength=2.4,
            columnspacing=1.4,
        )
        fig.suptitle(
            "Optimal-arm probability per round — addition, not in the paper (cf. Fig. 5a–c); "
            f"{scale_text(agg.values())} per curve",
            fontsize=8,
        )
        save_figure(fig, path_pdf, path_png)


def diagrams_step(job: Job) -> None:
    """Rule nonmanip_diagrams: Figures 1-4 of the paper (diagrams, MUCT/IB, projections)."""
    paths = {p.rsplit("/", 1)[-1]: p for p in job.output}
    for i, draw in enumerate((figure1, figure2, figure3, figure4), 1):
        draw(paths[f"figure{i}.pdf"], paths[f"figure{i}.png"])


def figure5_step(job: Job) -> None:
    """Rule nonmanip_figure5: Figure 5 (:func:`figure5`) and the optimal-arm probability figure (an addition,
    :func:`figure5_optimal_arm`)."""
    out = job.output
    instances = {Path(p).stem: store.read_json(p) for p in job.input.instances}
    aggs = {Path(p).stem: store.read_table(p).to_pandas() for p in job.input.agg}
    titles = {k: v["title"] for k, v in instances.items()}
    last = instances[list(instances)[-1]]
    graph = CausalDiagram.from_dict(last["graph"])
    figure5(aggs, titles, graph, last["N"], out.figure5_pdf, out.figure5_png)
    figure5_optimal_arm(aggs, titles, out.figure5_optimal_arm_pdf, out.figure5_optimal_arm_png)
