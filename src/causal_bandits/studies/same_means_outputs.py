"""Study ``same_means``: the sweep's table, findings, claims and figures.

The sweep (:mod:`causal_bandits.studies.same_means`) runs POMIS and POMIS+ with each solver
on every point. :func:`sweep_table` gives each (panel, point, solver, strategy) its mean regret at T
with the 95 % CI and, for POMIS+, whether it lies within Table 1's tolerance of the paper's cell
(:data:`~causal_bandits.papers.nonmanip.claims.TABLE1_REL_TOL`, fixed before any run);
:func:`findings` the efficiency interval in which both of the paper's POMIS+ cells (TS and KL-UCB)
fall inside it at once, or the statement that no point does. POMIS plays the same arm means on every
point, so its regret must stay flat: the table tests equal means over the points (Cochran's Q).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import partial
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from causal_bandits import store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.artefacts import Artefact
from causal_bandits.claims import DIFFERS, NOT_EVALUATED, REPRODUCED, Claim, Verdict, fmt
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip.claims import PAPER_HORIZON, TABLE1_REL_TOL
from causal_bandits.papers.nonmanip.tables import PAPER_Z2_SOLVERS, TABLE1, ci95_halfwidth, pomis_plus_cells, table1_id
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.studies import cell_rule

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

OUT = "figures/studies/same_means"
#: Seeds per point from which the sweep is judged against the paper's cells (at the paper's horizon): the study's
#: default size (docs/studies.md gives the half-widths it buys against Table 1's tolerance band).
JUDGED_SEEDS = 200


def sweep_table(finals: pd.DataFrame, families: Mapping[str, Mapping[str, Any]], horizon: int) -> pd.DataFrame:
    """One row per (panel, point, algorithm, strategy): efficiency, mean regret at T ± 95 % half-width, the
    paper's POMIS+ cell and whether ours is within its tolerance. ``finals``: per-seed ``final_regret`` with
    columns panel, point, strategy, algorithm."""
    rows = []
    for (panel, point, algorithm, strategy), g in finals.groupby(
        ["panel", "point", "algorithm", "strategy"], sort=True
    ):
        x = g["final_regret"].to_numpy(dtype=float)
        label = "POMIS+" if strategy == POMIS_PLUS else strategy
        paper = TABLE1.get(cast(tuple[str, str, str], (algorithm, label, panel)), np.nan)  # string columns
        mean = float(x.mean())
        rows.append(
            {
                "panel": panel,
                "point": int(cast(int, point)),
                "efficiency": families[cast(str, panel)]["points"][int(cast(int, point))]["panel_efficiency"],
                "algorithm": algorithm,
                "strategy": label,
                "mean_cr_T": mean,
                "ci95_halfwidth": ci95_halfwidth(x),
                "n_seeds": int(x.size),
                "horizon": int(horizon),
                "paper_value": paper,
                "within_tolerance": bool(abs(mean - paper) <= TABLE1_REL_TOL * paper) if np.isfinite(paper) else None,
            }
        )
    return pd.DataFrame(rows)


def pomis_flat(table: pd.DataFrame, panel: str, algorithm: str) -> tuple[float, float, float] | None:
    """(p-value of equal means, lowest mean, highest mean) of POMIS's regret at T over the panel's points.

    Cochran's Q: Σ_k (m_k − m̄)² / se_k² with m̄ the inverse-variance mean, χ² with K − 1 degrees of freedom
    under equal means (se_k = half-width / 1.96; independent runs: each point has its own random streams)."""
    sel = table[(table.panel == panel) & (table.algorithm == algorithm) & (table.strategy == "POMIS")]
    if len(sel) < 2 or not np.all(sel.ci95_halfwidth > 0):
        return None
    m, w = sel.mean_cr_T.to_numpy(), (1.96 / sel.ci95_halfwidth.to_numpy()) ** 2
    q = float((w * (m - (w * m).sum() / w.sum()) ** 2).sum())
    from scipy.stats import chi2  # here: the workflow plans with this module, never with scipy.stats (1 s)

    return float(chi2.sf(q, len(m) - 1)), float(m.min()), float(m.max())


def findings(table: pd.DataFrame, families: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per panel: the finding line, the efficiency interval where both POMIS+ cells are within tolerance
    (None when no point is), whether it was judged at the paper's scale, and the swept efficiency range."""
    out = {}
    for panel, fam in families.items():
        effs = [p["panel_efficiency"] for p in fam["points"]]
        swept = f"E from {effs[0]:.3g} to {effs[-1]:.3g}, {len(effs)} points"
        plus = table[(table.panel == panel) & (table.strategy == "POMIS+")]
        missing = [PAPER_Z2_SOLVERS[a] for a in PAPER_Z2_SOLVERS if a not in set(plus.algorithm)]
        paper_scale = (
            bool(len(plus)) and int(plus.horizon.min()) >= PAPER_HORIZON and int(plus.n_seeds.min()) >= JUDGED_SEEDS
        )
        interval = None
        if missing:
            text = f"not evaluated: {' and '.join(missing)} POMIS+ not run on the same-means points ({swept})"
        else:
            both = plus.groupby("point").within_tolerance.all()
            good = [int(cast(int, k)) for k, ok in both.items() if ok]
            if good:
                e = [fam["points"][k]["panel_efficiency"] for k in good]
                interval = [min(e), max(e)]  # the points within may not be contiguous: the count says how many
                text = (
                    f"reproduced on the same-means SCMs with efficiency E ∈ [{interval[0]:.3g}, {interval[1]:.3g}] "
                    f"({len(good)} of {len(effs)} points; {swept})"
                )
            else:
                text = f"no same-means SCM of the sweep reproduces both POMIS+ cells ({swept})"
            if not paper_scale:  # like with like: the paper's cells are at its horizon
                text = (
                    f"not judged at this scale (judged at T = {PAPER_HORIZON:,}, the paper's, with at least "
                    f"{JUDGED_SEEDS} seeds per point); at this run's scale, {text}"
                )
        flat = {a: pomis_flat(table, panel, a) for a in PAPER_Z2_SOLVERS}
        out[panel] = {
            "finding": text,
            "interval": interval,
            "paper_scale": paper_scale,
            "efficiencies": effs,
            "direction": fam["direction_note"],
            "pomis_equal_means_p": {a: f[0] for a, f in flat.items() if f is not None},
        }
    return out


