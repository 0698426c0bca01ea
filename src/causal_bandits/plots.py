"""Shared plotting helpers: causal-diagram drawings, regret curves, deterministic atomic saving.

Figures are built on :class:`matplotlib.figure.Figure` with an explicit Agg canvas (no pyplot state,
no global backend switch), styled by :func:`paper_style`, and written with :func:`save_figure`, which
strips the time stamps matplotlib would otherwise embed so that re-running a rule rewrites identical
bytes (PDF: no ``CreationDate``; PNG: no ``Software`` tag).

Conventions shared by the papers' figures:

* :func:`draw_diagram` lays a causal diagram out in layers (longest directed path from a root, left
  to right; nodes of a layer sorted by name, top to bottom), draws directed edges as solid arrows and
  bidirected edges (unobserved confounders) as dashed curved double-headed arrows, curving any edge
  that would otherwise run through a node.
* :func:`regret_panel` draws one mean line per (hue, style) pair, e.g. (strategy, algorithm), with
  a translucent band (e.g. the 95 % CI); each paper's figure module gives its palette, line styles,
  order and labels (no paper's names live here).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import matplotlib
import networkx as nx
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.ticker import FixedLocator, FuncFormatter
from matplotlib.transforms import Bbox

from causal_bandits.errors import DiagramError
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.store import atomic_path

__all__ = [
    "ADDED_EDGE_COLOR",
    "BORDER_COLOR",
    "MUCT_COLOR",
    "SHADED_COLOR",
    "coincide_text",
    "coinciding",
    "diagram_limits",
    "draw_diagram",
    "layered_layout",
    "legend_handles",
    "new_figure",
    "node_label",
    "paper_style",
    "regret_panel",
    "save_figure",
    "scale_text",
    "text_overlaps",
    "union_limits",
]

PNG_DPI = 200

MUCT_COLOR = "#d62728"
"""Thick red outline: MUCT nodes (AAAI-19 Fig. 2)."""
BORDER_COLOR = "#1f5fbf"
"""Blue outline: interventional border (IB) nodes (AAAI-19 Fig. 2)."""
BORDER_FILL = "#dbe7f7"
SHADED_COLOR = "#bdbdbd"
"""Grey fill: non-manipulable / marginalised nodes (AAAI-19 Fig. 3, Fig. 5d)."""
ADDED_EDGE_COLOR = "#d62728"
"""Thick red: edges created by a latent projection (AAAI-19 Fig. 4)."""
EDGE_COLOR = "#222222"

_RC = {
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "lines.linewidth": 1.2,
    "axes.linewidth": 0.8,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.hashsalt": "causal-bandits",
    "figure.dpi": 100,
}


# ------------------------------------------------------------------------------------ figures
@contextmanager
def paper_style() -> Iterator[None]:
    """Context for building and saving a figure: seaborn "ticks" axes, 7–8 pt fonts, TrueType in PDF."""
    with ExitStack() as stack:
        stack.enter_context(sns.axes_style("ticks"))
        stack.enter_context(matplotlib.rc_context(_RC))
        yield


def new_figure(figsize: tuple[float, float], **kwargs: Any) -> Figure:
    """A :class:`Figure` on an Agg canvas (constrained layout unless ``layout`` is given).

    Does not touch pyplot or the global backend, so it is safe in headless jobs and notebooks alike.
    """
    kwargs.setdefault("layout", "constrained")
    fig = Figure(figsize=figsize, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Figure, *paths: str | os.PathLike[str]) -> list[Path]:
    """Write ``fig`` to every path (format from the suffix: ``.pdf``, ``.png`` at 200 dpi, ...),
    then close it.

    Each file is written atomically (:func:`causal_bandits.store.atomic_path`), so readers never see a
    partial figure; parent directories are created.
    Time stamps are left out (PDF ``CreationDate``, PNG ``Software``) so identical figures give
    identical bytes. Returns the written paths.
    """
    written: list[Path] = []
    try:
        for path in map(Path, paths):
            fmt = path.suffix.lower().lstrip(".")
            if not fmt:
                raise ValueError(
                    f"cannot infer the figure format of {str(path)!r}; give it a suffix such as .pdf or .png"
                )
            if fmt not in fig.canvas.get_supported_filetypes():
                raise ValueError(f"unsupported figure format {fmt!r} for {str(path)!r}; use .pdf or .png")
            kwargs: dict[str, Any] = {"format": fmt}
            if fmt == "pdf":
                kwargs["metadata"] = {"CreationDate": None, "ModDate": None}
            elif fmt == "png":
                kwargs.update(dpi=PNG_DPI, metadata={"Software": None})
            with atomic_path(path) as tmp, paper_style():
                fig.savefig(tmp, **kwargs)
            written.append(path)
    finally:
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is not None:  # a figure can only be pyplot-managed if pyplot is loaded
            pyplot.close(fig)
    return written


def _drawn_texts(fig: Figure) -> list[Text]:
    """The figure's visible, non-empty texts as last drawn; tick labels only of ticks inside the view."""
    texts: list[Text] = []
    ticks: set[int] = set()
    for ax in fig.axes:
        if not ax.axison:
            ticks |= {
                id(label)
                for axis in (ax.xaxis, ax.yaxis)
                for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                for label in (tick.label1, tick.label2)
            }
            continue
        for axis, (lo, hi) in ((ax.xaxis, sorted(ax.get_xlim())), (ax.yaxis, sorted(ax.get_ylim()))):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                for label in (tick.label1, tick.label2):
                    ticks.add(id(label))
                    inside = lo - 1e-9 * max(1.0, abs(hi - lo)) <= tick.get_loc() <= hi + 1e-9 * max(1.0, abs(hi - lo))
                    if inside and axis.get_visible() and tick.get_visible() and label.get_visible():
                        texts.append(label)
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    hidden = {id(t) for lg in legends if not lg.get_visible() for t in (*lg.get_texts(), lg.get_title())}
    hidden |= {id(t) for ax in fig.axes if not ax.get_visible() for t in ax.findobj(Text)}
    for t in fig.findobj(Text):
        if id(t) in ticks or id(t) in hidden or not t.get_visible() or not t.get_text().strip() or t.get_alpha() == 0:
            continue
        texts.append(t)
    return texts


