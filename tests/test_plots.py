"""Plot helpers and the AAAI-19 (nonmanip) figures: files are written atomically, decode, are
deterministic, and the drawn content (MUCT/IB, projections, curve styles) is computed."""

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from matplotlib.colors import to_rgb

from causal_bandits.errors import DiagramError
from causal_bandits.papers.nonmanip import figures as nf
from causal_bandits.papers.nonmanip.graphs import GRAPHS
from causal_bandits.plots import (
    draw_diagram,
    layered_layout,
    new_figure,
    regret_panel,
    save_figure,
)

STRATEGIES = ["POMIS+", "POMIS", "MIS", "BF"]


def synthetic_agg(strategies, T=1000, step=10, scale=1.0):
    """An aggregated-runs frame in the schema figure5 expects (strategy, algorithm, round, ...)."""
    t = np.r_[np.arange(step, T, step), T]
    frames = []
    for i, s in enumerate(strategies):
        for j, a in enumerate(["TS", "KLUCB"]):
            m = scale * (10 + 8 * i) * (1 + j) * np.log1p(t) / np.log1p(T)
            half = 0.1 * m + 1
            frames.append(pd.DataFrame({
                "strategy": s, "algorithm": a, "round": t, "n_seeds": 8,
                "mean_cum_regret": m, "sd_cum_regret": half, "ci95_lo": m - half, "ci95_hi": m + half,
                "mean_cum_realized_regret": m, "optimal_arm_prob": 1 - 0.7 * np.exp(-t / (100 * (i + 1))),
            }))
    return pd.concat(frames, ignore_index=True)


@pytest.fixture(scope="module")
def agg():
    return {
        "5a": synthetic_agg(STRATEGIES),
        "5b": synthetic_agg(["POMIS", "MIS", "BF"], scale=2),  # POMIS+ may be absent
        "5c": synthetic_agg(["POMISplus", "POMIS", "MIS", "BF"], scale=3),  # file-safe key of POMIS+
    }


TITLES = {"5a": "Front-door, N={Z}", "5b": "Fig. 2a graph, N={A}", "5c": "Fig. 5d graph, N={A,C} [R]"}


def assert_figure_files(pdf, png, min_width=300):
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 1000
    image = mpimg.imread(png)
    height, width = image.shape[:2]
    assert image.ndim == 3 and image.shape[2] in (3, 4)
    assert width >= min_width and 100 <= height <= width
    assert image[..., :3].std() > 0.01  # something was drawn
    leftovers = [p.name for p in pdf.parent.iterdir() if p.name.startswith(".") or p.suffix == ".tmp"]
    assert leftovers == []


@pytest.mark.parametrize("name", ["figure1", "figure2", "figure3", "figure4"])
def test_diagram_figures_write_pdf_and_png(tmp_path, name):
    pdf, png = tmp_path / f"{name}.pdf", tmp_path / f"{name}.png"
    getattr(nf, name)(pdf, png)
    assert_figure_files(pdf, png, min_width=400)


def test_figure5_and_optimal_arm_figure(tmp_path, agg):
    nf.figure5(agg, TITLES, GRAPHS["fig5d"], ["A", "C"], tmp_path / "f5.pdf", tmp_path / "f5.png")
    assert_figure_files(tmp_path / "f5.pdf", tmp_path / "f5.png", min_width=1400)  # 7.5 in at 200 dpi
    assert mpimg.imread(tmp_path / "f5.png").shape[1] == pytest.approx(7.5 * 200, abs=2)
    nf.figure5_optimal_arm(agg, TITLES, tmp_path / "oap.pdf", tmp_path / "oap.png")
    assert_figure_files(tmp_path / "oap.pdf", tmp_path / "oap.png", min_width=1400)


