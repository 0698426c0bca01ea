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
from causal_bandits.plots import new_figure, save_figure, text_overlaps
from causal_bandits.plots.diagram import draw_diagram, layered_layout
from causal_bandits.plots.regret import regret_panel

STRATEGIES = ["POMIS+", "POMIS", "MIS", "BF"]


def synthetic_agg(strategies, T=1000, step=10, scale=1.0):
    """An aggregated-runs frame in the schema figure5 expects (strategy, algorithm, round, ...)."""
    t = np.r_[np.arange(step, T, step), T]
    frames = []
    for i, s in enumerate(strategies):
        for j, a in enumerate(["ts", "kl_ucb"]):
            m = scale * (10 + 8 * i) * (1 + j) * np.log1p(t) / np.log1p(T)
            half = 0.1 * m + 1
            frames.append(
                pd.DataFrame(
                    {
                        "strategy": s,
                        "algorithm": a,
                        "round": t,
                        "n_seeds": 8,
                        "mean_cum_regret": m,
                        "sd_cum_regret": half,
                        "ci95_lo": m - half,
                        "ci95_hi": m + half,
                        "mean_cum_realized_regret": m,
                        "optimal_arm_prob": 1 - 0.7 * np.exp(-t / (100 * (i + 1))),
                    }
                )
            )
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
    lines = regret_panel(ax, frame, palette=palette, styles=nf.LINESTYLES, labels=nf.LABELS, order=nf._rank, title="t")
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


# ------------------------------------------------------------------ every figure: no overlapping text
@pytest.fixture
def no_overlaps(monkeypatch):
    """Patch ``save_figure`` in the given figure modules: each figure is checked for overlapping
    text (plots.text_overlaps) before it is written; returns the list of checked figures' overlaps."""
    from causal_bandits import plots

    found = []

    def patch(*modules):
        def checked(fig, *paths):
            found.append((str(paths[0]), text_overlaps(fig)))
            return plots.save_figure(fig, *paths)

        for module in modules:
            monkeypatch.setattr(module, "save_figure", checked)
        return found

    return patch


def assert_no_overlaps(found, expected):
    assert len(found) == expected, [p for p, _ in found]
    bad = {path: pairs for path, pairs in found if pairs}
    assert not bad, f"overlapping text: {bad}"


def test_text_overlaps_finds_a_title_over_a_title_and_titles_running_together():
    fig = new_figure((4, 2))
    a, b = fig.subplots(1, 2)
    a.set_title("a long title that runs into the next panel's title")
    b.set_title("(b) the next title")
    assert text_overlaps(fig)
    fig = new_figure((4, 2))
    a, b = fig.subplots(1, 2)
    a.set_title("(a) short")
    b.set_title("(b) short")
    assert text_overlaps(fig) == []
    ax = new_figure((2, 2)).add_subplot()
    ax.text(0.5, 0.5, "X2", ha="center")
    ax.text(0.5, 0.5, "x", ha="center")
    assert text_overlaps(ax.figure) == [("X2", "x")]


def test_nonmanip_figures_have_no_overlapping_text(tmp_path, agg, no_overlaps):
    from causal_bandits.studies import robustness_outputs

    found = no_overlaps(nf, robustness_outputs)
    for name in ("figure1", "figure2", "figure3", "figure4"):
        getattr(nf, name)(tmp_path / f"{name}.pdf", tmp_path / f"{name}.png")
    nf.figure5(agg, TITLES, GRAPHS["fig5d"], ["A", "C"], tmp_path / "f5.pdf", tmp_path / "f5.png")
    nf.figure5_optimal_arm(agg, TITLES, tmp_path / "oa.pdf", tmp_path / "oa.png")
    rng = np.random.default_rng(0)
    orderings = pd.DataFrame(
        [
            {"family": f, "algorithm": a, "ordering": o, "ratio": float(rng.uniform(0.7, 1.3))}
            for f in ("fig5a", "fig5b", "fig5c", "graphs")
            for a in ("ts", "kl_ucb")
            for o in ("POMIS+ < POMIS", "POMIS ≤ BF")
            for _ in range(3)
        ]
    )
    robustness_outputs.figure(orderings, tmp_path / "r.pdf", tmp_path / "r.png", scale="T = 300, 4 seeds")
    assert_no_overlaps(found, 7)