#: Two titles on one line closer than this many em read as one (panels' titles running together).
TITLE_GAP_EM = 2.0


def text_overlaps(fig: Figure, gap_px: float = 1.0) -> list[tuple[str, str]]:
    """Pairs of texts of ``fig`` that overlap or come closer than ``gap_px`` pixels (a label over a
    label), or, for two panels' titles, closer than :data:`TITLE_GAP_EM` em (titles running
    together); draws the figure.

    The figure tests use it on every figure function; it reads matplotlib's tight bounding boxes
    (``Text.get_window_extent``), so text inside a mathtext box or rotated is measured as drawn."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    titles = {id(t) for ax in fig.axes for t in (ax.title, ax._left_title, ax._right_title)}
    boxes = [(t, t.get_window_extent(renderer)) for t in _drawn_texts(fig)]
    found = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            gap = gap_px
            if id(a) in titles and id(b) in titles and a.axes is not b.axes:
                gap = max(gap, TITLE_GAP_EM * max(a.get_fontsize(), b.get_fontsize()) * fig.dpi / 72)
            both = Bbox.intersection(box_a.padded(gap / 2), box_b.padded(gap / 2))
            if both is not None and both.width > 0 and both.height > 0:
                found.append((a.get_text(), b.get_text()))
    return found


# ------------------------------------------------------------------------------------ diagrams
_NAME = re.compile(r"^([A-Za-z]+)_?(\d+)$")


def node_label(name: str) -> str:
    """Math-italic label of a variable: ``"W1"`` → ``$W_{1}$``, ``"X"`` → ``$X$``."""
    m = _NAME.match(name)
    if m:
        return f"${m.group(1)}_{{{m.group(2)}}}$"
    if re.fullmatch(r"[A-Za-z]+", name):
        return f"${name}$"
    return name


def layered_layout(diagram: CausalDiagram, *, dx: float = 1.0, dy: float = 1.0) -> dict[str, tuple[float, float]]:
    """Deterministic layered positions: x = length of the longest directed path from a root (in
    the diagram's alphabetical topological order), y = rank of the node within its layer by name,
    top to bottom, centred on 0."""
    layer: dict[str, int] = {}
    parents: dict[str, list[str]] = {v: [] for v in diagram.nodes}
    for a, b in diagram.directed:
        parents[b].append(a)
    for v in diagram.topological_order():
        layer[v] = max((layer[p] + 1 for p in parents[v]), default=0)
    layers: dict[int, list[str]] = {}
    for v in sorted(diagram.nodes):
        layers.setdefault(layer[v], []).append(v)
    pos = {}
    for k, members in layers.items():
        for i, v in enumerate(members):
            pos[v] = (k * dx, ((len(members) - 1) / 2 - i) * dy)
    return pos


def _bezier(p0: np.ndarray, p1: np.ndarray, rad: float, n: int = 41) -> np.ndarray:
    """Points of matplotlib's ``arc3,rad=rad`` connection from p0 to p1 (equal-aspect data units)."""
    d = p1 - p0
    c = (p0 + p1) / 2 + rad * np.array([d[1], -d[0]])
    t = np.linspace(0.0, 1.0, n)[:, None]
    return (1 - t) ** 2 * p0 + 2 * t * (1 - t) * c + t**2 * p1


def _route(
    pos: Mapping[str, tuple[float, float]],
    a: str,
    b: str,
    candidates: Sequence[float],
    same_pair: Sequence[np.ndarray],
    drawn: Sequence[np.ndarray],
    *,
    radius: float,
) -> tuple[float, np.ndarray]:
    """Pick the curvature of the arc a → b: the first candidate (sign oriented outwards, away from
    the layout's centre) whose arc keeps clear of every other node, of arcs already drawn between
    the same pair, and does not run alongside other drawn arcs; else the least bad candidate."""
    p0, p1 = np.asarray(pos[a], float), np.asarray(pos[b], float)
    xy = np.asarray(list(pos.values()), float)
    centre = xy.mean(axis=0)
    d = p1 - p0
    normal = np.array([d[1], -d[0]])
    outward = float(np.dot(normal, (p0 + p1) / 2 - centre))
    if abs(outward) < 1e-9:  # through the centre: bulge upwards, or to the left for vertical edges
        outward = normal[1] if abs(normal[1]) > 1e-9 else -normal[0]
    sign = 1.0 if outward > 0 else -1.0
    others = np.asarray([p for v, p in pos.items() if v not in (a, b)], float).reshape(-1, 2)
    clearance = radius + 0.12
    best: tuple[tuple[bool, int, float], float, np.ndarray] | None = None
    for r in candidates:
        rad = sign * r
        pts = _bezier(p0, p1, rad)
        inner = pts[3:-3]
        gap = float(np.min(np.linalg.norm(inner[:, None, :] - others[None, :, :], axis=2))) if len(others) else np.inf
        mid = pts[len(pts) // 2]
        for other in same_pair:
            gap = min(gap, 2 * float(np.linalg.norm(mid - other[len(other) // 2])))
        # points away from all nodes that run within 0.08 of an arc already drawn
        free = inner[np.min(np.linalg.norm(inner[:, None, :] - xy[None, :, :], axis=2), axis=1) > radius + 0.15]
        overlap = 0
        if len(free) and drawn:
            near = np.min(np.linalg.norm(free[:, None, :] - np.vstack(drawn)[None, :, :], axis=2), axis=1)
            overlap = int(np.sum(near < 0.08))
        if gap >= clearance and overlap <= 2:
            return rad, pts
        score = (gap >= clearance, -overlap, gap)
        if best is None or score > best[0]:
            best = (score, rad, pts)
    assert best is not None
    return best[1], best[2]


DIRECTED_RADS = (0.0, 0.2, -0.2, 0.35, -0.35, 0.5, -0.5)
BIDIRECTED_RADS = (0.3, -0.3, 0.45, -0.45, 0.6, -0.6)
_RADIUS = 0.21  # node radius in data units (layers are 1 unit apart)


Route = tuple[str, tuple[str, str], float, np.ndarray]
"""(kind "->" or "<->", (a, b), arc3 curvature, sampled arc points)."""


def _route_edges(diagram: CausalDiagram, pos: Mapping[str, tuple[float, float]]) -> list[Route]:
    """Route every edge: directed first, then bidirected (so confounder arcs avoid the arrows)."""
    routes: list[Route] = []
    by_pair: dict[frozenset[str], list[np.ndarray]] = {}
    edges = [("->", e) for e in sorted(diagram.directed)]
    edges += [("<->", tuple(sorted(e))) for e in sorted(diagram.bidirected, key=sorted)]
    for kind, (a, b) in edges:
        key = frozenset((a, b))
        rad, pts = _route(
            pos,
            a,
            b,
            DIRECTED_RADS if kind == "->" else BIDIRECTED_RADS,
            by_pair.get(key, []),
            [r[3] for r in routes],
            radius=_RADIUS,
        )
        routes.append((kind, (a, b), rad, pts))
        by_pair.setdefault(key, []).append(pts)
    return routes


def diagram_limits(
    diagram: CausalDiagram, pos: Mapping[str, tuple[float, float]] | None = None
) -> tuple[float, float, float, float]:
    """(xmin, xmax, ymin, ymax) that :func:`draw_diagram` needs for ``diagram`` (nodes and arcs);
    take the union over panels and pass it as ``limits`` to give several panels one scale."""
    pos = layered_layout(diagram) if pos is None else pos
    routes = _route_edges(diagram, pos)
    xy = np.asarray([pos[v] for v in diagram.nodes], float)
    extent = np.vstack([xy] + [r[3] for r in routes])
    pad = _RADIUS + 0.14
    lo, hi = extent.min(axis=0) - pad, extent.max(axis=0) + pad
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def union_limits(limits: Iterable[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """The smallest box holding every (xmin, xmax, ymin, ymax) box of ``limits``."""
    boxes = np.asarray(list(limits), float)
    return (float(boxes[:, 0].min()), float(boxes[:, 1].max()), float(boxes[:, 2].min()), float(boxes[:, 3].max()))


def _check_nodes(diagram: CausalDiagram, what: str, names: Iterable[str]) -> set[str]:
    names = set(names)
    unknown = sorted(names - set(diagram.nodes))
    if unknown:
        raise DiagramError(f"{what} names unknown node {unknown[0]!r}; use nodes of the diagram {list(diagram.nodes)}")
    return names


def _added_edge_keys(diagram: CausalDiagram, added_edges: Iterable[Sequence[str]]) -> set[tuple[str, Any]]:
    keys: set[tuple[str, Any]] = set()
    for edge in added_edges:
        if len(edge) != 3 or edge[0] not in ("->", "<->"):
            raise ValueError(f"added edge {edge!r} must be ('->', a, b) or ('<->', a, b)")
        kind, a, b = edge
        _check_nodes(diagram, "added_edges", (a, b))
        keys.add(("->", (a, b)) if kind == "->" else ("<->", frozenset((a, b))))
    return keys


def draw_diagram(
    ax: Axes,
    diagram: CausalDiagram,
    *,
    reward: str | None = None,
    shaded: Iterable[str] = (),
    thick_nodes: Iterable[str] = (),
    border_nodes: Iterable[str] = (),
    added_edges: Iterable[Sequence[str]] = (),
    title: str | None = None,
    pos: Mapping[str, tuple[float, float]] | None = None,
    limits: tuple[float, float, float, float] | None = None,
) -> dict[str, tuple[float, float]]:
    """Draw a causal diagram on ``ax``; returns the node positions used.

    * layout: :func:`layered_layout` unless ``pos`` is given;
    * directed edges: solid arrows; bidirected edges: dashed curved double-headed arrows; edges
      that would pass through a node are curved around it;
    * ``reward``: drawn as a double circle with a bold label;
    * ``shaded``: filled grey (non-manipulable / marginalised variables);
    * ``thick_nodes``: thick red outline (e.g. the MUCT); ``border_nodes``: blue outline on a pale
      blue fill (e.g. the IB);
    * ``added_edges``: ``("->", a, b)`` / ``("<->", a, b)`` drawn thick red (edges a projection adds);
    * ``limits``: (xmin, xmax, ymin, ymax) to show at least (see :func:`diagram_limits`), so that
      panels drawn with the same ``pos`` share one scale.
    """
    shaded_set = _check_nodes(diagram, "shaded", shaded)
    thick_set = _check_nodes(diagram, "thick_nodes", thick_nodes)
    border_set = _check_nodes(diagram, "border_nodes", border_nodes)
    if reward is not None:
        _check_nodes(diagram, "reward", (reward,))
    added = _added_edge_keys(diagram, added_edges)
    pos = dict(layered_layout(diagram) if pos is None else pos)
    _check_nodes(diagram, "pos", pos)
    missing = sorted(set(diagram.nodes) - set(pos))
    if missing:
        raise DiagramError(f"pos has no position for node {missing[0]!r}")
    nodes = list(diagram.nodes)
    routes = _route_edges(diagram, pos)
    own = diagram_limits(diagram, pos)
    x0, x1, y0, y1 = own if limits is None else union_limits([own, limits])
    lo, hi = np.array([x0, y0]), np.array([x1, y1])
    span = np.maximum(hi - lo, 1e-9)
    radius = _RADIUS
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_axis_off()
    fig = ax.figure
    box = ax.get_position()
    w_pt = box.width * fig.get_figwidth() * 72
    h_pt = box.height * fig.get_figheight() * 72
    pt_per_unit = min(w_pt / span[0], h_pt / span[1])
    diameter = float(np.clip(2 * radius * pt_per_unit, 8.0, 24.0))
    size = diameter**2
    ring = (diameter + max(3.0, 0.22 * diameter)) ** 2  # outer circle of the reward node
    font = float(np.clip(0.5 * diameter, 6.0, 11.0))
    arrow = float(np.clip(0.42 * diameter, 5.0, 10.0))
    lw_node, lw_thick = 0.9, max(1.8, 0.11 * diameter)
    lw_edge, lw_added = 0.9, max(1.8, 0.09 * diameter)

    # ---- nodes
    G = nx.DiGraph()
    G.add_nodes_from(nodes)
    fill = [SHADED_COLOR if v in shaded_set else BORDER_FILL if v in border_set else "white" for v in nodes]
    edge = [MUCT_COLOR if v in thick_set else BORDER_COLOR if v in border_set else EDGE_COLOR for v in nodes]
    width = [lw_thick if v in thick_set or v in border_set else lw_node for v in nodes]
    if reward is not None:
        i = nodes.index(reward)
        outer = nx.draw_networkx_nodes(
            G,
            pos,
            nodelist=[reward],
            ax=ax,
            node_size=ring,
            node_color=[fill[i]],
            edgecolors=[edge[i]],
            linewidths=lw_node,
        )
        outer.set_zorder(2)
    coll = nx.draw_networkx_nodes(
        G, pos, nodelist=nodes, ax=ax, node_size=size, node_color=fill, edgecolors=edge, linewidths=width
    )
    coll.set_zorder(3)
    labels = nx.draw_networkx_labels(
        G, pos, labels={v: node_label(v) for v in nodes}, ax=ax, font_size=font, font_color="black"
    )
    for v, text in labels.items():
        text.set_zorder(4)
        if v == reward:
            label = node_label(v)
            text.set_fontweight("bold")
            text.set_text(rf"$\boldsymbol{{{label.strip('$')}}}$" if label.startswith("$") else label)

    # ---- edges (arrows stop at the outer circle of the reward)
    sizes = [ring if v == reward else size for v in nodes]
    for kind, (a, b), rad, _ in routes:
        key = ("->", (a, b)) if kind == "->" else ("<->", frozenset((a, b)))
        is_added = key in added
        patches = nx.draw_networkx_edges(
            G,
            pos,
            edgelist=[(a, b)],
            ax=ax,
            nodelist=nodes,
            node_size=sizes,
            arrows=True,
            arrowstyle="-|>" if kind == "->" else "<|-|>",
            arrowsize=arrow * (1.15 if is_added else 1.0),
            width=lw_added if is_added else lw_edge,
            edge_color=ADDED_EDGE_COLOR if is_added else EDGE_COLOR,
            style="solid" if kind == "->" else (0, (3.5, 2.0)),
            connectionstyle=f"arc3,rad={rad:.3f}",
            min_source_margin=1.5,
            min_target_margin=1.5,
        )
        for p in patches:
            p.set_zorder(1)
            p.set_joinstyle("miter")
            p.set_capstyle("butt")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_axis_off()
    if title is not None:
        ax.set_title(title)
    return pos


# ------------------------------------------------------------------------------------ curves
def _thousands(v: float, _pos: Any = None) -> str:
    if v != 0 and abs(v) >= 1000:
        return f"{v / 1000:g}k"
    return f"{v:g}"


def _thin(n: int, max_points: int) -> np.ndarray:
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max_points)).astype(int))


def scale_text(frames: Iterable[pd.DataFrame], x: str = "round", seeds: str = "n_seeds") -> str:
    """ "T = 10,000, 200 seeds" of aggregated curves: the largest ``x`` and the seeds per curve
    (a range when curves differ)."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return ""
    T = max(int(f[x].max()) for f in frames)
    n = sorted({int(v) for f in frames for v in f[seeds].unique()})
    count = f"{n[0]:,}" if len(n) == 1 else f"{n[0]:,}-{n[-1]:,}"
    return f"T = {T:,}, {count} seed{'s' if n[-1] != 1 else ''}"


def coinciding(
    frame: pd.DataFrame,
    *,
    hue: str,
    style: str,
    x: str = "round",
    y: str = "mean_cum_regret",
    order: Callable[[Any], Any] | None = None,
) -> list[list[Any]]:
    """Groups (two or more, in ``order``) of ``hue`` values whose curves are identical for every
    ``style`` value: the same runs (e.g. strategies with the same arm set, which share the
    environment draws), so their lines lie on top of each other."""
    hues = sorted(frame[hue].unique(), key=order)
    styles = sorted(frame[style].unique(), key=order)

    def curve(h: Any) -> tuple:
        sub = frame[frame[hue] == h]
        return tuple(
            tuple(sub[sub[style] == s].sort_values(x)[[x, y]].itertuples(index=False, name=None)) for s in styles
        )

    groups: dict[tuple, list[Any]] = {}
    for h in hues:
        groups.setdefault(curve(h), []).append(h)
    return [g for g in groups.values() if len(g) > 1]


def coincide_text(group: Sequence[Any], labels: Mapping[Any, str] | None = None) -> str:
    """ "A = B = C": the display names of a group of coinciding curves."""
    labels = labels or {}
    return " = ".join(str(labels.get(v, v)) for v in group)


def regret_panel(
    ax: Axes,
    frame: pd.DataFrame,
    *,
    palette: Mapping[str, Any],
    styles: Mapping[str, Any],
    x: str = "round",
    y: str = "mean_cum_regret",
    lo: str | None = "ci95_lo",
    hi: str | None = "ci95_hi",
    hue: str = "strategy",
    style: str = "algorithm",
    order: Callable[[Any], Any] | None = None,
    labels: Mapping[str, str] | None = None,
    title: str | None = None,
    xlabel: str = "Trials",
    ylabel: str = "Cumulative regret",
    max_points: int = 200,
    band_alpha: float = 0.2,
    markers: int = 8,
) -> list[Line2D]:
    """One line per (``hue``, ``style``) value pair of ``frame`` with a translucent band between
    columns ``lo`` and ``hi`` (no band when either is None); returns the lines.

    Colours come from ``palette`` (hue value → colour), line styles from ``styles`` (style value →
    matplotlib linestyle; values it lacks get dotted / dash-dotted styles). Values are ranked by
    ``order`` (a sort key; default: sorted), and the first hue is drawn last, on top. Lines are
    thinned to ≤ ``max_points`` points (first and last kept) and labelled "<hue> <style>" through
    ``labels`` (value → display name). The x axis has ticks at 0, half and the maximum ("5k").

    Hues whose curves coincide (:func:`coinciding`) would hide all but the top one: each of them
    gets ``markers`` markers in its colour, staggered along the shared line so every colour shows,
    and their lines are labelled "A = B <style>".
    """
    needed = [c for c in (x, y, lo, hi, hue, style) if c is not None]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(f"regret_panel: frame has no column {missing[0]!r}; columns are {list(frame.columns)}")
    hues = sorted(frame[hue].unique(), key=order)
    labels = labels or {}
    styles = dict(styles)
    fallback_styles = iter([":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3))] * 10)
    for s in sorted(frame[style].unique(), key=order):
        if s not in styles:
            styles[s] = next(fallback_styles)
    groups = coinciding(frame, hue=hue, style=style, x=x, y=y, order=order)
    shared = {h: g for g in groups for h in g}
    lines: list[Line2D] = []
    for h in reversed(hues):
        colour = palette.get(h)
        if colour is None:
            raise ValueError(f"regret_panel: palette has no colour for {hue} {h!r}")
        sub_h = frame[frame[hue] == h]
        for s in sorted(sub_h[style].unique(), key=order, reverse=True):
            sub = sub_h[sub_h[style] == s].sort_values(x)
            keep = _thin(len(sub), max_points)
            xs = sub[x].to_numpy(float)[keep]
            if lo is not None and hi is not None:
                ax.fill_between(
                    xs,
                    sub[lo].to_numpy(float)[keep],
                    sub[hi].to_numpy(float)[keep],
                    color=colour,
                    alpha=band_alpha,
                    linewidth=0,
                    zorder=1,
                )
            ys = sub[y].to_numpy(float)[keep]
            name = coincide_text(shared[h], labels) if h in shared else labels.get(h, h)
            (line,) = ax.plot(xs, ys, color=colour, linestyle=styles[s], zorder=2, label=f"{name} {labels.get(s, s)}")
            if h in shared and markers:
                group = shared[h]
                slots = np.linspace(0, len(xs) - 1, markers * len(group) + 2).round().astype(int)[1:-1]
                mine = slots[group.index(h) :: len(group)]
                ax.plot(
                    xs[mine],
                    ys[mine],
                    linestyle="",
                    marker="o",
                    ms=3.2,
                    mfc=colour,
                    mec="white",
                    mew=0.4,
                    color=colour,
                    zorder=3,
                )
            lines.append(line)
    if len(frame):
        xmax = float(frame[x].max())
        xmin = min(0.0, float(frame[x].min()))
        ax.set_xlim(xmin, xmax)
        ax.xaxis.set_major_locator(FixedLocator([xmin, (xmin + xmax) / 2, xmax]))
        ax.xaxis.set_major_formatter(FuncFormatter(_thousands))
    ax.set_ylim(bottom=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title is not None:
        ax.set_title(title)
    sns.despine(ax=ax)
    return lines


def legend_handles(
    hues: Sequence[str],
    styles_shown: Sequence[str],
    *,
    palette: Mapping[str, Any],
    styles: Mapping[str, Any],
    labels: Mapping[str, str] | None = None,
) -> tuple[list[Line2D], list[str]]:
    """Handles for a shared legend: one coloured solid line per hue value, then one black line per
    style value in its line style, in the order given."""
    labels = labels or {}
    handles = [Line2D([], [], color=palette[h], lw=1.6) for h in hues]
    handles += [Line2D([], [], color="black", lw=1.0, linestyle=styles.get(a, ":")) for a in styles_shown]
    return handles, [labels.get(v, v) for v in [*hues, *styles_shown]]
