"""Causal diagrams drawn from the graph as data.

:func:`draw_diagram` lays a diagram out in layers (longest directed path from a root, left to right;
nodes of a layer sorted by name, top to bottom), draws directed edges as solid arrows and bidirected
edges (unobserved confounders) as dashed curved double-headed arrows, curving any edge that would
otherwise run through a node. Nodes and edges can be emphasised in four generic ways (shaded, thick
outline, border outline, added edge); what each means is the calling paper's to say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import networkx as nx
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from causal_bandits.errors import DiagramError
from causal_bandits.scm.diagram import CausalDiagram

MUCT_COLOR = "#d62728"
"""Thick red outline: the first set of emphasised nodes (``thick_nodes``)."""
BORDER_COLOR = "#1f5fbf"
"""Blue outline on a pale fill: the second set of emphasised nodes (``border_nodes``)."""
BORDER_FILL = "#dbe7f7"
SHADED_COLOR = "#bdbdbd"
"""Grey fill: ``shaded`` nodes (e.g. non-manipulable or marginalised variables)."""
ADDED_EDGE_COLOR = "#d62728"
"""Thick red: ``added_edges`` (e.g. the edges a latent projection creates)."""
EDGE_COLOR = "#222222"

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
    edges += [("<->", cast(tuple[str, str], tuple(sorted(e)))) for e in sorted(diagram.bidirected, key=sorted)]
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


@dataclass(frozen=True)
class _Style:
    """Which nodes and edges are emphasised, checked against the diagram."""

    reward: str | None
    shaded: set[str]
    thick: set[str]
    border: set[str]
    added: set[tuple[str, Any]]

    def fills(self, nodes: Sequence[str]) -> list[str]:
        return [SHADED_COLOR if v in self.shaded else BORDER_FILL if v in self.border else "white" for v in nodes]

    def outlines(self, nodes: Sequence[str]) -> list[str]:
        return [MUCT_COLOR if v in self.thick else BORDER_COLOR if v in self.border else EDGE_COLOR for v in nodes]


@dataclass(frozen=True)
class _Scale:
    """Marker sizes, fonts and line widths for the axes' size in points (nodes 8-24 pt across)."""

    size: float
    ring: float
    font: float
    arrow: float
    lw_node: float
    lw_thick: float
    lw_edge: float
    lw_added: float

    @classmethod
    def of(cls, ax: Axes, span: np.ndarray) -> _Scale:
        fig = cast(Figure, ax.figure)  # a top-level figure: a SubFigure has no get_figwidth
        box = ax.get_position()
        w_pt = box.width * fig.get_figwidth() * 72
        h_pt = box.height * fig.get_figheight() * 72
        pt_per_unit = min(w_pt / span[0], h_pt / span[1])
        diameter = float(np.clip(2 * _RADIUS * pt_per_unit, 8.0, 24.0))
        return cls(
            size=diameter**2,
            ring=(diameter + max(3.0, 0.22 * diameter)) ** 2,  # outer circle of the reward node
            font=float(np.clip(0.5 * diameter, 6.0, 11.0)),
            arrow=float(np.clip(0.42 * diameter, 5.0, 10.0)),
            lw_node=0.9,
            lw_thick=max(1.8, 0.11 * diameter),
            lw_edge=0.9,
            lw_added=max(1.8, 0.09 * diameter),
        )


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
    style = _Style(reward, shaded_set, thick_set, border_set, _added_edge_keys(diagram, added_edges))
    pos = _positions(diagram, pos)
    routes = _route_edges(diagram, pos)
    own = diagram_limits(diagram, pos)
    x0, x1, y0, y1 = own if limits is None else union_limits([own, limits])
    lo, hi = np.array([x0, y0]), np.array([x1, y1])
    _frame(ax, lo, hi)
    scale = _Scale.of(ax, np.maximum(hi - lo, 1e-9))
    G = nx.DiGraph()
    G.add_nodes_from(diagram.nodes)
    _draw_nodes(ax, G, pos, style, scale)
    _draw_edges(ax, G, pos, routes, style, scale)
    _frame(ax, lo, hi)
    if title is not None:
        ax.set_title(title)
    return pos


def _positions(diagram: CausalDiagram, pos: Mapping[str, tuple[float, float]] | None) -> dict[str, tuple[float, float]]:
    """The layered layout, or ``pos`` checked to name every node of the diagram and no other."""
    pos = dict(layered_layout(diagram) if pos is None else pos)
    _check_nodes(diagram, "pos", pos)
    missing = sorted(set(diagram.nodes) - set(pos))
    if missing:
        raise DiagramError(f"pos has no position for node {missing[0]!r}")
    return pos


def _frame(ax: Axes, lo: np.ndarray, hi: np.ndarray) -> None:
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_axis_off()


def _draw_nodes(ax: Axes, G: nx.DiGraph, pos: Mapping[str, tuple[float, float]], style: _Style, scale: _Scale) -> None:
    """Nodes as circles (the reward inside an outer ring), labels on top, the reward's in bold."""
    nodes = list(G.nodes)
    fill, edge = style.fills(nodes), style.outlines(nodes)
    width = [scale.lw_thick if v in style.thick or v in style.border else scale.lw_node for v in nodes]
    reward = style.reward
    if reward is not None:
        i = nodes.index(reward)
        outer = nx.draw_networkx_nodes(
            G,
            pos,
            nodelist=[reward],
            ax=ax,
            node_size=scale.ring,
            node_color=[fill[i]],
            edgecolors=[edge[i]],
            linewidths=scale.lw_node,
        )
        outer.set_zorder(2)
    coll = nx.draw_networkx_nodes(
        G, pos, nodelist=nodes, ax=ax, node_size=scale.size, node_color=fill, edgecolors=edge, linewidths=width
    )
    coll.set_zorder(3)
    labels = nx.draw_networkx_labels(
        G, pos, labels={v: node_label(v) for v in nodes}, ax=ax, font_size=scale.font, font_color="black"
    )
    for v, text in labels.items():
        text.set_zorder(4)
        if v == reward:
            label = node_label(v)
            text.set_fontweight("bold")
            text.set_text(rf"$\boldsymbol{{{label.strip('$')}}}$" if label.startswith("$") else label)


def _draw_edges(
    ax: Axes, G: nx.DiGraph, pos: Mapping[str, tuple[float, float]], routes: list[Route], style: _Style, scale: _Scale
) -> None:
    """Each routed edge as an arc; arrows stop at the outer circle of the reward; added edges thick red."""
    nodes = list(G.nodes)
    sizes = [scale.ring if v == style.reward else scale.size for v in nodes]
    for kind, (a, b), rad, _ in routes:
        key = ("->", (a, b)) if kind == "->" else ("<->", frozenset((a, b)))
        is_added = key in style.added
        patches = nx.draw_networkx_edges(
            G,
            pos,
            edgelist=[(a, b)],
            ax=ax,
            nodelist=nodes,
            node_size=sizes,
            arrows=True,
            arrowstyle="-|>" if kind == "->" else "<|-|>",
            arrowsize=scale.arrow * (1.15 if is_added else 1.0),
            width=scale.lw_added if is_added else scale.lw_edge,
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
