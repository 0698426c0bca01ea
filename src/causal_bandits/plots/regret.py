"""Regret curves: :func:`regret_panel` draws one mean line per (hue, style) pair, e.g. (strategy,
algorithm), with a translucent band (e.g. the 95 % CI); curves that coincide are marked so that the
reader sees them (:func:`coinciding`). Each paper's figure module gives its palette, line styles, order
and labels (no paper's names live here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FuncFormatter


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
    thinned to ≤ ``max_points`` points (first and last kept) and labelled ``"<hue> <style>"`` through
    ``labels`` (value → display name). The x axis has ticks at 0, half and the maximum ("5k").

    Hues whose curves coincide (:func:`coinciding`) would hide all but the top one: each of them
    gets ``markers`` markers in its colour, staggered along the shared line so every colour shows,
    and their lines are labelled ``"A = B <style>"``.
    """
    missing = [c for c in (x, y, lo, hi, hue, style) if c is not None and c not in frame.columns]
    if missing:
        raise ValueError(f"regret_panel: frame has no column {missing[0]!r}; columns are {list(frame.columns)}")
    labels = labels or {}
    styles = _with_fallback_styles(styles, sorted(frame[style].unique(), key=order))
    shared = {h: g for g in coinciding(frame, hue=hue, style=style, x=x, y=y, order=order) for h in g}
    lines: list[Line2D] = []
    for h in sorted(frame[hue].unique(), key=order)[::-1]:  # the first hue drawn last, on top
        colour = palette.get(h)
        if colour is None:
            raise ValueError(f"regret_panel: palette has no colour for {hue} {h!r}")
        sub_h = frame[frame[hue] == h]
        name = coincide_text(shared[h], labels) if h in shared else labels.get(h, h)
        for s in sorted(sub_h[style].unique(), key=order, reverse=True):
            sub = sub_h[sub_h[style] == s].sort_values(x)
            keep = _thin(len(sub), max_points)
            xs, ys = sub[x].to_numpy(float)[keep], sub[y].to_numpy(float)[keep]
            if lo is not None and hi is not None:
                band = sub[lo].to_numpy(float)[keep], sub[hi].to_numpy(float)[keep]
                ax.fill_between(xs, *band, color=colour, alpha=band_alpha, linewidth=0, zorder=1)
            (line,) = ax.plot(xs, ys, color=colour, linestyle=styles[s], zorder=2, label=f"{name} {labels.get(s, s)}")
            if h in shared and markers:
                _stagger_markers(ax, xs, ys, shared[h].index(h), len(shared[h]), markers, colour)
            lines.append(line)
    _label_axes(ax, frame[x], xlabel, ylabel, title)
    return lines


def _with_fallback_styles(styles: Mapping[str, Any], values: Sequence[Any]) -> dict[Any, Any]:
    """``styles`` with a dotted or dash-dotted style for each of ``values`` it lacks, in order."""
    out = dict(styles)
    fallback = iter([":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3))] * 10)
    for value in values:
        if value not in out:
            out[value] = next(fallback)
    return out


def _stagger_markers(ax: Axes, xs: np.ndarray, ys: np.ndarray, rank: int, of: int, markers: int, colour: Any) -> None:
    """``markers`` markers on the line, at the ``rank``-th of every ``of`` evenly spaced slots, so that
    each of ``of`` coinciding lines shows its colour."""
    slots = np.linspace(0, len(xs) - 1, markers * of + 2).round().astype(int)[1:-1]
    mine = slots[rank::of]
    ax.plot(
        xs[mine], ys[mine], linestyle="", marker="o", ms=3.2, mfc=colour, mec="white", mew=0.4, color=colour, zorder=3
    )


def _label_axes(ax: Axes, xs: pd.Series, xlabel: str, ylabel: str, title: str | None) -> None:
    """x ticks at 0 (or the least x), half and the largest x ("5k"); y from 0; labels, title, no top or right spine."""
    if len(xs):
        xmax = float(xs.max())
        xmin = min(0.0, float(xs.min()))
        ax.set_xlim(xmin, xmax)
        ax.xaxis.set_major_locator(FixedLocator([xmin, (xmin + xmax) / 2, xmax]))
        ax.xaxis.set_major_formatter(FuncFormatter(_thousands))
    ax.set_ylim(bottom=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title is not None:
        ax.set_title(title)
    import seaborn as sns  # here, not at the top: the config check imports this module, and seaborn costs a second

    sns.despine(ax=ax)


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
