"""Lee & Bareinboim (AAAI-19), Table 1: mean cumulative regret at T, ours beside the paper's, with the
reduction row POMIS -> POMIS+ the paper prints in §5; and the POMIS+ expression catalogues as Markdown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from causal_bandits import algorithms, store
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.nonmanip.efficiency import efficiency_note

if TYPE_CHECKING:
    from causal_bandits.stages import Job

DISPLAY_ORDER = ("POMIS+", "POMIS", "MIS", "BF")  # Table 1 row order
#: Table 1 row label -> strategy key in run paths (POMIS+ is ``POMISplus`` in file names).
STRATEGY_KEYS = {"POMIS+": POMIS_PLUS, "POMIS": "POMIS", "MIS": "MIS", "BF": "BF"}

# Table 1 of the paper: average cumulative regret at T = 10,000 (1,000 simulations).
# Keys: (algorithm, strategy, panel); cells the paper leaves blank are absent.
TABLE1 = {
    ("ts", "POMIS+", "fig5a"): 29.08,
    ("ts", "POMIS", "fig5a"): 44.40,
    ("ts", "POMIS+", "fig5b"): 50.29,
    ("ts", "POMIS", "fig5b"): 93.53,
    ("ts", "BF", "fig5b"): 183.15,
    ("ts", "POMIS+", "fig5c"): 121.54,
    ("ts", "POMIS", "fig5c"): 161.54,
    ("ts", "MIS", "fig5c"): 212.24,
    ("ts", "BF", "fig5c"): 313.39,
    ("kl_ucb", "POMIS+", "fig5a"): 59.30,
    ("kl_ucb", "POMIS", "fig5a"): 97.52,
    ("kl_ucb", "POMIS+", "fig5b"): 74.93,
    ("kl_ucb", "POMIS", "fig5b"): 192.39,
    ("kl_ucb", "BF", "fig5b"): 328.68,
    ("kl_ucb", "POMIS+", "fig5c"): 247.05,
    ("kl_ucb", "POMIS", "fig5c"): 359.40,
    ("kl_ucb", "MIS", "fig5c"): 469.30,
    ("kl_ucb", "BF", "fig5c"): 657.11,
}
#: §5: "POMIS+ reduces CRs ... compared to POMIS", 100 (POMIS - POMIS+) / POMIS, in per cent.
REDUCTIONS = {
    ("ts", "fig5a"): 34.5,
    ("kl_ucb", "fig5a"): 39.2,
    ("ts", "fig5b"): 46.2,
    ("kl_ucb", "fig5b"): 61.0,
    ("ts", "fig5c"): 24.8,
    ("kl_ucb", "fig5c"): 31.3,
}


def ci95_halfwidth(x: np.ndarray) -> float:
    """Half-width 1.96 sd / sqrt(n) of the 95 % interval of a mean over seeds (NaN for one seed)."""
    return float(1.96 * x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else np.nan


def label(algorithm: str) -> str:
    """An algorithm's name in tables and legends, from the registry (additions marked as such)."""
    entry = algorithms.registry(PAPER).get(algorithm)
    return entry.display if entry else algorithm


#: The paper's own solvers that POMIS+ runs (those with a z² version), key -> label: the rows of the
#: studies that rerun POMIS+ (:mod:`causal_bandits.studies`).
PAPER_Z2_SOLVERS = {a: label(a) for a in algorithms.own(PAPER) if algorithms.registry(PAPER)[a].z2}


def table1_id(algorithm: str, strategy: str, panel: str) -> str:
    """The id of the claim on a Table 1 cell (strategy as the table prints it: ``POMIS+``)."""
    return f"table1-{algorithm}-{strategy}-{panel}"


def pomis_plus_cells(panels: Iterable[str]) -> list[tuple[str, str, float]]:
    """(algorithm, panel, paper value) of every POMIS+ cell of Table 1 on ``panels``, by the paper's z² solvers:
    what the studies that rerun POMIS+ judge, one claim per cell."""
    return [
        (algorithm, panel, value)
        for (algorithm, strategy, panel), value in TABLE1.items()
        if strategy == "POMIS+" and panel in set(panels) and algorithm in PAPER_Z2_SOLVERS
    ]


def table_algorithms(present: Iterable[str]) -> list[str]:
    """Table 1's solvers in registry order: the paper's own (always: the table lays out the paper's rows),
    then the additions among ``present`` (the algorithms that ran)."""
    present = set(present)
    return [a for a in algorithms.solvers(PAPER) if a in algorithms.own(PAPER) or a in present]


def ordered(keys: Iterable[str]) -> list[str]:
    """``keys`` (algorithms) without repeats, in registry order."""
    keys = set(keys)
    return [a for a in algorithms.solvers(PAPER) if a in keys]