def test_figure1_is_byte_identical_when_rerun(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for d in (first, second):
        nf.figure1(d / "figure1.pdf", d / "figure1.png")
    assert (first / "figure1.pdf").read_bytes() == (second / "figure1.pdf").read_bytes()
    assert (first / "figure1.png").read_bytes() == (second / "figure1.png").read_bytes()
    assert b"CreationDate" not in (first / "figure1.pdf").read_bytes()


def test_save_figure_is_atomic_and_cleans_up(tmp_path):
    fig = new_figure((2, 1.5))
    fig.add_subplot().plot([0, 1], [0, 1])
    target = tmp_path / "nested" / "dir"
    written = save_figure(fig, target / "x.pdf", target / "x.png")
    assert written == [target / "x.pdf", target / "x.png"]
    assert sorted(p.name for p in target.iterdir()) == ["x.pdf", "x.png"]
    assert mpimg.imread(target / "x.png").shape[:2] == (300, 400)  # 200 dpi

    fig = new_figure((2, 1.5))
    with pytest.raises(ValueError, match="format"):
        save_figure(fig, target / "y.unknownfmt")
    with pytest.raises(ValueError, match="suffix"):
        save_figure(new_figure((2, 1.5)), target / "nosuffix")
    assert sorted(p.name for p in target.iterdir()) == ["x.pdf", "x.png"]


def test_layout_is_layered_and_sorted():
    assert layered_layout(GRAPHS["frontdoor"]) == {"X": (0.0, 0.0), "Z": (1.0, 0.0), "Y": (2.0, 0.0)}
    pos = layered_layout(GRAPHS["fig2a"])
    assert pos["A"][0] == pos["B"][0] == 0 and pos["A"][1] > pos["B"][1]  # same layer, sorted top-down
    assert pos["C"][0] == 1 and pos["Y"][0] == 2


def test_draw_diagram_rejects_unknown_nodes_and_edges():
    ax = new_figure((2, 1.5)).add_subplot()
    with pytest.raises(DiagramError, match="shaded"):
        draw_diagram(ax, GRAPHS["frontdoor"], shaded=["Q"])
    with pytest.raises(ValueError, match="added edge"):
        draw_diagram(ax, GRAPHS["frontdoor"], added_edges=[("--", "X", "Z")])


def test_draw_diagram_styles_edges():
    G = GRAPHS["fig2a"]
    ax = new_figure((3, 2)).add_subplot()
    draw_diagram(ax, G, reward="Y", added_edges=[("<->", "B", "A")])
    arrows = ax.patches
    assert len(arrows) == len(G.directed) + len(G.bidirected)
    dashed = [p for p in arrows if p.get_linestyle() not in ("-", "solid")]
    assert len(dashed) == len(G.bidirected)
    red = [p for p in arrows if np.allclose(p.get_edgecolor()[:3], to_rgb("#d62728"))]
    assert len(red) == 1 and red[0].get_linewidth() > max(p.get_linewidth() for p in arrows if p is not red[0])


def test_projection_added_edges_match_spec_fig4():
    G = GRAPHS["fig2a"]
    added = {v: nf.projection_added_edges(G, G.latent_projection(set(G.nodes) - {v})) for v in "ABC"}
    assert added == {
        "A": [("<->", "B", "C"), ("<->", "C", "Y")],
        "B": [("<->", "A", "C"), ("<->", "C", "Y")],
        "C": [("->", "B", "Y")],
    }


def test_regret_panel_colours_styles_and_thinning():
    frame = synthetic_agg(STRATEGIES, T=10000, step=10)
    ax = new_figure((3, 2)).add_subplot()
    palette = nf.palette(STRATEGIES)
    lines = regret_panel(ax, frame, palette=palette, styles=nf.LINESTYLES, order=nf._rank, title="t")
    assert len(lines) == 8 and len(ax.collections) == 8  # one band per line
    set1 = dict(zip(STRATEGIES, sns.color_palette("Set1", 4)))
    for line in lines:
        strategy, algorithm = line.get_label().split()
        assert to_rgb(line.get_color()) == pytest.approx(to_rgb(set1[strategy]))
        assert to_rgb(palette[strategy]) == pytest.approx(to_rgb(set1[strategy]))
        assert line.get_linestyle() == ("-" if algorithm == "TS" else "--")
        assert len(line.get_xdata()) <= 200 and line.get_xdata()[-1] == 10000
    assert lines[-1].get_label() == "POMIS+ TS"  # POMIS+ drawn last, on top
    assert ax.get_xlabel() == "Trials" and ax.get_ylabel() == "Cumulative regret"
    ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "5k", "10k"]
    with pytest.raises(ValueError, match="column"):
        regret_panel(ax, frame.drop(columns="ci95_lo"), palette=palette, styles=nf.LINESTYLES)