BEYOND = (
    "designed for this replication, not in the paper: "
    "the sensitivity of POMIS+ to SCM parameters the arm means leave open"
)
SCALE = f"T = {PAPER_HORIZON:,} with at least {JUDGED_SEEDS} seeds per point"


def _panel_claim(algorithm: str, panel: str, value: float) -> Claim:
    """Whether any same-means SCM (the canonical arm means, another efficiency of the z² estimators) reproduces
    both POMIS+ cells of the panel."""

    def evaluate(results) -> Verdict:
        found = results.get("findings", {}).get(panel)
        if found is None:
            return Verdict(NOT_EVALUATED, fmt(value), "–", "the sweep did not run this panel")
        flat = "; ".join(
            f"POMIS {PAPER_Z2_SOLVERS[a]} flat over the points: p = {p:.2g}"
            for a, p in found["pomis_equal_means_p"].items()
        )
        note = (
            f"{BEYOND}; {found['direction']}; both cells within ±{TABLE1_REL_TOL:.0%} at once "
            f"(Table 1's tolerance)" + (f"; {flat} (Cochran's Q, equal means)" if flat else "")
        )
        return studies.finding_verdict(fmt(value), found, note, SCALE)

    return Claim(
        f"same-means-{algorithm}-{panel}",
        "Table 1",
        f"{PAPER_Z2_SOLVERS[algorithm]} POMIS+, {panel}: same-means SCMs that reproduce both POMIS+ cells",
        evaluate,
    )


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims: one per POMIS+ cell of Table 1 on the paper's configured panels, by its solvers."""
    return [_panel_claim(algorithm, panel, value) for algorithm, panel, value in pomis_plus_cells(paper["panels"])]


def _point_verdicts(table: pd.DataFrame, panel: str) -> dict[int, dict[str, dict[str, str]]]:
    """Table 1's rule (:func:`causal_bandits.studies.cell_rule.judge`) on each POMIS+ cell at each point of a panel,
    by point and solver."""
    plus = table[(table.panel == panel) & (table.strategy == "POMIS+")]
    return {
        int(cast(int, k)): {
            str(r.algorithm): cell_rule.judge(r, float(cast(float, r.paper_value))) for r in rows.itertuples()
        }
        for k, rows in plus.groupby("point")
    }


