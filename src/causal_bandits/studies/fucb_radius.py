"""Study ``fucb_radius``: which confidence-radius scales give Table 1's trend over τ (Email, F-UCB regret decreasing).

F-UCB (Huang, Zhang & Wu, AAAI-22, Algorithm 2) has two radii whose constants the paper leaves open in its
experiments: the reward radius of Eq. 6 (scale ``alpha_r``; Theorem 3 uses 2 / τ) and the fairness radius of
Eq. 12 (scale ``alpha_c``). With δ_t = 1/t² the Eq. 12 radius can exceed every τ of Table 1, so no arm is ever
certified fair, F-UCB plays its fallback in every round and its regret does not depend on τ. This study runs
F-UCB on the Email instance over a grid of (alpha_r, alpha_c) and reports, per point, the regret at each τ and
whether it decreases with τ by the criterion of the claim ``table1-fucb-regret-decreasing`` (every step down by
more than one standard error of the difference).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from causal_bandits import artefacts as artefact
from causal_bandits import runs, store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.artefacts import Artefact
from causal_bandits.claims import NOT_SPECIFIED, Claim, Verdict
from causal_bandits.papers.fairness import runs as fairness_runs
from causal_bandits.papers.fairness.claims import TABLE1
from causal_bandits.papers.fairness.runs import algorithm_tau, fucb_name
from causal_bandits.studies import Study

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

STUDY = Study(
    name="fucb_radius",
    paper="fairness",
    title="F-UCB radius scales: which give Table 1's decreasing regret over τ",
    question="Under which scales of F-UCB's reward (Eq. 6) and fairness (Eq. 12) radii does its regret on Email "
    "decrease with τ as in Table 1?",
    varies="the radius scales alpha_r and alpha_c of F-UCB on Email, at every τ of Table 1",
    docs="papers/fairness.md#fairness-radius-study",
    locates=(r"table1-fucb-regret-decreasing$",),
    run_key="{point}/{algorithm}",
)
OUT = "figures/studies/fucb_radius"


def check_config(section: Mapping[str, Any], paper: Mapping[str, Any]) -> None:
    """Nothing beyond the schema: the grid's lists are non-empty there, and the study runs the paper's τ."""


def points(section: Mapping[str, Any]) -> list[tuple[Any, float]]:
    """The grid's (alpha_r, alpha_c) points, in config order."""
    return [(r, float(c)) for r in section["alpha_r"] for c in section["alpha_c"]]


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's table."""
    return [
        artefact.table(
            "fucb_radius",
            "F-UCB radius scales: regret on Email over τ against the scales of Eqs. 6 and 12",
            f"{OUT}/table",
            ids=[r"fucb-radius"],
        )
    ]


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study: F-UCB at each τ of the fairness section on Email, for each point
    of the grid (``p<k>``, the k-th of :func:`points`), each chunk."""
    section = config["studies"]["fucb_radius"]
    for k in range(len(points(section))):
        for tau in config["fairness"]["taus"]:
            where = {"point": f"p{k}", "experiment": "email", "strategy": fairness_runs.STRATEGY}
            yield from studies.chunk_jobs(section, **where, algorithm=fucb_name(tau))


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``fucb_radius_run``): the paper's F-UCB run at one τ (:func:`causal_bandits.papers.fairness.
    runs.describe`) with the point's radius scales, at the study's horizon and seeds."""
    section = config["studies"]["fucb_radius"]
    alpha_r, alpha_c = points(section)[int(wildcards["point"].removeprefix("p"))]
    fucb = {**config["fairness"]["fucb"], "alpha_r": alpha_r, "alpha_c": alpha_c}
    science = fairness_runs.science(config, horizon=section["horizon"], fucb=fucb)
    return fairness_runs.run_job(wildcards, studies.chunks(section), science)


def finals(found: pd.DataFrame, section: Mapping[str, Any]) -> pd.DataFrame:
    """The per-seed results of the study's runs (:func:`causal_bandits.aggregate.read_finals` by ``point`` and
    ``algorithm``), one row per (point, τ, seed) with the point's radius scales."""
    scales = points(section)
    alpha = [scales[int(p.removeprefix("p"))] for p in found["point"]]
    return pd.DataFrame(
        {
            "alpha_r": [str(r) for r, _ in alpha],
            "alpha_c": [float(c) for _, c in alpha],
            "tau": [algorithm_tau(a) for a in found["algorithm"]],
            "seed": found["seed"].astype(int),
            "final_regret": found["final_regret"].astype(float),
            "uncertified": found["uncertified"].astype(float),
        }
    )


def table(runs: pd.DataFrame, paper: Mapping[float, float]) -> pd.DataFrame:
    """Per (alpha_r, alpha_c): the mean regret (± s.e.) at each τ, the mean uncertified rounds, and whether the
    regret decreases at every step by more than one standard error of the difference (the paper's trend)."""
    rows = []
    for (alpha_r, alpha_c), sub in runs.groupby(["alpha_r", "alpha_c"], sort=False):
        stats = sub.groupby("tau")["final_regret"].agg(["mean", "std", "count"]).sort_index()
        se = stats["std"] / np.sqrt(stats["count"])
        falls = [(a - b) > np.hypot(sa, sb) for a, b, sa, sb in zip(stats["mean"], stats["mean"][1:], se, se[1:])]
        row = {"alpha_r": alpha_r, "alpha_c": alpha_c}
        for tau, m, s in zip(stats.index, stats["mean"], se):
            row[f"regret_tau{tau:g}"] = f"{m:.1f} ± {s:.1f}"
        row["uncertified_rounds"] = float(sub["uncertified"].mean())
        row["decreasing"] = bool(len(falls) > 0 and all(falls))
        row["within_30pct_of_paper"] = int(
            sum(abs(m - paper[t]) <= 0.3 * paper[t] for t, m in zip(stats.index, stats["mean"]) if t in paper)
        )
        rows.append(row)
    return pd.DataFrame(rows)