def test_coinciding_curves_are_named_and_marked(tmp_path, agg):
    """Strategies with the same arms give one curve: the panel says "POMIS = MIS = BF" and carries a
    marker of every one of their colours along it."""
    from causal_bandits.plots.regret import coincide_text, coinciding

    frame = agg["5b"].copy()
    for s in ("MIS", "BF"):
        frame.loc[frame.strategy == s, ["mean_cum_regret", "ci95_lo", "ci95_hi"]] = frame.loc[
            frame.strategy == "POMIS", ["mean_cum_regret", "ci95_lo", "ci95_hi"]
        ].to_numpy()
    groups = coinciding(frame, hue="strategy", style="algorithm", order=nf._rank)
    assert groups == [["POMIS", "MIS", "BF"]] and coincide_text(groups[0]) == "POMIS = MIS = BF"
    ax = new_figure((3, 2)).add_subplot()
    palette = nf.palette(["POMIS", "MIS", "BF"])
    lines = regret_panel(ax, frame, palette=palette, styles=nf.LINESTYLES, labels=nf.LABELS, order=nf._rank)
    assert {line.get_label() for line in lines} == {"POMIS = MIS = BF TS", "POMIS = MIS = BF KL-UCB"}
    marked = [m for m in ax.lines if m.get_marker() == "o"]
    assert {to_rgb(m.get_markerfacecolor()) for m in marked} == {to_rgb(c) for c in palette.values()}
    figure = {"5a": agg["5a"], "5b": frame}
    nf.figure5(figure, TITLES, GRAPHS["fig5d"], ["A", "C"], tmp_path / "f5.pdf", tmp_path / "f5.png")