def _panel_record(table: pd.DataFrame, panel: str, f: Mapping[str, Any]) -> dict[str, str]:
    """A panel's finding record: *located* at a same-means point other than the canonical SCM (point 0) where the
    claims' rule reproduces both POMIS+ cells, *partly* where both cells are at least on their bands' edges there,
    *inconclusive* below the paper's scale, else *ruled out*."""
    if not f["paper_scale"]:
        return studies.finding(studies.INCONCLUSIVE, "not judged at the paper's scale", f["finding"])
    judged = _point_verdicts(table, panel)
    shown = {
        k: "; ".join(f"{PAPER_Z2_SOLVERS[a]} {v['ours']} ({v['status']})" for a, v in cells.items())
        for k, cells in judged.items()
    }
    main = shown[0]
    for k, cells in judged.items():
        setting = f"same-means point {k} (E = {f['efficiencies'][k]:.3g})"
        if k and all(v["status"] == REPRODUCED for v in cells.values()):
            others = f"the canonical SCM's: {main}; POMIS's arm means are the same at every point"
            evidence = studies.Located(setting, "the canonical SCM (point 0)", True, shown[k], others)
            return studies.finding(
                studies.LOCATED, "a same-means SCM reproduces both POMIS+ cells", f["finding"], evidence
            )
    edge = [k for k, cells in judged.items() if k and all(v["status"] != DIFFERS for v in cells.values())]
    if edge:
        text = f"same-means points {edge} put both POMIS+ cells on their bands' edges, not inside them"
        at = "; ".join(f"point {k}: {shown[k]}" for k in edge)
        return studies.finding(studies.PARTLY, text, f"{at}; canonical SCM: {main}; {f['finding']}")
    return studies.finding(
        studies.RULED_OUT, "no same-means SCM of the sweep reproduces both POMIS+ cells", f["finding"]
    )