def finding(tab: pd.DataFrame) -> str:
    """One sentence: the radius scales of the grid that give the paper's decreasing trend, or that none does."""
    grid = f"{len(tab)} (alpha_r, alpha_c) points"
    good = tab[tab["decreasing"]]
    if good.empty:
        return f"no point of the grid ({grid}) gives a regret that decreases in τ at every step"
    names = ", ".join(f"(alpha_r={r.alpha_r}, alpha_c={r.alpha_c:g})" for r in good.itertuples())
    return f"the paper's decreasing trend over τ holds at {len(good)} of {grid}: {names}"


def main_scales(fairness: Mapping[str, Any]) -> tuple[str, float]:
    """The main run's (alpha_r, alpha_c), from the fairness section, as the table writes them."""
    return str(fairness["fucb"]["alpha_r"]), float(fairness["fucb"]["alpha_c"])


def _name(alpha_r: Any, alpha_c: Any) -> str:
    return f"(alpha_r={alpha_r}, alpha_c={float(alpha_c):g})"


def finding_record(tab: pd.DataFrame, main: tuple[str, float]) -> dict[str, str]:
    """The finding record about table1-fucb-regret-decreasing: *located* at a grid point other than the main run's
    ``main`` scales where the regret decreases at every step and every τ's regret is within the paper's tolerance
    (the other claims: Table 1's regret cells), *partly* where only the trend holds (the radius constants give the
    trend but not the paper's regrets), else *ruled out*."""
    taus = [c for c in tab.columns if c.startswith("regret_tau")]
    at_main = (tab["alpha_r"].astype(str) == main[0]) & (tab["alpha_c"].astype(float) == main[1])
    trend = tab[tab["decreasing"].astype(bool) & ~at_main]
    cells = "; ".join(
        f"{_name(r.alpha_r, r.alpha_c)}: {r.within_30pct_of_paper} of {len(taus)} regrets within 30% of the paper's"
        for r in trend.itertuples()
    )
    both = trend[trend["within_30pct_of_paper"] == len(taus)]
    if not both.empty:
        r = both.iloc[0]
        others = f"all {len(taus)} regret cells within 30% of the paper's"
        ours = ", ".join(f"τ = {c.removeprefix('regret_tau')}: {r[c]}" for c in taus) + " (decreasing)"
        evidence = studies.Located(_name(r.alpha_r, r.alpha_c), _name(*main), True, ours, others)
        return studies.finding(
            studies.LOCATED, "radius scales the paper leaves open give its trend and regrets", finding(tab), evidence
        )
    if not trend.empty:
        text = "the radius scales give the decreasing trend, but at none of those points the paper's regrets"
        return studies.finding(studies.PARTLY, text, f"{finding(tab)}; {cells}")
    return studies.finding(studies.RULED_OUT, "no radius scale other than the main run's gives the trend", finding(tab))


def markdown(tab: pd.DataFrame, scale: str) -> str:
    """The table as Markdown with its scale and the finding."""
    return (
        f"# Email: F-UCB regret over τ against the radius scales (designed for this replication; {scale})\n\n"
        + tab.to_markdown(index=False)
        + f"\n\nFinding: {finding(tab)}.\n"
    )


def _trend_claim() -> Claim:
    """Which radius scales of F-UCB give Table 1's decreasing trend over τ."""

    def evaluate(results) -> Verdict:
        return Verdict(
            NOT_SPECIFIED,
            "decreasing",
            results.get("finding", "–"),
            "designed for this replication, not in the paper: F-UCB on Email over a grid of the reward (alpha_r, "
            "Eq. 6) and fairness (alpha_c, Eq. 12) radius scales, the paper's constants being open; the criterion of "
            f"the paper claim table1-fucb-regret-decreasing; {results.get('scale', 'not run')}",
        )

    return Claim(
        "fucb-radius-decreasing",
        "§4.1 (Table 1)",
        "Email: radius scales under which F-UCB's regret decreases in τ",
        evaluate,
    )


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims."""
    return [_trend_claim()]


def report_step(job: Job) -> None:
    """Rule fucb_radius_report: the F-UCB radius study's table (:func:`table`; CSV, Markdown) and its claims."""
    out, p = job.output, job.params
    found = read_finals(job.input, ("point", "algorithm"), ("seed", "final_regret", "uncertified"))
    tab = table(finals(found, p.section), {t: v[0] for t, v in TABLE1.items()})
    result = finding(tab)
    store.write_atomic(out.csv, partial(tab.to_csv, index=False))
    store.write_atomic(out.md, partial(Path.write_text, data=markdown(tab, p.scale)))
    rows = [c.check({"finding": result, "scale": p.scale}) for c in claims({})]
    located = {"table1-fucb-regret-decreasing": finding_record(tab, p.main)}
    store.write_json(out.claims, studies.document("fucb_radius", p.scale, rows, located))
    log.info("%s", result)