def test_unknown_graph_figures_have_no_overlapping_text(tmp_path, no_overlaps):
    from causal_bandits.papers.unknown_graph import figures as uf
    from causal_bandits.papers.unknown_graph.trace import figure1_trace

    found = no_overlaps(uf)
    uf.figure1(figure1_trace(), tmp_path / "f1.pdf", tmp_path / "f1.png")
    rounds = np.arange(1, 101)
    labels = {"cn_ucb": "CN-UCB", "ucb": "UCB", "oracle": "Oracle-UCB", "cn_ucb_literal": "CN-UCB (literal Alg. 7/8)"}
    cells = {f"V2-tree{r}-h{h}": {"family": "tree", "regime": r, "h": h} for r in "AB" for h in (4, 6, 8)}
    aggs = {
        c: pd.DataFrame(
            [
                {
                    "algorithm": a,
                    "round": t,
                    "mean_cum_regret": t**0.5 * (i + 1),
                    "ci95_lo": t**0.5 * i,
                    "ci95_hi": t**0.5 * (i + 2),
                }
                for i, a in enumerate(("cn_ucb", "ucb", "oracle"))
                for t in rounds
            ]
        )
        for c in cells
    }
    summaries = {
        c: pd.DataFrame({"algorithm": ["cn_ucb"] * 2, "unknown_graph_discovery_rounds": [30, 40]}) for c in cells
    }
    uf.figV1(aggs, summaries, cells, tmp_path / "v1.pdf", tmp_path / "v1.png", scale="T = 100, 2 seeds per cell")
    rows = []
    for a in ("CN-UCB", "UCB", "Oracle-UCB", "CN-UCB (literal Alg. 7/8)"):
        for r in "AB":
            for n in (7, 15, 31):
                rows.append(
                    {
                        "family": "tree",
                        "regime": r,
                        "algorithm": a,
                        "n": n,
                        "cell": f"V2-tree{r}-h{n}",
                        "mean_R_T": 10.0 * n,
                        "ci95_lo": 9.0 * n,
                        "ci95_hi": 11.0 * n,
                        "T1_bound": 50.0 * n,
                        "mean_discovery_rounds": 5.0 * n,
                    }
                )
        for c in (1, 2, 4):
            rows.append(
                {
                    "family": "forest",
                    "regime": "B",
                    "algorithm": a,
                    "n": 15 * c,
                    "cell": f"V3-forest-C{c}",
                    "mean_R_T": 10.0 * c,
                    "ci95_lo": 9.0,
                    "ci95_hi": 11.0,
                    "T1_bound": 50.0 * c,
                    "mean_discovery_rounds": 5.0 * c,
                }
            )
        for n in (32, 64):
            rows.append(
                {
                    "family": "path_power",
                    "regime": "B",
                    "algorithm": a,
                    "n": n,
                    "cell": f"V4-path_power-n{n}-k1",
                    "mean_R_T": 3.0 * n,
                    "ci95_lo": 2.0,
                    "ci95_hi": 4.0,
                    "T1_bound": 9.0 * n,
                    "mean_discovery_rounds": 2.0 * n,
                }
            )
    table = pd.DataFrame(rows)
    uf.figV2(table, tmp_path / "v2.pdf", tmp_path / "v2.png", scale="T = 100, 2 seeds per cell")
    uf.figV3(table, tmp_path / "v3.pdf", tmp_path / "v3.png", scale="T = 100, 2 seeds per cell")
    uf.figV4(
        table,
        {f"V4-path_power-n{n}-k1": {"k": 1} for n in (32, 64)},
        tmp_path / "v4.pdf",
        tmp_path / "v4.png",
        scale="T = 100, 2 seeds per cell",
    )
    lb = pd.DataFrame(
        [
            {"theorem": th, "algorithm": a, "j": j, "k": k, "final_regret": 5.0 + j + k}
            for th in (4, 5)
            for a in ("cn_ucb", "ucb", "oracle")
            for j, k in ((0, 0), (1, 1), (1, 2))
        ]
    )
    uf.figV5(lb, 6.0, tmp_path / "v5.pdf", tmp_path / "v5.png", scale="T = 100, 2 seeds per instance")
    v6 = pd.DataFrame(
        [
            {"regime": r, "delta": d, "n": n, "c_B": c, "success_rate": 0.9}
            for r in "AB"
            for d in (0.01, 0.1)
            for n in (7, 15)
            for c in (0.1, 1.0)
        ]
    )
    uf.figV6(v6, tmp_path / "v6.pdf", tmp_path / "v6.png", scale="discovery only, 4 seeds per setting")
    assert set(labels.values()) <= set(uf.COLOURS)
    assert_no_overlaps(found, 7)


def test_fairness_figures_have_no_overlapping_text_and_name_coinciding_curves(tmp_path, no_overlaps):
    """Figure 2(b): when F-UCB plays D-UCB's arm throughout, the legend reads "D-UCB = F-UCB"."""
    from causal_bandits.papers.fairness import figures as ff

    found = no_overlaps(ff)
    ff.figure1(tmp_path / "f1.pdf", tmp_path / "f1.png")
    t = np.arange(1, 201)
    curves = pd.concat(
        [
            pd.DataFrame({"algorithm": a, "round": t, "mean_cum_regret": m * np.log1p(t), "sd_cum_regret": 1.0})
            for a, m in (("ucb", 9.0), ("cucb", 7.0), ("ducb", 5.0), ("fucb_tau0.3", 5.0))
        ]
    )
    captured = {}
    original = ff.regret_panel

    def keep(ax, *args, **kwargs):
        captured["ax"] = ax
        return original(ax, *args, **kwargs)

    ff.regret_panel = keep
    try:
        ff.figure2b(curves, 0.3, "T = 200, 2 seeds", tmp_path / "f2b.pdf", tmp_path / "f2b.png")
    finally:
        ff.regret_panel = original
    legend = [x.get_text() for x in captured["ax"].get_legend().get_texts()]
    assert legend == ["UCB", "C-UCB", "D-UCB = F-UCB (τ=0.3)"], legend
    assert_no_overlaps(found, 2)
