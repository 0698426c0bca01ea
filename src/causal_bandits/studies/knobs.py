"""Study ``knobs``: POMIS+ under the two z² settings the paper leaves open.

The deferral ``n_min`` (samples every source arm of an expression needs before it is used; the paper says
only "enough samples", docs/papers/nonmanip.md#nonmanip-a-enough-samples) and, for arms with no expression,
whether z²-KL-UCB keeps kl-UCB's statistics or takes the paper's literal Beta(α+1, β+1) moments
(``no_expression``, docs/papers/nonmanip.md#nonmanip-knobs). Each value other than the main run's is a point
of the study, POMIS+ rerun on the main run's first ``n_seeds`` seeds with that one setting changed; the main
value is the paper's main run on the same seeds (random streams are keyed by panel, not by the study, so seed s
of a point sees the noise of seed s of the main run and the two pair).

:func:`points` lists the study's points, :func:`knob_table` gives each (panel, solver, point) its mean regret
at T with the 95 % CI, whether it lies within Table 1's tolerance of the paper's POMIS+ cell
(:data:`~causal_bandits.papers.nonmanip.claims.TABLE1_REL_TOL`, fixed before any run) and its paired difference
from the main run, and :func:`findings` the line the report writes under each POMIS+ cell.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from functools import partial
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np
import pandas as pd
from matplotlib.artist import Artist

from causal_bandits import algorithms, runs, store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.artefacts import Artefact
from causal_bandits.artefacts import figure as figure_artefact
from causal_bandits.claims import (
    DIFFERS,
    INCONCLUSIVE,
    NOT_EVALUATED,
    REPRODUCED,
    Claim,
    Verdict,
    fmt,
)
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.papers.nonmanip.claims import PAPER_HORIZON, TABLE1_REL_TOL
from causal_bandits.papers.nonmanip.runs import NO_EXPRESSION_DEFAULT, NO_EXPRESSION_SOLVERS
from causal_bandits.papers.nonmanip.tables import PAPER_Z2_SOLVERS, TABLE1, ci95_halfwidth, pomis_plus_cells, table1_id
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.studies import Study, cell_rule
from causal_bandits.studies.refresh import check_solvers

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

STUDY = Study(
    name="knobs",
    paper=PAPER,
    title="Knob study: POMIS+ under the deferral n_min and the Beta switch",
    question="Which deferral n_min puts each POMIS+ cell of Table 1 within its tolerance, and what do the paper's "
    "literal Beta moments for arms with no expression do to z²-KL-UCB?",
    varies="n_min (every solver) and no_expression (z²-KL-UCB), one at a time, on the main run's first seeds",
    docs="papers/nonmanip.md#nonmanip-knobs",
    locates=(r"table1-[a-z0-9_]+-POMIS\+-",),
    run_key="{point}/{experiment}/{algorithm}",
)
OUT = "figures/studies/knobs"
#: The point id of the main run (the paper's POMIS+ run on the study's seeds).
MAIN = "main"
#: Seeds from which a point is judged against the paper's cell (at the paper's horizon): the study's default size
#: (docs/studies.md gives the half-widths it buys against Table 1's tolerance band).
JUDGED_SEEDS = studies.default("knobs", "n_seeds")


class Point(NamedTuple):
    """One setting of the study: the ``knob`` changed to ``value``, stored under point id ``point``
    (:data:`MAIN` when it is the main run's own value)."""

    knob: str
    value: Any
    point: str


def points(section: Mapping[str, Any], pomis_plus: Mapping[str, Any]) -> list[Point]:
    """Every point of the study, the main run's value of each knob included (point :data:`MAIN`): the ``n_min``
    values in increasing order, then, when ``no_expression`` names any, the main run's statistics and the others.
    ``pomis_plus``: the paper's main POMIS+ settings."""
    main = {"no_expression": NO_EXPRESSION_DEFAULT, **pomis_plus}
    n_mins = sorted({*section["n_min"], main["n_min"]})
    others = [v for v in section["no_expression"] if v != main["no_expression"]]
    statistics = [main["no_expression"], *others] if section["no_expression"] else []
    return [
        Point(knob, value, MAIN if value == main[knob] else f"{knob}-{value}")
        for knob, values in (("n_min", n_mins), ("no_expression", statistics))
        for value in values
    ]


def runs_of(section: Mapping[str, Any], pomis_plus: Mapping[str, Any]) -> dict[str, Point]:
    """The points the study runs itself (all but the main run), by point id."""
    return {p.point: p for p in points(section, pomis_plus) if p.point != MAIN}


def check_config(section: Mapping[str, Any], paper: Mapping[str, Any]) -> None:
    """The study reruns the paper's POMIS+ on the main run's first seeds with the paper's solvers."""
    if POMIS_PLUS not in paper["strategies"]:
        raise ConfigError("studies.knobs reruns POMIS+, which nonmanip.strategies leaves out; add POMISplus to it")
    if section["n_seeds"] > paper["n_seeds"]:
        raise ConfigError(
            f"studies.knobs.n_seeds = {section['n_seeds']} exceeds nonmanip.n_seeds = {paper['n_seeds']}: "
            "the study pairs with the main run's first seeds; lower it"
        )
    if not section["n_min"] and not section["no_expression"]:
        raise ConfigError("studies.knobs varies nothing: give n_min values, no_expression values, or both")
    check_solvers("knobs", section["algorithms"], paper)


def plays(point: Point, algorithm: str) -> bool:
    """Whether a solver runs a point: ``no_expression`` changes only z²-KL-UCB."""
    return applies(point.knob, algorithm)


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study: each point, panel and solver it changes, each chunk."""
    section = config["studies"]["knobs"]
    for point, spec in runs_of(section, config["nonmanip"]["pomis_plus"]).items():
        for panel in config["nonmanip"]["panels"]:
            for algorithm in section["algorithms"]:
                if plays(spec, algorithm):
                    where = {"point": point, "experiment": panel}
                    yield from studies.chunk_jobs(section, **where, strategy=POMIS_PLUS, algorithm=algorithm)


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``knobs_run``): POMIS+ on a panel with the point's z² setting changed, the main run's
    settings otherwise (:func:`causal_bandits.papers.nonmanip.runs.panel_science`)."""
    section = config["studies"]["knobs"]
    point = runs_of(section, config["nonmanip"]["pomis_plus"])[wildcards["point"]]
    science = nonmanip_runs.panel_science(config, wildcards["experiment"])
    changes = {point.knob: point.value}
    return nonmanip_runs.solver_job(config, wildcards, studies.chunks(section), science, changes=changes)


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's figure (regret at T against n_min, the Beta switch as stars) and table."""
    return [
        figure_artefact(
            "knobs",
            "Knob study: POMIS+ regret at T against the deferral n_min, and the Beta switch of z²-KL-UCB",
            f"{OUT}/figure",
            ids=[r"knobs-"],
        ),
        Artefact("knobs_table", "Knob study: the table and its findings", (f"{OUT}/table.md", f"{OUT}/table.csv")),
    ]


def applies(knob: str, algorithm: str) -> bool:
    """Whether a knob changes anything for a solver: ``no_expression`` only for z²-KL-UCB."""
    return knob != "no_expression" or algorithms.played(PAPER, algorithm, z2=True).key in NO_EXPRESSION_SOLVERS


def knob_table(
    finals: pd.DataFrame, section: Mapping[str, Any], pomis_plus: Mapping[str, Any], horizon: int
) -> pd.DataFrame:
    """One row per (panel, solver, point) that ran: mean regret at T ± 95 % half-width, the paper's POMIS+ cell,
    whether ours is within its tolerance, and the paired difference point - main run over the study's seeds.
    ``finals``: per-seed ``seed`` and ``final_regret`` with columns panel, point, algorithm (the main run's
    chunks may hold more seeds than the study: only its first ``n_seeds`` count)."""
    seeds = np.arange(section["n_seeds"])
    rows = []
    for (panel, algorithm), group in finals.groupby(["panel", "algorithm"], sort=True):
        by_point = {p: g.set_index("seed")["final_regret"].sort_index() for p, g in group.groupby("point")}
        main = by_point[MAIN].loc[seeds]
        paper = TABLE1.get(cast(tuple[str, str, str], (algorithm, "POMIS+", panel)), np.nan)
        for knob, value, point in points(section, pomis_plus):
            if point not in by_point or not applies(knob, cast(str, algorithm)):
                continue
            x = by_point[point].loc[seeds] if point == MAIN else by_point[point]
            if list(x.index) != list(seeds):
                raise ValueError(f"{panel}/{algorithm}: point {point} must hold seeds 0..{seeds.size - 1}")
            mean = float(x.mean())
            diff = (x - main).to_numpy(dtype=float)
            rows.append(
                {
                    "panel": panel,
                    "algorithm": algorithm,
                    "knob": knob,
                    "value": str(value),
                    "main": point == MAIN,
                    "point": point,
                    "mean_cr_T": mean,
                    "ci95_halfwidth": ci95_halfwidth(x.to_numpy(dtype=float)),
                    "paired_difference": float(diff.mean()),
                    "paired_ci95_halfwidth": ci95_halfwidth(diff),
                    "n_seeds": int(x.size),
                    "horizon": int(horizon),
                    "paper_value": paper,
                    "within_tolerance": bool(abs(mean - paper) <= TABLE1_REL_TOL * paper)
                    if np.isfinite(paper)
                    else None,
                }
            )
    order = {a: k for k, a in enumerate(algorithms.solvers(PAPER))}  # panels, then solvers in registry order
    return pd.DataFrame(rows).sort_values(
        ["panel", "algorithm"], key=lambda c: c.map(order) if c.name == "algorithm" else c, kind="stable"
    )


def _values(values) -> str:
    return "{" + ", ".join(str(v) for v in values) + "}"


def _cell(row) -> str:
    return f"{row.mean_cr_T:.2f} ± {row.ci95_halfwidth:.2f}"


def _beta_text(rows: pd.DataFrame, algorithm: str) -> str:
    """What the other ``no_expression`` statistics do to the cell (z²-KL-UCB), or why there is nothing to say."""
    if not applies("no_expression", algorithm):
        return (
            f"the Beta switch does not apply to z²-{PAPER_Z2_SOLVERS[algorithm]} "
            "(arms with no expression already draw from Beta(α+1, β+1))"
        )
    other = rows[(rows.knob == "no_expression") & ~rows.main]
    if other.empty:
        return "the no_expression switch was not run (studies.knobs.no_expression)"
    main = rows[(rows.knob == "no_expression") & rows.main].iloc[0]
    parts = []
    for r in other.itertuples():
        where = "within" if r.within_tolerance else "not within"
        parts.append(
            f"no_expression = {r.value} moves it from {_cell(main)} ({main.value}) to {_cell(r)}, paired difference "
            f"{r.paired_difference:+.2f} ± {r.paired_ci95_halfwidth:.2f} ({where} ±{TABLE1_REL_TOL:.0%})"
        )
    return "; ".join(parts)


def findings(table: pd.DataFrame) -> dict[str, dict[str, dict[str, Any]]]:
    """Per panel and solver with a POMIS+ cell in Table 1: the finding line (which n_min values put the cell within
    its tolerance, what the Beta switch does), the n_min values within, and whether it was judged at the paper's
    scale (the paper's cells are at T = 10,000 with 1,000 simulations)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for (panel, algorithm), rows in table.groupby(["panel", "algorithm"], sort=False):
        paper = TABLE1.get(cast(tuple[str, str, str], (algorithm, "POMIS+", panel)))
        if paper is None:
            continue
        n_rows = rows[rows.knob == "n_min"]
        tried = [int(v) for v in n_rows.value]
        good = [int(v) for v in n_rows[n_rows.within_tolerance.astype(bool)].value]
        if good:
            text = (
                f"n_min ∈ {_values(good)} of {_values(tried)} put the cell within ±{TABLE1_REL_TOL:.0%} of {paper:.2f}"
            )
        else:
            text = (
                f"no n_min of {_values(tried)} puts the cell within ±{TABLE1_REL_TOL:.0%} of {paper:.2f} "
                f"(ours {n_rows.mean_cr_T.min():.2f} to {n_rows.mean_cr_T.max():.2f})"
            )
        text += "; " + _beta_text(rows, cast(str, algorithm))
        paper_scale = int(rows.horizon.min()) >= PAPER_HORIZON and int(rows.n_seeds.min()) >= JUDGED_SEEDS
        if not paper_scale:  # like with like: the paper's cells are at its horizon
            text = (
                f"not judged at this scale (judged at T = {PAPER_HORIZON:,}, the paper's, with at least "
                f"{JUDGED_SEEDS} seeds); at this run's scale, {text}"
            )
        out.setdefault(cast(str, panel), {})[cast(str, algorithm)] = {
            "finding": text,
            "n_min_within": good,
            "n_min_tried": tried,
            "paper_scale": paper_scale,
            **_under_the_rule(rows, paper),
        }
    return out


def _setting(row) -> str:
    return f"{row.knob} = {row.value}"


def _under_the_rule(rows: pd.DataFrame, paper: float) -> dict[str, Any]:
    """The claim's own rule (:func:`causal_bandits.studies.cell_rule.judge`) at each point of one cell: ``main`` (the
    main run's n_min, its verdict and our value) and ``at``, by the setting of every other point."""
    judged = {(_setting(r), bool(r.main)): cell_rule.judge(r, paper) for r in rows.itertuples()}
    main = next(dict(v, setting=k[0]) for k, v in judged.items() if k[1] and k[0].startswith("n_min"))
    return {"main": main, "at": {k[0]: v for k, v in judged.items() if not k[1]}}


BEYOND = (
    "designed for this replication, not in the paper: POMIS+ under the z² settings the paper leaves open, "
    "the deferral n_min and, for z²-KL-UCB, the Beta(α+1, β+1) moments of arms with no expression "
    "(docs/papers/nonmanip.md#nonmanip-knobs)"
)
SCALE = f"T = {PAPER_HORIZON:,} with at least {JUDGED_SEEDS} seeds"


def _cell_claim(algorithm: str, panel: str, value: float) -> Claim:
    """Which n_min values put a POMIS+ cell within Table 1's tolerance, and what the Beta switch does to it."""

    def evaluate(results) -> Verdict:
        found = results.get("findings", {}).get(panel, {}).get(algorithm)
        if found is None:
            return Verdict(NOT_EVALUATED, fmt(value), "–", f"{PAPER_Z2_SOLVERS[algorithm]} POMIS+ was not run")
        note = f"{BEYOND}; within ±{TABLE1_REL_TOL:.0%} (Table 1's tolerance)"
        return studies.finding_verdict(fmt(value), found, note, SCALE)

    return Claim(
        f"knobs-{algorithm}-{panel}",
        "Table 1",
        f"{PAPER_Z2_SOLVERS[algorithm]} POMIS+, {panel}: the deferral n_min and the Beta switch (open in the paper)",
        evaluate,
    )


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims: one per POMIS+ cell of Table 1 on the paper's configured panels, by its solvers."""
    return [_cell_claim(algorithm, panel, value) for algorithm, panel, value in pomis_plus_cells(paper["panels"])]


def _others(found: Mapping[str, Mapping[str, Mapping[str, Any]]], panel: str, algorithm: str, setting: str) -> str:
    """What ``setting`` does to the study's other POMIS+ cells under their rule: main run's value and verdict → the
    setting's."""
    parts = [
        f"{PAPER_Z2_SOLVERS[a]} {p} {f['main']['ours']} ({f['main']['status']}) → {f['at'][setting]['ours']} "
        f"({f['at'][setting]['status']})"
        for p, per in found.items()
        for a, f in per.items()
        if (p, a) != (panel, algorithm) and setting in f["at"]
    ]
    return "; ".join(parts) or "no other cell ran at this setting"


def _record(found: Mapping[str, Mapping[str, Mapping[str, Any]]], panel: str, algorithm: str) -> dict[str, str]:
    """One cell's finding record: *located* at a setting other than the main run's where the claim's rule reproduces
    the paper (with what it does to the other cells), *partly* where a setting moves a cell that differs onto the
    band's edge (its interval straddles it), *inconclusive* below the paper's scale or where no setting decides more
    than the main run, else *ruled out*."""
    f = found[panel][algorithm]
    if not f["paper_scale"]:
        return studies.finding(studies.INCONCLUSIVE, "not judged at the paper's scale", f["finding"])
    main, at = f["main"], f["at"]
    for setting, here in at.items():
        if here["status"] == REPRODUCED:
            evidence = studies.Located(
                setting,
                main["setting"],
                True,
                f"{here['ours']} (reproduced)",
                _others(found, panel, algorithm, setting),
            )
            return studies.finding(studies.LOCATED, f"{setting} reproduces the cell", f["finding"], evidence)
    edge = [s for s, here in at.items() if here["status"] == INCONCLUSIVE]
    shown = "; ".join(f"{s}: {at[s]['ours']}" for s in edge) + f"; the main run ({main['setting']}): {main['ours']}"
    if edge and main["status"] == DIFFERS:
        text = (
            f"{', '.join(edge)} {'moves' if len(edge) == 1 else 'move'} the cell onto the edge of its band, not into it"
        )
        others = "; ".join(f"at {s} the other cells: {_others(found, panel, algorithm, s)}" for s in edge)
        return studies.finding(studies.PARTLY, text, f"{shown}; {others}; {f['finding']}")
    if edge:
        straddle = f"{', '.join(edge)} {'straddles' if len(edge) == 1 else 'straddle'} it"
        text = f"no other setting puts the cell inside its band; {straddle} (the main run: {main['status']})"
        return studies.finding(studies.INCONCLUSIVE, text, f"{shown}; {f['finding']}")
    return studies.finding(studies.RULED_OUT, "no setting of the sweep reproduces the cell", f["finding"])


def located(found: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, dict[str, str]]:
    """The finding record of each paper claim of a POMIS+ cell, by the claim's id (:func:`_record`)."""
    return {
        table1_id(algorithm, "POMIS+", panel): _record(found, panel, algorithm)
        for panel, per in found.items()
        for algorithm in per
    }


def markdown(table: pd.DataFrame, found: Mapping[str, Mapping[str, Any]], titles: Mapping[str, str]) -> str:
    """The study as one table (a row per panel and solver, a column per point) and the finding of each cell."""
    lines = [
        "# POMIS+ under the knobs the paper leaves open (beyond the paper)",
        "",
        (
            "POMIS+ rerun on the main run's first seeds with another deferral n_min (samples every source arm of an "
            "expression needs before it is used) or, for z²-KL-UCB, other statistics for arms with no expression "
            "(klucb: kl-UCB's own; beta: the paper's literal Beta(α+1, β+1) moments, at the main n_min). Regret at T, "
            f"ours ± 95 % CI half-width; (main) = the main run; (within) = within ±{TABLE1_REL_TOL:.0%} of the "
            "paper's Table 1 cell (Table 1's tolerance); Δ = paired difference from the main run on the same seeds."
        ),
        "",
    ]
    columns = list(dict.fromkeys(zip(table.knob, table.value)))
    lines += [
        "| panel | solver | paper |" + "".join(f" {k} = {v} |" for k, v in columns),
        "|---|---|---|" + "---|" * len(columns),
    ]
    for (panel, algorithm), rows in table.groupby(["panel", "algorithm"], sort=False):
        cells = []
        for knob, value in columns:
            r = rows[(rows.knob == knob) & (rows.value == value)]
            if r.empty:
                cells.append("–")
                continue
            r = r.iloc[0]
            marks = [m for m, on in (("main", r.main), ("within", r.within_tolerance)) if on]
            delta = "" if r.main else f", Δ {r.paired_difference:+.2f} ± {r.paired_ci95_halfwidth:.2f}"
            cells.append(_cell(r) + delta + "".join(f" ({m})" for m in marks))
        paper = rows.paper_value.iloc[0]
        lines.append(
            f"| {titles.get(cast(str, panel), panel)} | {PAPER_Z2_SOLVERS.get(cast(str, algorithm), algorithm)} | "
            + (f"{paper:.2f}" if np.isfinite(paper) else "–")
            + " | "
            + " | ".join(cells)
            + " |"
        )
    lines += ["", "Findings:", ""]
    for panel, per in found.items():
        for algorithm, f in per.items():
            lines.append(f"* {titles.get(panel, panel)}, {PAPER_Z2_SOLVERS[algorithm]} POMIS+: {f['finding']}.")
    return "\n".join(lines) + "\n"


def _solver_lines(ax, rows: pd.DataFrame, panel: str, algorithm: str, color: str) -> None:
    """One solver on one panel of the knob figure: regret against n_min (95 % CI), each other ``no_expression``
    value as a star at the main n_min, the paper's POMIS+ cell as a dotted line with its tolerance band."""
    name = PAPER_Z2_SOLVERS[algorithm]
    n_rows = rows[rows.knob == "n_min"].assign(x=lambda d: d.value.astype(int)).sort_values("x")
    if n_rows.empty:  # this solver did not run: no line, not even the paper's
        return
    ax.errorbar(
        n_rows.x,
        n_rows.mean_cr_T,
        yerr=n_rows.ci95_halfwidth,
        color=color,
        marker="o",
        markersize=3,
        linewidth=0.9,
        capsize=2,
        label=f"{name} POMIS+",
    )
    main_n = int(n_rows[n_rows.main].x.iloc[0])
    for r in rows[(rows.knob == "no_expression") & ~rows.main].itertuples():
        ax.errorbar(
            [main_n],
            [r.mean_cr_T],
            yerr=[r.ci95_halfwidth],
            color=color,
            marker="*",
            markersize=7,
            linestyle="none",
            capsize=2,
            label=f"{name} POMIS+, no_expression = {r.value}",
        )
    paper = TABLE1.get((algorithm, "POMIS+", panel))
    if paper is not None:
        ax.axhline(paper, color=color, linestyle=":", linewidth=0.9, label=f"paper, {name} POMIS+")
        ax.axhspan(paper * (1 - TABLE1_REL_TOL), paper * (1 + TABLE1_REL_TOL), color=color, alpha=0.08, linewidth=0)


def figure(table: pd.DataFrame, titles: Mapping[str, str], path_pdf: PathLike, path_png: PathLike) -> None:
    """Regret at T against n_min per panel (both solvers, 95 % CI), the paper's POMIS+ cell as a dotted line with
    its tolerance band, and each other ``no_expression`` value as its own marker at the main n_min."""
    panels = list(titles)
    with paper_style():
        fig = new_figure((2.4 * len(panels) + 1.6, 2.6))
        axes = np.atleast_1d(fig.subplots(1, len(panels), squeeze=False)[0])
        for ax, panel in zip(axes, panels):
            for i, algorithm in enumerate(PAPER_Z2_SOLVERS):
                _solver_lines(
                    ax, table[(table.panel == panel) & (table.algorithm == algorithm)], panel, algorithm, f"C{i}"
                )
            ax.set_xscale("symlog", linthresh=10)
            ticks = sorted({int(v) for v in table[table.knob == "n_min"].value})
            ax.set_xticks(ticks, [str(v) for v in ticks])
            ax.margins(x=0.08)
            ax.set_xlabel("n_min")
            ax.set_title(f"{titles[panel]}", fontsize=7)
        axes[0].set_ylabel("cumulative regret at T")
        legend: dict[str, Artist] = {}  # every solver's entries, once, beside the panels
        for ax in axes:
            handles, labels = ax.get_legend_handles_labels()
            legend.update(zip(labels, handles))
        narrow = len(panels) < 3  # narrower than three panels: the legend goes below, the title on two lines
        fig.legend(
            list(legend.values()),
            list(legend),
            loc="outside lower center" if narrow else "outside right upper",
            ncols=2 if narrow else 1,
            fontsize=5.5,
            frameon=False,
        )
        wrap = "\n" if narrow else " "
        fig.suptitle(
            f"POMIS+ regret at T = {int(table.horizon.max()):,} against the deferral n_min,{wrap}and the Beta switch "
            "(not in the paper)",
            fontsize=7,
        )
        save_figure(fig, path_pdf, path_png)


def report_step(job: Job) -> None:
    """Rule knobs_report: the knob study's figure (:func:`figure`), table (:func:`knob_table`) and claims."""
    out, p = job.output, job.params
    table = knob_table(read_finals(job.input, ("point", "panel", "algorithm")), p.section, p.pomis_plus, p.horizon)
    found = findings(table)
    store.write_atomic(out.csv, partial(table.to_csv, index=False, float_format="%.6g"))
    store.write_atomic(out.md, partial(Path.write_text, data=markdown(table, found, p.titles)))
    figure(table, p.titles, out.pdf, out.png)
    rows = [claim.check({"findings": found}) for claim in claims({"panels": p.titles})]
    scale = f"T = {p.horizon:,}, seeds 0–{p.section['n_seeds'] - 1} of the main run"
    store.write_json(out.claims, studies.document("knobs", scale, rows, located(found)))
    for panel, per in found.items():
        for algorithm, f in per.items():
            log.info("%s %s: %s", panel, algorithm, f["finding"])
