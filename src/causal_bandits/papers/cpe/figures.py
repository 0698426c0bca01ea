"""cpe figures, all designed for this replication (the paper has none; docs/papers/cpe.md#cpe-outputs).

Figure 0: E0 CI violations (≤ δ expected) and samples per α_O. Figures 1-5: mean samples (± s.e.)
against the experiment's swept parameter(s), with the theory's term (H for LUCB-type algorithms,
H_{m_{ε,Δ}} for CCPE) scaled by its fitted constant as a dashed line, log axes where sizes grow;
Figure 3 adds correctness with Wilson intervals; Figure 4 adds the E4b theory curves; Figure 5 plots
samples against Theorem 3's lower bound. Figure 6: error probability against samples (checkpoint
traces; the parallel bandit by budget). Titles say "[designed]".
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from causal_bandits import algorithms
from causal_bandits.papers.cpe import PAPER, results
from causal_bandits.papers.cpe import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.cpe.design import BUDGETED
from causal_bandits.papers.cpe.tables import lower_bound_table
from causal_bandits.plots import new_figure, paper_style, save_figure

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

#: Each algorithm's colour, from its registry entry (causal_bandits/papers/cpe/algorithms.py).
PALETTE = {k: e.style["color"] for k, e in algorithms.registry(PAPER).items() if "color" in e.style}
TERM = {"ccpe_general": "H_m", "naive": "H_m", "ccpe_bglm": "H_m_L"}  # else H
DESIGNED = "[designed for this replication; not in the paper]"


def log_scale(ax, axis: str, values) -> None:
    """A log ``axis`` ("x" or "y") when some value is positive; otherwise a linear axis and a note
    (samples to stop are undefined when every run of the panel reached the sample cap)."""
    v = np.asarray(values, dtype=float)
    if (np.isfinite(v) & (v > 0)).any():
        getattr(ax, f"set_{axis}scale")("log")
    else:
        ax.text(
            0.5,
            0.5,
            "every run censored at the sample cap",
            transform=ax.transAxes,
            ha="center",
            va="center",
            fontsize=7,
        )


def label(algorithm: str, strategy: str) -> str:
    """An algorithm's legend entry (its registry label, an addition marked) and its profile unless practical."""
    entry = algorithms.registry(PAPER).get(algorithm)
    name = entry.display if entry else algorithm
    return name if strategy == "practical" else f"{name} ({strategy})"


def x_values(frame: pd.DataFrame, name: str) -> pd.Series:
    """The swept quantity of a row: n_arms, epsilon, LB, or a family parameter."""
    return frame[name] if name in ("n_arms", "epsilon", "LB") else frame[f"param_{name}"]


def panel_rows(frame: pd.DataFrame, names: Sequence[str], name: str) -> pd.DataFrame:
    """Rows of the panel over ``name``: the other swept parameters at their most common values."""
    keep = np.ones(len(frame), dtype=bool)
    for other in names:
        if other != name:
            values = x_values(frame, other)
            keep &= (values == values.mode().iloc[0]).to_numpy()
    return frame[keep]


#: ``groupby(["algorithm", "strategy"])`` as typed iteration: both columns hold strings.
_Groups = Iterable[tuple[tuple[str, str], pd.DataFrame]]


def _by_algorithm(frame: pd.DataFrame) -> _Groups:
    """The rows of each (algorithm, strategy), algorithms in the order of their labels (the legends' order)."""
    order = ["algorithm", "strategy"]
    ordered = frame.sort_values(order, key=algorithms.label_order(PAPER))
    return cast(_Groups, ordered.groupby(order, sort=False))


def _samples_panel(ax, frame: pd.DataFrame, name: str, log_x: bool) -> None:
    frame = frame[frame["algorithm"] != BUDGETED].assign(x=x_values(frame, name))
    for (algorithm, strategy), g in _by_algorithm(frame):
        g = g.sort_values("x")
        color = PALETTE.get(algorithm, "k")
        style = "-" if strategy == "practical" else ":"
        ax.errorbar(
            g["x"],
            g["samples_mean"],
            yerr=1.96 * g["samples_se"].fillna(0),
            fmt="o" + style,
            color=color,
            ms=3,
            lw=1,
            capsize=2,
            label=label(algorithm, strategy),
        )
        term = g[TERM.get(algorithm, "H")].to_numpy(float)
        ratio = g["samples_mean"].to_numpy(float) / term
        if np.isfinite(term).all() and np.isfinite(ratio).any():  # no line when every run was censored
            c = np.nanmedian(ratio)
            ax.plot(g["x"], c * term, "--", color=color, lw=0.8, alpha=0.7)
    log_scale(ax, "y", frame["samples_mean"])
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel(name if name != "n_arms" else "|A|")
    ax.set_ylabel("samples to stop (mean ± 1.96 s.e.)")


