"""Lee & Bareinboim (AAAI-19), Table 1: mean cumulative regret at T, ours beside the paper's, with the
reduction row POMIS -> POMIS+ the paper prints in §5 and, under it, the refresh spot check (POMIS+
under the other bootstrap refresh schedule, paired on the same seeds); and the POMIS+ expression
catalogues as Markdown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

import numpy as np
import pandas as pd

from causal_bandits import algorithms
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS, spot_check_strategy
from causal_bandits.papers.nonmanip import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it

DISPLAY_ORDER = ("POMIS+", "POMIS", "MIS", "BF")  # Table 1 row order
#: Table 1 row label -> strategy key in run paths (POMIS+ is ``POMISplus`` in file names).
STRATEGY_KEYS = {"POMIS+": POMIS_PLUS, "POMIS": "POMIS", "MIS": "MIS", "BF": "BF"}
#: ``strategy`` of the refresh spot check's rows in the Table 1 CSV (one per panel and solver).
SPOT_CHECK = "POMIS+ spot check"

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
#: same-means sensitivity study (:mod:`causal_bandits.papers.nonmanip.sensitivity_outputs`).
PAPER_Z2_SOLVERS = {a: label(a) for a in algorithms.own(PAPER) if algorithms.registry(PAPER)[a].z2}


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


def spot_check(finals: pd.DataFrame, settings: Mapping[str, Any], horizon: int) -> pd.DataFrame:
    """The refresh spot check's rows of Table 1, one per (panel, algorithm): POMIS+ rerun with the spot
    check's refresh schedule on seeds 0..n-1 (``settings``: the config's ``pomis_plus``, whose
    ``spot_check`` gives the schedule and n), beside the main POMIS+ run on the same seeds, and the
    paired difference main - spot check of their regret at T over those seeds with its 95 % interval
    (seed s of both runs sees the same environment noise, so pairing removes it).

    ``finals``: one row per (panel, strategy, algorithm, seed) with ``final_regret``, for strategies
    ``POMISplus`` (any seeds; those beyond n are left out) and the spot check's key.
    """
    spot, n = settings["spot_check"]["refresh"], settings["spot_check"]["n_seeds"]
    key, seeds = spot_check_strategy(spot), np.arange(n)
    rows = []
    for (panel, algorithm), group in finals.groupby(["panel", "algorithm"], sort=False):
        runs = {s: g.set_index("seed")["final_regret"] for s, g in group.groupby("strategy")}
        complete = key in runs and sorted(runs[key].index) == list(seeds)
        if not (complete and POMIS_PLUS in runs and set(seeds) <= set(runs[POMIS_PLUS].index)):
            raise ValueError(
                f"{panel}/{algorithm}: the spot check needs seeds 0..{n - 1} of both {POMIS_PLUS} and {key}"
            )
        main, check = runs[POMIS_PLUS].loc[seeds].to_numpy(), runs[key].loc[seeds].to_numpy()
        rows.append(
            {
                "algorithm": algorithm,
                "strategy": SPOT_CHECK,
                "panel": panel,
                "horizon": horizon,
                "n_seeds": n,
                "mean_cr_T": check.mean(),
                "ci95_halfwidth": ci95_halfwidth(check),
                "shown": True,
                "refresh": spot,
                "main_refresh": settings["refresh"],
                "main_mean_cr_T": main.mean(),
                "main_ci95_halfwidth": ci95_halfwidth(main),
                "paired_difference": (main - check).mean(),
                "paired_ci95_halfwidth": ci95_halfwidth(main - check),
            }
        )
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
    for algorithm in ordered(table.loc[table.strategy != SPOT_CHECK, "algorithm"]):
        for strategy in _display_order(algorithm):
            cells = []
            for p in panels:
                r = _cell(table, p, algorithm, strategy)
                ours = f"{r.mean_cr_T:.2f} ± {r.ci95_halfwidth:.2f}" if r.shown and not np.isnan(r.mean_cr_T) else "–"
                paper = f" [{r.paper_value:.2f}]" if not np.isnan(r.paper_value) else ""
                cells.append(ours + paper)
            lines.append(f"| {label(algorithm)} {strategy} | " + " | ".join(cells) + " |")
        if "POMIS+" not in _display_order(algorithm):
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
    spot = table[table.strategy == SPOT_CHECK] if "paired_difference" in table else table.iloc[:0]
    if not spot.empty:
        lines += ["", *spot_check_markdown(spot, titles, panels)]
    return "\n".join(lines) + "\n"


def spot_check_markdown(spot: pd.DataFrame, titles: Mapping[str, str], panels: list[str]) -> list[str]:
    """The spot check's small table under Table 1: main POMIS+ and spot check on the same seeds, and the
    paired difference."""
    first = spot.iloc[0]
    main, check, n = first.main_refresh, first.refresh, int(first.n_seeds)
    lines = [
        f"Refresh spot check: the POMIS+ rows above use the {main} bootstrap refresh; the spot check reruns "
        f"POMIS+ with the {check} refresh on seeds 0–{n - 1} of each panel (every_round: the paper's Alg. 3, "
        f"a bootstrap every round; adaptive: docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh [R]). Both runs "
        f"of a seed see the same environment "
        f"noise, so the difference {main} − {check} is taken seed by seed: mean ± 95 % half-width; an "
        f"interval that excludes 0 means the schedule changes POMIS+'s regret beyond noise.",
        "",
        "| | " + " | ".join(titles.get(p, p) for p in panels) + " |",
        "|---" * (len(panels) + 1) + "|",
    ]
    for algorithm in ordered(spot.algorithm):
        rows = {r.panel: r for r in spot[spot.algorithm == algorithm].itertuples()}
        for text, mean, half in (
            (f"POMIS+ {main}, seeds 0–{n - 1}", "main_mean_cr_T", "main_ci95_halfwidth"),
            (f"POMIS+ {check} (spot check)", "mean_cr_T", "ci95_halfwidth"),
            (f"difference {main} − {check}", "paired_difference", "paired_ci95_halfwidth"),
        ):
            signed = "+.2f" if mean == "paired_difference" else ".2f"
            cells = [
                f"{getattr(rows[p], mean):{signed}} ± {getattr(rows[p], half):.2f}" if p in rows else "–"
                for p in panels
            ]
            lines.append(f"| {label(algorithm)} {text} | " + " | ".join(cells) + " |")
    return lines


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


# ------------------------------------------------------------------------------ robustness (not in the paper)
#: The paper's orderings, checked per robustness instance and solver: (name, smaller, larger). Where
#: two strategies have the same arm list (e.g. MIS = POMIS) their runs are identical and it holds.
ORDERINGS = (
    ("POMIS+ < POMIS", POMIS_PLUS, "POMIS"),
    ("POMIS ≤ MIS", "POMIS", "MIS"),
    ("MIS ≤ BF", "MIS", "BF"),
    ("POMIS ≤ BF", "POMIS", "BF"),
)


def robustness_orderings(finals: pd.DataFrame, instances: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """Per (experiment, algorithm, ordering) of the robustness experiment: both strategies' mean final
    regret, their ratio, the paired difference larger - smaller over seeds (common random numbers)
    with its 95 % interval, whether the ordering holds (smaller mean, or the same arm list) and
    whether the data contradict it (the interval lies below 0). ``finals``: one row per (experiment,
    strategy, algorithm, seed) with its ``family`` (group of instances) and ``final_regret``."""
    rows = []
    groups = cast(
        Iterable[tuple[tuple[str, str], pd.DataFrame]], finals.groupby(["experiment", "algorithm"], sort=True)
    )
    for (experiment, algorithm), group in groups:
        wide = group.pivot(index="seed", columns="strategy", values="final_regret")
        same = instances[experiment]["identical"]
        for name, small, large in ORDERINGS:
            if small not in wide or large not in wide:
                continue
            d = (wide[large] - wide[small]).to_numpy()
            equal = _same_arms(small, large, same)
            half = ci95_halfwidth(d)
            rows.append(
                {
                    "experiment": experiment,
                    "family": group["family"].iloc[0],
                    "algorithm": algorithm,
                    "ordering": name,
                    "mean_smaller": float(wide[small].mean()),
                    "mean_larger": float(wide[large].mean()),
                    "ratio": float(wide[small].mean() / wide[large].mean()),
                    "difference": float(d.mean()),
                    "ci95_halfwidth": float(half),
                    "identical_arms": equal,
                    "n_seeds": int(d.size),
                    "holds": bool(equal or d.mean() > 0),
                    "contradicted": bool(not equal and d.mean() + half < 0),
                }
            )
    return pd.DataFrame(rows)


def _same_arms(small: str, large: str, identical: Mapping[str, str]) -> bool:
    """Whether two arm-set strategies have the same arm list (``identical``: a strategy -> the smaller
    one with the same list, as in instance documents)."""
    s = large
    while s in identical:
        s = identical[s]
        if s == small:
            return True
    return False


def robustness_shares(orderings: pd.DataFrame) -> pd.DataFrame:
    """Per (family, algorithm, ordering): instances, how many hold, how many the data contradict, and
    the median ratio of mean regrets (smaller / larger strategy)."""
    out = orderings.groupby(["family", "algorithm", "ordering"], sort=False).agg(
        instances=("holds", "size"),
        holds=("holds", "sum"),
        contradicted=("contradicted", "sum"),
        median_ratio=("ratio", "median"),
    )
    return out.reset_index()


def robustness_markdown(
    shares: pd.DataFrame, graphs: Mapping[str, Any] | None, titles: Mapping[str, str], scale: str, graphs_run: int = 0
) -> str:
    """The robustness table for the reader (designed for this replication; not in the paper); ``graphs``
    is the graphs summary (:func:`~causal_bandits.papers.nonmanip.robustness.graph_counts`), of whose
    graphs the first ``graphs_run`` are run."""
    lines = [
        "# Robustness of the paper's orderings (designed for this replication; not in the paper)",
        "",
        f"Each row: instances where the ordering holds (smaller mean final regret, or the same arm list) "
        f"and where the data contradict it (paired 95 % interval of the difference entirely on the wrong "
        f"side), out of all instances of the group. {scale}",
        "",
    ]
    if graphs is not None:
        lines += [
            f"Graphs consistent with the paper's Fig. 5d facts (arms BF 27 / MIS 19 / POMIS 15 under N = "
            f"{{A, C}}, alphabetical order, A and C both changing the projection, at most "
            f"{graphs['facts']['max_directed']} directed and {graphs['facts']['max_bidirected']} bidirected "
            f"edges): {graphs['n_fitting']}; of the {graphs['n_counted']} with at most "
            f"{graphs['expressions_counted_up_to_edges']} edges, {graphs['n_counted_with_paper_expressions']} "
            f"give the paper's 24 expressions. "
            + (f"A seeded sample of {graphs_run} is run." if graphs_run < graphs["n_fitting"] else "All are run."),
            "",
        ]
    lines += ["| group | solver | ordering | holds | contradicted | median ratio |", "|---|---|---|---|---|---|"]
    for r in cast(Iterable[Any], shares.itertuples()):  # rows of string and count columns
        group = (
            "Fig. 5d-consistent graphs" if r.family == "graphs" else f"random SCMs of {titles.get(r.family, r.family)}"
        )
        lines.append(
            f"| {group} | {label(r.algorithm)} | {r.ordering} | {r.holds}/{r.instances} | "
            f"{r.contradicted}/{r.instances} | {r.median_ratio:.2f} |"
        )
    return "\n".join(lines) + "\n"
