"""Study ``refresh``: does the bootstrap refresh schedule change POMIS+'s regret?

Our POMIS+ runs refresh each arm's bootstrap covariance on an adaptive schedule
(docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh [R]) where the paper's Alg. 3 refreshes every
round. This study reruns POMIS+ on the first ``n_seeds`` seeds of every Figure 5 panel under the other
schedule, with each named solver's z² version, and pairs each seed with the same seed of the paper's
main POMIS+ run: random streams are keyed by (paper, panel, seed, purpose), never by the study, so
both runs of a seed see the same environment noise and the paired difference isolates the schedule.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from pathlib import Path
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from causal_bandits import algorithms, runs, store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.artefacts import Artefact, table
from causal_bandits.claims import NOT_EVALUATED, Claim, Verdict, holds
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.papers.nonmanip.claims import PAPER_HORIZON
from causal_bandits.papers.nonmanip.tables import ci95_halfwidth, label, ordered, table1_id
from causal_bandits.studies import Study

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

STUDY = Study(
    name="refresh",
    paper=PAPER,
    title="Refresh spot check: POMIS+ under the paper's every-round bootstrap",
    question="Does the adaptive bootstrap refresh [R] change POMIS+'s regret at T against the paper's "
    "every-round refresh (Alg. 3)?",
    varies="the bootstrap refresh schedule of the z² solvers, on the main run's first seeds",
    docs="papers/nonmanip.md#nonmanip-numbers-spot-check",
    locates=(r"table1-[a-z0-9_]+-POMIS\+-",),
    run_key="{experiment}/{algorithm}",
)
OUT = "figures/studies/refresh"
#: Seeds from which the study is judged (its default size, docs/studies.md).
JUDGED_SEEDS = studies.default("refresh", "n_seeds")


def check_config(section: Mapping[str, Any], paper: Mapping[str, Any]) -> None:
    """The schedule must differ from the main run's, the seeds be the main run's, POMIS+ run in the paper."""
    if POMIS_PLUS not in paper["strategies"]:
        raise ConfigError("studies.refresh reruns POMIS+, which nonmanip.strategies leaves out; add POMISplus to it")
    if section["schedule"] == paper["pomis_plus"]["refresh"]:
        raise ConfigError(
            f"studies.refresh.schedule = {section['schedule']!r} is the main run's own schedule "
            "(nonmanip.pomis_plus.refresh); set the other one"
        )
    if section["n_seeds"] > paper["n_seeds"]:
        raise ConfigError(
            f"studies.refresh.n_seeds = {section['n_seeds']} exceeds nonmanip.n_seeds = {paper['n_seeds']}: "
            "the study reruns the main run's first seeds; lower it"
        )
    check_solvers("refresh", section["algorithms"], paper)


def check_solvers(name: str, solvers: list[str], paper: Mapping[str, Any]) -> None:
    """Every solver a POMIS+ study names must have a z² version and run POMIS+ in the paper (its pair)."""
    registry = algorithms.registry(PAPER)
    for solver in solvers:
        if solver not in registry or not registry[solver].z2:
            with_z2 = [a for a in algorithms.solvers(PAPER) if registry[a].z2]
            raise ConfigError(
                f"studies.{name}.algorithms names {solver!r}, which has no z² version to play POMIS+; "
                f"use solvers from {with_z2}"
            )
        if solver not in paper["algorithms"]:
            raise ConfigError(
                f"studies.{name}.algorithms names {solver!r}, which nonmanip.algorithms does not run: the study "
                "pairs with the paper's POMIS+ run; add it there or drop it here"
            )


def changes(section: Mapping[str, Any]) -> dict[str, Any]:
    """The z² settings the study changes in the main POMIS+ run's."""
    return {"refresh": section["schedule"]}


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job of the study: each panel and solver, each chunk."""
    section = config["studies"]["refresh"]
    for panel in config["nonmanip"]["panels"]:
        for algorithm in section["algorithms"]:
            point = {"point": section["schedule"], "experiment": panel}
            yield from studies.chunk_jobs(section, **point, strategy=POMIS_PLUS, algorithm=algorithm)


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``refresh_run``): POMIS+ on a panel under the study's refresh schedule, the main run's
    settings otherwise (:func:`causal_bandits.papers.nonmanip.runs.panel_science`)."""
    section = config["studies"]["refresh"]
    science = nonmanip_runs.panel_science(config, wildcards["experiment"])
    return nonmanip_runs.solver_job(config, wildcards, studies.chunks(section), science, changes=changes(section))


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's table: the main run and the study's beside it on the same seeds, and their paired difference."""
    return [
        table(
            "refresh",
            "Refresh spot check: POMIS+ regret at T under both bootstrap refresh schedules, paired by seed",
            f"{OUT}/table",
            ids=[r"refresh-"],
        )
    ]


def paired_table(finals: pd.DataFrame, section: Mapping[str, Any], main_refresh: str, horizon: int) -> pd.DataFrame:
    """One row per (panel, algorithm): the study's mean regret at T, the main POMIS+ run's on the same seeds and
    the paired difference main - study with its 95 % interval (seed s of both runs sees the same noise).

    ``finals``: per-seed ``final_regret`` with columns panel, algorithm, seed and ``run`` ("main" or "study").
    """
    seeds = np.arange(section["n_seeds"])
    rows = []
    for (panel, algorithm), group in finals.groupby(["panel", "algorithm"], sort=False):
        by_run = {r: g.set_index("seed")["final_regret"] for r, g in group.groupby("run")}
        complete = "study" in by_run and sorted(by_run["study"].index) == list(seeds)
        if not (complete and "main" in by_run and set(seeds) <= set(by_run["main"].index)):
            raise ValueError(f"{panel}/{algorithm}: the study needs seeds 0..{seeds.size - 1} of both runs")
        main, check = by_run["main"].loc[seeds].to_numpy(), by_run["study"].loc[seeds].to_numpy()
        rows.append(
            {
                "panel": panel,
                "algorithm": algorithm,
                "horizon": horizon,
                "n_seeds": seeds.size,
                "refresh": section["schedule"],
                "mean_cr_T": check.mean(),
                "ci95_halfwidth": ci95_halfwidth(check),
                "main_refresh": main_refresh,
                "main_mean_cr_T": main.mean(),
                "main_ci95_halfwidth": ci95_halfwidth(main),
                "paired_difference": (main - check).mean(),
                "paired_ci95_halfwidth": ci95_halfwidth(main - check),
            }
        )
    return pd.DataFrame(rows)


def markdown(paired: pd.DataFrame, titles: Mapping[str, str]) -> str:
    """The study's table for the reader: both runs on the same seeds, and the paired difference."""
    panels = list(dict.fromkeys(paired["panel"]))
    first = paired.iloc[0]
    main, check, n = first.main_refresh, first.refresh, int(first.n_seeds)
    lines = [
        f"POMIS+ with the {main} bootstrap refresh (the paper's main run) and with the {check} refresh (this study) "
        f"on seeds 0–{n - 1} of each panel, T = {int(first.horizon):,} (every_round: the paper's Alg. 3, a bootstrap "
        f"every round; adaptive: docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh [R]). Both runs of a seed see "
        f"the same environment noise, so the difference {main} − {check} is taken seed by seed: mean ± 95 % "
        f"half-width; an interval that excludes 0 means the schedule changes POMIS+'s regret beyond noise.",
        "",
        "| | " + " | ".join(titles.get(p, p) for p in panels) + " |",
        "|---" * (len(panels) + 1) + "|",
    ]
    for algorithm in ordered(paired.algorithm):
        rows = {r.panel: r for r in paired[paired.algorithm == algorithm].itertuples()}
        for text, mean, half in (
            (f"POMIS+ {main}, seeds 0–{n - 1}", "main_mean_cr_T", "main_ci95_halfwidth"),
            (f"POMIS+ {check}", "mean_cr_T", "ci95_halfwidth"),
            (f"difference {main} − {check}", "paired_difference", "paired_ci95_halfwidth"),
        ):
            signed = "+.2f" if mean == "paired_difference" else ".2f"
            cells = [
                f"{getattr(rows[p], mean):{signed}} ± {getattr(rows[p], half):.2f}" if p in rows else "–"
                for p in panels
            ]
            lines.append(f"| {label(algorithm)} {text} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _rows(frame: pd.DataFrame) -> Iterable[Any]:
    """The rows of a table of this study as named tuples (pandas-stubs types their fields too widely)."""
    return cast(Iterable[Any], frame.itertuples())


def _beyond_noise(rows: pd.DataFrame) -> tuple[float, list[str]]:
    """The family-wise 95 % z (Bonferroni over the cells) and the cells whose paired interval excludes 0."""
    z = NormalDist().inv_cdf(1 - 0.025 / len(rows))
    beyond = [
        f"{r.panel} {label(r.algorithm)}"
        for r in _rows(rows)
        if abs(r.paired_difference) > z * r.paired_ci95_halfwidth / 1.96
    ]
    return z, beyond


def _schedule_claim() -> Claim:
    """Whether the refresh schedule changes POMIS+'s regret: the paired differences, judged at family-wise 95 %
    over the cells (Bonferroni: each at 1 - 0.05 / k, from the 95 % half-width's standard error), fixed before the
    run."""
    paper = "every-round bootstrap (Alg. 3)"

    def evaluate(results) -> Verdict:
        rows = results["paired"]
        rows = rows[rows.algorithm.isin(algorithms.own(PAPER))]
        if rows.empty:
            return Verdict(NOT_EVALUATED, paper, "–", "the study ran none of the paper's solvers")
        z, beyond = _beyond_noise(rows)
        ours = "; ".join(
            f"{r.panel} {label(r.algorithm)}: {r.main_refresh} {r.main_mean_cr_T:.1f} vs "
            f"{r.refresh} {r.mean_cr_T:.1f}, difference {r.paired_difference:+.1f} ± {r.paired_ci95_halfwidth:.1f}"
            for r in _rows(rows)
        )
        n, horizon, main = int(rows.n_seeds.min()), int(rows.horizon.min()), rows.iloc[0].main_refresh
        note = (
            f"the paper's POMIS+ rows use the {main} refresh; differences paired over seeds 0–{n - 1} (the same "
            f"environment noise), ± 95 % half-width; beyond noise = the interval at family-wise 95 % (Bonferroni "
            f"over {len(rows)} cells, ± {z:.2f} standard errors) excludes 0"
        )
        if horizon < PAPER_HORIZON or n < JUDGED_SEEDS:
            scale = f"this run has T = {horizon} and {n} seeds, judged at T = {PAPER_HORIZON:,} with {JUDGED_SEEDS}"
            return Verdict(NOT_EVALUATED, paper, ours, f"{scale} (smaller runs lack the power); {note}")
        note += f"; beyond noise in {', '.join(beyond)}" if beyond else "; no cell beyond noise"
        return holds(not beyond, paper, ours, note)

    return Claim(
        "refresh-schedule",
        "Table 1",
        "POMIS+'s regret at T is the same, within noise, under the adaptive bootstrap refresh [R] as under "
        "the paper's every-round bootstrap (paired on the same seeds)",
        evaluate,
    )


def findings(paired: pd.DataFrame) -> dict[str, dict[str, str]]:
    """The finding record (:func:`causal_bandits.studies.finding`) of each paper claim of a POMIS+ cell this study
    ran, by the claim's id: the refresh schedule is *ruled out* as the cell's cause when the paired difference main −
    study is within its 95 % interval of 0, *partly* the cause when beyond it, *inconclusive* below the judged
    scale."""
    out = {}
    for r in _rows(paired):
        numbers = (
            f"{r.main_refresh} − {r.refresh} on seeds 0–{int(r.n_seeds) - 1}: "
            f"{r.paired_difference:+.1f} ± {r.paired_ci95_halfwidth:.1f} (paired)"
        )
        if int(r.horizon) < PAPER_HORIZON or int(r.n_seeds) < JUDGED_SEEDS:
            outcome, sentence = (
                studies.INCONCLUSIVE,
                f"not judged below T = {PAPER_HORIZON:,} with {JUDGED_SEEDS} seeds",
            )
        elif abs(r.paired_difference) <= r.paired_ci95_halfwidth:
            outcome, sentence = studies.RULED_OUT, "the refresh schedule does not move this cell beyond noise"
        else:
            outcome, sentence = studies.PARTLY, "the refresh schedule moves this cell beyond noise"
        out[table1_id(r.algorithm, "POMIS+", r.panel)] = studies.finding(outcome, sentence, numbers)
    return out


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims (its question answered on its results); ``paper``: the paper's config section."""
    return [_schedule_claim()]


def report_step(job: Job) -> None:
    """Rule refresh_report: the refresh study's paired table (:func:`paired_table`) and its claims."""
    out, p = job.output, job.params
    finals = read_finals(job.input, ("run", "panel", "algorithm"))
    paired = paired_table(finals, p.section, p.main_refresh, p.horizon)
    shown = algorithms.shown(PAPER, paired)
    store.write_atomic(out.csv, partial(shown.to_csv, index=False, float_format="%.6g"))
    store.write_atomic(out.md, partial(Path.write_text, data=markdown(paired, p.titles)))
    rows = [claim.check({"paired": paired}) for claim in claims({})]
    scale = f"T = {p.horizon:,}, seeds 0–{p.section['n_seeds'] - 1} of the main run"
    store.write_json(out.claims, studies.document("refresh", scale, rows, findings(paired)))
    log.info("%d claims, %d findings", len(rows), len(paired))