def samples_figure(
    stopping: pd.DataFrame,
    experiment: Mapping[str, Any],
    number: int,
    paths: Sequence[str],
    theory: Sequence[Mapping[str, Any]] = (),
    scale: str = "",
) -> None:
    names = [n.strip() for n in experiment.get("x", "").split(",") if n.strip()] or ["n_arms"]
    extra = 1 if (number == 3 or (number == 4 and theory)) else 0
    fig = new_figure((max(4.6, 3.2 * (len(names) + extra)) + 1.0, 3.0))  # + 1 in: the legend, outside
    axes = fig.subplots(1, len(names) + extra, squeeze=False)[0]
    for ax, name in zip(axes, names):
        _samples_panel(ax, panel_rows(stopping, names, name), name, log_x=name in ("n_arms", "LB"))
    if number == 3:
        _correct_panel(axes[-1], stopping, names[0])
    if number == 4 and theory:
        _theory_panel(axes[-1], theory)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside right upper", fontsize=6)  # never over data
    fig.suptitle(
        f"Figure {number}: {experiment.get('title', '')}\n{DESIGNED}{_scale(scale)}\n"
        "dashed: the theory's term (H or H_m) times its fitted constant",
        fontsize=7,
    )
    save_figure(fig, *paths)


def _correct_panel(ax, frame: pd.DataFrame, name: str) -> None:
    frame = frame[frame["algorithm"] != BUDGETED].assign(x=x_values(frame, name))
    for (algorithm, strategy), g in _by_algorithm(frame):
        g = g.sort_values("x")
        err = np.vstack([g["correct_rate"] - g["correct_wilson_low"], g["correct_wilson_high"] - g["correct_rate"]])
        ax.errorbar(
            g["x"],
            g["correct_rate"],
            yerr=err,
            fmt="o-",
            ms=3,
            lw=1,
            capsize=2,
            color=PALETTE.get(algorithm, "k"),
            label=label(algorithm, strategy),
        )
    ax.set_xlabel(name)
    ax.set_ylabel("correct (Wilson 95 %)")
    ax.set_ylim(-0.05, 1.05)


def _theory_panel(ax, theory: Sequence[Mapping[str, Any]]) -> None:
    k = [r["param_k"] for r in theory]
    for key, text in (("H", "H (LUCB)"), ("H_m_G", "H_m, q^(G)"), ("H_m_L", "H_m, q^(L)")):
        ax.plot(k, [r[key] for r in theory], "o-", ms=3, lw=1, label=text)
    ax.set_yscale("log")
    ax.set_xlabel("k (roots)")
    ax.set_ylabel("E4b theory terms")
    ax.legend(fontsize=6)


def coverage_figure(stopping: pd.DataFrame, delta: float, paths: Sequence[str], scale: str = "") -> None:
    """Figure 0 (E0): CI-violation rate per setting against δ, and mean samples per setting."""
    frame = stopping[stopping["algorithm"] != BUDGETED].reset_index(drop=True)
    names = [f"{c}: {label(a, s)}" for c, a, s in zip(frame["config"], frame["algorithm"], frame["strategy"])]
    fig = new_figure((7.0, 0.25 * len(frame) + 1.5))
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(frame))
    ax1.barh(y, frame["ci_violation_rate"], color=[PALETTE.get(a, "k") for a in frame["algorithm"]])
    ax1.axvline(delta, ls="--", color="k", lw=0.8)
    ax1.set_yticks(y, names, fontsize=6)
    ax1.set_xlabel("share of runs with an interval excluding μ_a (dashed: δ)")
    ax2.errorbar(frame["samples_mean"], y, xerr=1.96 * frame["samples_se"].fillna(0), fmt="o", ms=3)
    log_scale(ax2, "x", frame["samples_mean"])
    ax2.set_xlabel("samples to stop")
    fig.suptitle(f"Figure 0: E0 confidence-interval coverage\n{DESIGNED}{_scale(scale)}", fontsize=7)
    save_figure(fig, *paths)


#: The configs of Figure 6 (docs/papers/cpe.md#cpe-outputs); an experiment without it shows its last config.
BUDGET_CONFIGS = {"E1": "n32", "E2": "r8", "E4": "k5"}


