"""Figures of every paper: one style, deterministic atomic saving, and a check for overlapping text.

Figures are built on :class:`matplotlib.figure.Figure` with an explicit Agg canvas (no pyplot state,
no global backend switch), styled by :func:`paper_style`, and written with :func:`save_figure`, which
strips the time stamps matplotlib would otherwise embed so that re-running a rule rewrites identical
bytes (PDF: no ``CreationDate``; PNG: no ``Software`` tag). :func:`text_overlaps` finds labels drawn
over labels (the figure tests run it on every figure function).

What is drawn lives in the submodules, each free of any paper's names: :mod:`causal_bandits.plots.diagram`
(causal diagrams) and :mod:`causal_bandits.plots.regret` (regret curves); each paper's ``figures`` module
gives its palette, line styles, order, labels and what a highlighted node means.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from causal_bandits.store import atomic_path

if TYPE_CHECKING:
    from matplotlib.legend import Legend
    from matplotlib.typing import RcKeyType

PNG_DPI = 200

_RC: dict[RcKeyType, Any] = {
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
    import seaborn as sns  # here: the workflow plans with the modules that import this one, never with seaborn (1.6 s)

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
    legends = [*fig.legends, *(cast("Legend", ax.get_legend()) for ax in fig.axes if ax.get_legend() is not None)]
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
    renderer = cast(FigureCanvasAgg, fig.canvas).get_renderer()  # new_figure's canvas
    # Axes keep their left and right titles in private attributes (the stubs do not declare them)
    titles = {id(t) for ax in fig.axes for t in (ax.title, cast(Any, ax)._left_title, cast(Any, ax)._right_title)}
    boxes = [(t, t.get_window_extent(renderer)) for t in _drawn_texts(fig)]
    found = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            gap = gap_px
            if id(a) in titles and id(b) in titles and a.axes is not b.axes:
                gap = max(gap, TITLE_GAP_EM * cast(float, max(a.get_fontsize(), b.get_fontsize())) * fig.dpi / 72)
            both = Bbox.intersection(box_a.padded(gap / 2), box_b.padded(gap / 2))
            if both is not None and both.width > 0 and both.height > 0:
                found.append((a.get_text(), b.get_text()))
    return found