def _display_order(algorithm: str) -> tuple[str, ...]:
    """Table 1's rows of a solver: POMIS+ only for one with a z² version."""
    z2 = algorithms.registry(PAPER)[algorithm].z2
    return DISPLAY_ORDER if z2 else tuple(s for s in DISPLAY_ORDER if s != "POMIS+")


def final_row(agg: pd.DataFrame, strategy: str, algorithm: str) -> pd.Series:
    sel = agg[(agg["strategy"] == strategy) & (agg["algorithm"] == algorithm)]
    return sel.loc[cast(Any, sel["round"].idxmax())]  # a row label (pandas-stubs: Hashable)


def table1(aggs: Mapping[str, pd.DataFrame], instances: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """Table 1 in long format: our mean cumulative regret at T beside the paper's value; POMIS+ rows also
    hold the reduction 100 (POMIS - POMIS+) / POMIS beside the paper's (``reduction_pct``)."""
    rows: list[dict[str, Any]] = []
    solvers = table_algorithms(a for agg in aggs.values() for a in agg["algorithm"].unique())
    for panel, agg in aggs.items():
        identical = instances[panel]["identical"]
        for algorithm in solvers:
            for strategy in _display_order(algorithm):
                key = STRATEGY_KEYS[strategy]
                have = ((agg["strategy"] == key) & (agg["algorithm"] == algorithm)).any()
                row = cast(pd.Series, final_row(agg, key, algorithm) if have else None)  # read only when have
                rows.append(
                    {
                        "algorithm": algorithm,
                        "strategy": strategy,
                        "panel": panel,
                        "horizon": int(row["round"]) if have else None,
                        "n_seeds": int(row["n_seeds"]) if have else None,
                        "mean_cr_T": float(row["mean_cum_regret"]) if have else np.nan,
                        "ci95_halfwidth": float(row["ci95_hi"] - row["mean_cum_regret"]) if have else np.nan,
                        # The paper shows MIS only where MIS != POMIS, BF only where BF != MIS.
                        "shown": key not in identical,
                        "paper_value": TABLE1.get((algorithm, strategy, panel), np.nan),
                        "reduction_pct": np.nan,
                        "paper_reduction_pct": REDUCTIONS.get((algorithm, panel), np.nan)
                        if strategy == "POMIS+"
                        else np.nan,
                    }
                )
            if _display_order(algorithm) == DISPLAY_ORDER:
                plus, base = rows[-len(DISPLAY_ORDER)], rows[-len(DISPLAY_ORDER) + 1]
                plus["reduction_pct"] = 100.0 * (base["mean_cr_T"] - plus["mean_cr_T"]) / base["mean_cr_T"]
    return pd.DataFrame(rows)


REFRESH_TEXT = {
    "adaptive": "adaptive bootstrap refresh (docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh [R]: every round "
    "while t ≤ {warmup}, then when an arm's "
    "active estimators change or the data they read grew by {growth:.0%})",
    "every_round": "bootstrap refreshed every round (the paper's Alg. 3)",
}


def pomis_plus_note(settings: Mapping[str, Any]) -> str:
    """Which z² settings produced the POMIS+ numbers (B, refresh schedule, n_min, trivial estimator, and the
    statistics of z²-KL-UCB's arms with no expression when they are not kl-UCB's)."""
    refresh = REFRESH_TEXT[settings["refresh"]].format(**settings)
    beta = (
        ", Beta(α+1, β+1) moments for z²-KL-UCB's arms with no expression"
        if settings.get("no_expression", "klucb") == "beta"
        else ""
    )
    return (
        f"POMIS+ = the POMIS arms with z²-TS / z²-KL-UCB: B = {settings['bootstrap']} bootstrap resamples, "
        f"{refresh}, n_min = {settings['n_min']} samples per source arm, {settings['trivial']} own-data estimator"
        f"{beta}."
    )


def table1_markdown(
    table: pd.DataFrame,
    titles: Mapping[str, str],
    pomis_plus: Mapping[str, Any] | None = None,
    catalogues: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """Table 1 laid out like the paper: rows (algorithm, strategy), a column per panel, and per solver the
    reduction POMIS -> POMIS+ in per cent; notes say which POMIS+ settings produced the numbers."""
    panels = list(dict.fromkeys(table["panel"]))
    head = "| | " + " | ".join(titles.get(p, p) for p in panels) + " |"
    lines = [
        "Average cumulative regret at T, ours ± 95 % CI half-width (paper's value in brackets).",
        "",
        head,
        "|---" * (len(panels) + 1) + "|",
    ]
    for algorithm in ordered(table["algorithm"]):
        for strategy in _display_order(algorithm):
            cells = []
            for p in panels:
                r = _cell(table, p, algorithm, strategy)
                ours = f"{r.mean_cr_T:.2f} ± {r.ci95_halfwidth:.2f}" if r.shown and not np.isnan(r.mean_cr_T) else "–"
                paper = f" [{r.paper_value:.2f}]" if not np.isnan(r.paper_value) else ""
                cells.append(ours + paper)
            lines.append(f"| {label(algorithm)} {strategy} | " + " | ".join(cells) + " |")
        if "POMIS+" not in _display_order(algorithm):  # a solver without a z² version (an addition): said, not hidden
            lines.append(
                f"| {label(algorithm)} POMIS+ | " + " | ".join(["not run: no z² version"] * len(panels)) + " |"
            )
            continue
        cells = []
        for p in panels:
            r = _cell(table, p, algorithm, "POMIS+")
            ours = f"{r.reduction_pct:.1f} %" if not np.isnan(r.reduction_pct) else "–"
            paper = f" [{r.paper_reduction_pct:.1f} %]" if not np.isnan(r.paper_reduction_pct) else ""
            cells.append(ours + paper)
        lines.append(f"| {label(algorithm)} reduction POMIS → POMIS+ | " + " | ".join(cells) + " |")
    lines.append("")
    if table[table.strategy == "POMIS+"]["mean_cr_T"].isna().all():
        lines.append(
            "POMIS+ was not run (add POMISplus to nonmanip.strategies); its cells show the paper's values only."
        )
    elif pomis_plus is not None:
        lines.append(pomis_plus_note(pomis_plus))
    for p, doc in (catalogues or {}).items():
        if not doc["n_expressions"]:
            lines.append(f"{titles.get(p, p)}: z²ID finds no expression, so POMIS+ plays exactly POMIS.")
    return "\n".join(lines) + "\n"


def _cell(table: pd.DataFrame, panel: str, algorithm: str, strategy: str):
    return table[(table.panel == panel) & (table.algorithm == algorithm) & (table.strategy == strategy)].iloc[0]


def catalogue_markdown(catalogues: Mapping[str, Mapping[str, Any]]) -> str:
    """Every panel's POMIS+ catalogue: per expression its target, formula, sources, free indices and error."""
    lines = ["# POMIS+ expression catalogues (computed by z²ID, AAAI-19 Alg. 1 and Alg. 3 lines 2-4)", ""]
    for doc in catalogues.values():
        arms = sum(doc["n_arm_instances"])
        lines += [
            f"## {doc['title']}",
            "",
            f"Expressions: {doc['n_expressions']}; estimator instances: {doc['n_instances']} per arm set, "
            f"{arms} over the {len(doc['arms'])} POMIS arms; largest error against the exact SCM "
            f"{doc['max_error']:.1e} (tolerance {doc['tolerance']:.0e}).",
            "",
        ]
        if not doc["entries"]:
            lines += [doc["note"] + ".", ""]
            continue
        lines += ["| # | expression | sources | free indices |", "|---|---|---|---|"]
        for i, e in enumerate(doc["entries"], 1):
            sources = ", ".join("{" + ",".join(s) + "}" if s else "∅" for s in e["sources"])
            free = ", ".join(e["free_indices"]) or "–"
            expr = e["expr"].replace("|", "\\|")  # P(y|x) is text, not a cell boundary
            lines.append(f"| {i} | {expr} | {sources} | {free} |")
        lines.append("")
    return "\n".join(lines)


def table1_step(job: Job) -> None:
    """Rule nonmanip_table1: Table 1 (:func:`table1`) as CSV (long; algorithms by label) and Markdown (the paper's
    layout, :func:`table1_markdown`, with the panels' estimator efficiency)."""
    inp = job.input
    instances = {Path(p).stem: store.read_json(p) for p in inp.instances}
    aggs = {Path(p).stem: store.read_table(p).to_pandas() for p in inp.agg}
    catalogues = {Path(p).stem: store.read_json(p) for p in inp.catalogues}
    table = table1(aggs, instances)
    shown = algorithms.shown(PAPER, table)
    store.write_atomic(job.output.csv, partial(shown.to_csv, index=False, float_format="%.6g"))
    titles = {k: v["title"] for k, v in instances.items()}
    md = table1_markdown(table, titles, job.params.pomis_plus, catalogues)
    documents = {Path(p).stem: store.read_json(p) for p in inp.efficiency}
    md += efficiency_note(documents, titles)
    store.write_atomic(job.output.md, partial(Path.write_text, data=md))


def catalogue_listing_step(job: Job) -> None:
    """Rule nonmanip_catalogue_listing: every panel's POMIS+ catalogue as Markdown for the reader
    (:func:`catalogue_markdown`)."""
    docs = {Path(p).stem: store.read_json(p) for p in job.input.catalogues}
    store.write_atomic(job.output[0], partial(Path.write_text, data=catalogue_markdown(docs)))