def located(table: pd.DataFrame, found: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """The finding record of each paper claim of a POMIS+ cell, by the claim's id (:func:`_panel_record`: the cause
    located would be SCM parameters the arm means leave open)."""
    return {
        table1_id(algorithm, "POMIS+", panel): _panel_record(table, panel, f)
        for panel, f in found.items()
        for algorithm in PAPER_Z2_SOLVERS
        if (algorithm, "POMIS+", panel) in TABLE1
    }


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's table and one figure per panel of the paper's config section."""
    panels = list(paper["panels"])
    return [
        Artefact(
            "same_means",
            "Same-means SCMs: POMIS+ and POMIS regret against the efficiency of the z² estimators",
            (f"{OUT}/table.md", f"{OUT}/table.csv", *(f"{OUT}/{p}.{ext}" for p in panels for ext in ("png", "pdf"))),
            ids=(r"same-means-",),
        )
    ]


def _panel_lines(table: pd.DataFrame, panel: str, fam: Mapping[str, Any], found: Mapping[str, Any]) -> list[str]:
    """A panel's section: the direction swept, each point's efficiency and regrets (POMIS+ and POMIS with
    each solver), the paper's POMIS+ cells, the finding and whether POMIS stays flat over the points."""
    lines = [f"Direction: {fam['direction_note']}.", ""]
    algos = [a for a in PAPER_Z2_SOLVERS if a in set(table[table.panel == panel].algorithm)]
    head = "| point | E |" + "".join(f" {PAPER_Z2_SOLVERS[a]} POMIS+ | {PAPER_Z2_SOLVERS[a]} POMIS |" for a in algos)
    lines += [head, "|---" * (2 + 2 * len(algos)) + "|"]
    for p in fam["points"]:
        cells = []
        for a in algos:
            for s in ("POMIS+", "POMIS"):
                r = table[
                    (table.panel == panel)
                    & (table.point == p["point"])
                    & (table.algorithm == a)
                    & (table.strategy == s)
                ]
                if r.empty:
                    cells.append("–")
                    continue
                r = r.iloc[0]
                mark = " (within)" if r.within_tolerance else ""
                cells.append(f"{r.mean_cr_T:.2f} ± {r.ci95_halfwidth:.2f}{mark}")
        lines.append(f"| {p['point']} | {p['panel_efficiency']:.4g} | " + " | ".join(cells) + " |")
    paper = "; ".join(
        f"{PAPER_Z2_SOLVERS[a]} POMIS+ {TABLE1[(a, 'POMIS+', panel)]:.2f}"
        for a in PAPER_Z2_SOLVERS
        if (a, "POMIS+", panel) in TABLE1
    )
    lines += ["", f"Paper: {paper}." if paper else "Paper: no POMIS+ cell.", f"Finding: {found['finding']}."]
    for a in algos:
        flat = pomis_flat(table, panel, a)
        if flat:
            verdict = "flat" if flat[0] >= 0.05 else "NOT flat (equal means rejected at 5 %)"
            lines.append(
                f"POMIS {PAPER_Z2_SOLVERS[a]} over the points: {flat[1]:.2f} to {flat[2]:.2f}, {verdict} "
                f"(Cochran's Q, p = {flat[0]:.2g})."
            )
    return lines


def markdown(
    table: pd.DataFrame,
    families: Mapping[str, Mapping[str, Any]],
    found: Mapping[str, Mapping[str, Any]],
    titles: Mapping[str, str],
) -> str:
    """The sweep per panel: the direction swept, each point's efficiency and regrets, the finding."""
    lines = [
        "# POMIS+ on same-means SCMs (beyond the paper)",
        "",
        (
            "Every point has exactly the canonical SCM's arm means (so BF / MIS / POMIS play the same bandit) and "
            "another efficiency E of the z² estimators (point 0 is the canonical SCM): "
            "the mean over the POMIS arms with an expression of θ(1 − θ) / "
            "(n · Var) of the arm's estimators combined with minimum variance (delta method, n samples of each source "
            f"arm). Regret at T, ours ± 95 % CI half-width; within = within ±{TABLE1_REL_TOL:.0%} of the paper's cell "
            "(Table 1's tolerance)."
        ),
        "",
        "| panel | E swept | both POMIS+ cells (TS and KL-UCB) within tolerance at once |",
        "|---|---|---|",
    ]
    for panel, f in found.items():
        effs = f["efficiencies"]
        where = f"E ∈ [{f['interval'][0]:.4g}, {f['interval'][1]:.4g}]" if f["interval"] else f["finding"]
        lines.append(f"| {titles.get(panel, panel)} | {effs[0]:.4g} to {effs[-1]:.4g} ({len(effs)} points) | {where} |")
    for panel, fam in families.items():
        lines += ["", f"## {titles.get(panel, panel)}", "", *_panel_lines(table, panel, fam, found[panel])]
    return "\n".join(lines) + "\n"


def figure(table: pd.DataFrame, panel: str, title: str, path_pdf: PathLike, path_png: PathLike) -> None:
    """POMIS+ regret at T against the efficiency E (95 % CI), POMIS regret (flat by construction) and the
    paper's POMIS+ cell as a horizontal line with its tolerance band, per solver."""
    with paper_style():
        fig = new_figure((4.0, 3.0))
        ax = fig.subplots()
        for i, algorithm in enumerate(PAPER_Z2_SOLVERS):
            color = f"C{i}"
            for strategy, marker, style in (("POMIS+", "o", "-"), ("POMIS", "s", "--")):
                sel = table[(table.panel == panel) & (table.algorithm == algorithm) & (table.strategy == strategy)]
                if sel.empty:
                    continue
                sel = sel.sort_values("efficiency")
                ax.errorbar(
                    sel.efficiency,
                    sel.mean_cr_T,
                    yerr=sel.ci95_halfwidth,
                    color=color,
                    marker=marker,
                    markersize=3,
                    linestyle=style,
                    linewidth=0.9,
                    capsize=2,
                    label=f"{PAPER_Z2_SOLVERS[algorithm]} {strategy}",
                )
            paper = TABLE1.get((algorithm, "POMIS+", panel))
            if paper is not None:
                ax.axhline(
                    paper,
                    color=color,
                    linestyle=":",
                    linewidth=0.9,
                    label=f"paper, {PAPER_Z2_SOLVERS[algorithm]} POMIS+",
                )
                ax.axhspan(
                    paper * (1 - TABLE1_REL_TOL), paper * (1 + TABLE1_REL_TOL), color=color, alpha=0.08, linewidth=0
                )
        ax.set_xlabel("efficiency E of the z² estimators (same arm means)")
        ax.set_ylabel("cumulative regret at T")
        ax.set_title(f"{title}\nPOMIS+ on same-means SCMs (not in the paper)", fontsize=7)
        ax.legend(fontsize=5.5, frameon=False)
        save_figure(fig, path_pdf, path_png)


def report_step(job: Job) -> None:
    """Rule same_means_report: the same-means sweep's figures (:func:`figure`), table (:func:`sweep_table`) and
    claims."""
    out, p = job.output, job.params
    families = {Path(f).parent.name: store.read_json(f) for f in job.input.families}
    finals = read_finals(job.input, ("point", "panel", "strategy", "algorithm"), ["final_regret"])
    table = sweep_table(finals.astype({"point": int}), families, p.horizon)
    found = findings(table, families)
    store.write_atomic(out.table, partial(table.to_csv, index=False, float_format="%.6g"))
    store.write_atomic(out.md, partial(Path.write_text, data=markdown(table, families, found, p.titles)))
    for panel in families:
        pdf, png = (f for f in out.figures if Path(f).stem == panel)
        figure(table, panel, p.titles[panel], pdf, png)
    rows = [claim.check({"findings": found}) for claim in claims({"panels": p.titles})]
    scale = f"T = {p.horizon:,}, {p.section['n_seeds']} seeds per point"
    store.write_json(out.claims, studies.document("same_means", scale, rows, located(table, found)))
    for panel, f in found.items():
        log.info("%s: %s", panel, f["finding"])