def budget_figure(budgets: Mapping[str, pd.DataFrame], delta: float, paths: Sequence[str], scale: str = "") -> None:
    """Figure 6: error probability against samples, one panel per experiment (E1 n=32, E2 r=8, E4 k=5)."""
    panels = []
    for exp, frame in sorted(budgets.items()):
        if frame.empty or exp == "E0":
            continue
        config = (
            BUDGET_CONFIGS.get(exp) if BUDGET_CONFIGS.get(exp) in set(frame["config"]) else frame["config"].iloc[-1]
        )
        panels.append((exp, config, frame[frame["config"] == config]))
    fig = new_figure((max(4.6, 3.0 * len(panels)), 2.8))
    axes = fig.subplots(1, max(len(panels), 1), squeeze=False)[0]
    for ax, (exp, config, frame) in zip(axes, panels):
        for (algorithm, strategy), g in _by_algorithm(frame):
            ax.plot(
                g["budget"],
                g["error"],
                "o-" if algorithm == BUDGETED else "-",
                ms=3,
                lw=1,
                color=PALETTE.get(algorithm, "k"),
                label=label(algorithm, strategy),
            )
        ax.axhline(delta, ls="--", color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{exp} {config}", fontsize=7)
        ax.set_xlabel("samples (checkpoint or PB budget)")
        ax.legend(fontsize=5)
    axes[0].set_ylabel("error probability (dashed: δ)")
    fig.suptitle(f"Figure 6: error probability against samples\n{DESIGNED}{_scale(scale)}", fontsize=7)
    save_figure(fig, *paths)


def lower_bound_figure(table: pd.DataFrame, paths: Sequence[str], scale: str = "") -> None:
    """Figure 5 (E5): mean samples against Theorem 3's lower bound (positive LB only), y = c·x guides."""
    fig = new_figure((4.6, 3.0))
    ax = fig.subplots()
    rows = table[table["LB"] > 0]
    ordered = rows.sort_values("algorithm", key=algorithms.label_order(PAPER), kind="stable")
    for algorithm, g in cast(Iterable[tuple[str, pd.DataFrame]], ordered.groupby("algorithm", sort=False)):
        ax.errorbar(
            g["LB"],
            g["samples_mean"],
            yerr=1.96 * g["samples_se"].fillna(0),
            fmt="o",
            ms=3,
            capsize=2,
            color=PALETTE.get(algorithm, "k"),
            label=label(algorithm, "practical"),
        )
        c = np.nanmedian(g["samples_mean"] / g["LB"])
        xs = np.array([rows["LB"].min(), rows["LB"].max()]) if len(rows) else np.array([1.0, 10.0])
        ax.plot(xs, c * xs, "--", lw=0.8, color=PALETTE.get(algorithm, "k"))
    log_scale(ax, "x", rows["LB"])
    log_scale(ax, "y", rows["samples_mean"])
    ax.set_xlabel("Theorem 3 lower bound LB (Ω constant unknown)")
    ax.set_ylabel("samples to stop")
    if len(rows):
        ax.legend(fontsize=6)
    fig.suptitle(
        f"Figure 5: E5 samples against the lower bound\n{DESIGNED}{_scale(scale)}\n"
        "dashed: c · LB, c the algorithm's median samples / LB",
        fontsize=7,
    )
    save_figure(fig, *paths)


def _scale(scale: str) -> str:
    """The run's sample cap and seeds as one more title line (every figure states them)."""
    return f"; {scale}" if scale else ""


def paths(number: int) -> list[str]:
    return [f"figures/cpe/figure{number}.pdf", f"figures/cpe/figure{number}.png"]


def make_all(
    stopping: Mapping[str, pd.DataFrame],
    budgets: Mapping[str, pd.DataFrame],
    experiments: Mapping[str, Mapping[str, Any]],
    theory: Sequence[Mapping[str, Any]],
    delta: float,
    lower_bound: pd.DataFrame,
    scale: str = "",
) -> list[str]:
    """Every figure of the experiments present, each stating ``scale`` (sample cap and seeds);
    returns the written paths."""
    numbers = {"E0": 0, "E1": 1, "E2": 2, "E3": 3, "E4": 4, "E5": 5}
    written = []
    with paper_style():
        for exp, frame in stopping.items():
            n = numbers.get(exp)
            if n == 0:
                coverage_figure(frame, delta, paths(0), scale)
            elif n == 5:
                lower_bound_figure(lower_bound, paths(5), scale)
            elif n is not None:
                samples_figure(frame, experiments[exp], n, paths(n), theory if n == 4 else (), scale)
            if n is not None:
                written += paths(n)
        budget_figure(budgets, delta, paths(6), scale)
    return written + paths(6)


def figures_step(job: Job) -> None:
    """Rule cpe_figures: Figures 0-6 [designed] from the aggregated runs and the E4b theory curves."""
    inp, p = job.input, job.params
    found = results.load(inp.stopping, inp.budget, inp.quantities, inp.theory)
    written = make_all(
        found["stopping"],
        found["budgets"],
        p.experiments,
        found["theory"],
        p.delta,
        lower_bound_table(found["stopping"], found["quantities"]),
        scale=p.scale,
    )
    log.info("wrote %s", ", ".join(written))
