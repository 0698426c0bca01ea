"""Study ``robustness``: the paper's orderings on every instance, their shares, claims and figure.

:func:`orderings` checks, per instance and solver, each ordering of the paper (paired over seeds: every strategy
of an instance sees the same environment noise); :func:`shares` counts how often each holds per group of
instances; :func:`claims` states them for the report, as findings beyond the paper (never reproduced or differs).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from functools import partial
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from causal_bandits import algorithms, store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.artefacts import Artefact
from causal_bandits.claims import NOT_EVALUATED, NOT_SPECIFIED, Claim, Verdict
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip.figures import ALGORITHM_ORDER, LABELS
from causal_bandits.papers.nonmanip.tables import ci95_halfwidth, label
from causal_bandits.plots import new_figure, paper_style, save_figure
from causal_bandits.studies.robustness_instances import graphs_run

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

OUT = "figures/studies/robustness"


def artefacts(paper: Mapping[str, Any]) -> list[Artefact]:
    """The study's figure (regret ratios) and table (how often each ordering holds)."""
    return [
        Artefact(
            "robustness",
            "Robustness: the paper's orderings on Fig. 5d-consistent graphs and random SCMs",
            (f"{OUT}/figure.png", f"{OUT}/figure.pdf", f"{OUT}/table.md", f"{OUT}/orderings.csv"),
            ids=(r"robustness-",),
        )
    ]


#: The paper's orderings, checked per robustness instance and solver: (name, smaller, larger). Where
#: two strategies have the same arm list (e.g. MIS = POMIS) their runs are identical and it holds.
ORDERINGS = (
    ("POMIS+ < POMIS", POMIS_PLUS, "POMIS"),
    ("POMIS ≤ MIS", "POMIS", "MIS"),
    ("MIS ≤ BF", "MIS", "BF"),
    ("POMIS ≤ BF", "POMIS", "BF"),
)


def orderings(finals: pd.DataFrame, instances: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
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


def shares(orderings: pd.DataFrame) -> pd.DataFrame:
    """Per (family, algorithm, ordering): instances, how many hold, how many the data contradict, and
    the median ratio of mean regrets (smaller / larger strategy)."""
    out = orderings.groupby(["family", "algorithm", "ordering"], sort=False).agg(
        instances=("holds", "size"),
        holds=("holds", "sum"),
        contradicted=("contradicted", "sum"),
        median_ratio=("ratio", "median"),
    )
    return out.reset_index()


def markdown(
    shares: pd.DataFrame, graphs: Mapping[str, Any] | None, titles: Mapping[str, str], scale: str, graphs_run: int = 0
) -> str:
    """The robustness table for the reader (designed for this replication; not in the paper); ``graphs``
    is the graphs summary (:func:`~causal_bandits.studies.robustness_instances.graph_counts`), of whose
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


ROBUSTNESS_RATIOS = (("POMIS+ < POMIS", "POMIS+ / POMIS"), ("POMIS ≤ BF", "POMIS / BF"))


def figure(orderings: pd.DataFrame, path_pdf: PathLike, path_png: PathLike, *, scale: str = "") -> None:
    """Addition (not in the paper): the distribution over robustness instances of the ratios of mean
    final regrets POMIS+ / POMIS and POMIS / BF, one column of points per group of instances (Fig.
    5d-consistent graphs, random SCMs of each panel, by its key) and solver (TS filled marker, KL-UCB
    hollow), with the group's median; below 1 the paper's ordering holds. A legend explains every
    mark; ``scale`` (horizon and simulations per instance) goes into the title."""
    families = list(dict.fromkeys(orderings["family"]))
    shown = [a for a in ALGORITHM_ORDER if a in algorithms.own(PAPER) or a in set(orderings["algorithm"])]
    groups = [(f, a) for f in families for a in shown]
    with paper_style():
        fig = new_figure((7.5, 2.9))
        axes = fig.subplots(1, len(ROBUSTNESS_RATIOS), squeeze=False)[0]
        jitter = np.random.default_rng(0).uniform(-0.15, 0.15, len(orderings))  # fixed: deterministic bytes
        for ax, (ordering, label) in zip(axes, ROBUSTNESS_RATIOS):
            for x, (fam, algorithm) in enumerate(groups):
                rows = (orderings.ordering == ordering) & (orderings.family == fam) & (orderings.algorithm == algorithm)
                ratio = orderings.loc[rows, "ratio"].to_numpy()
                if ratio.size == 0:
                    continue
                filled = algorithm == "ts"
                ax.scatter(
                    x + jitter[: ratio.size],
                    ratio,
                    s=9,
                    linewidths=0.8,
                    color="C0",
                    facecolors="C0" if filled else "none",
                    zorder=3,
                )
                ax.hlines(np.median(ratio), x - 0.3, x + 0.3, color="black", linewidth=1.2, zorder=4)
            ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
            ax.set_xticks(range(len(groups)))
            ax.set_xticklabels([f"{f}\n{LABELS.get(a, a)}" for f, a in groups], fontsize=6)
            ax.set_xlabel("random SCMs of a panel, or Fig. 5d-consistent graphs; solver", fontsize=7)
            ax.set_ylabel(f"ratio {label}")
            ax.set_title(f"{label} (below 1: {ordering} holds)")
        marks = [
            Line2D([], [], ls="", marker="o", ms=3.5, color="C0", label="one instance, TS (filled)"),
            Line2D([], [], ls="", marker="o", ms=3.5, mfc="none", mec="C0", label="one instance, KL-UCB (hollow)"),
            Line2D([], [], color="black", lw=1.2, label="median of the column"),
            Line2D([], [], color="grey", lw=0.8, ls=":", label="ratio 1"),
        ]
        fig.legend(handles=marks, loc="outside lower center", ncol=len(marks), frameon=False, fontsize=7)
        fig.suptitle(
            "Robustness over Fig. 5d-consistent graphs and random SCMs — addition, not in the paper"
            + (f"\n{scale}" if scale else ""),
            fontsize=8,
        )
        save_figure(fig, path_pdf, path_png)


BEYOND = "designed for this replication, not in the paper (docs/papers/nonmanip.md#nonmanip-robustness)"


def _robustness_graphs_claim() -> Claim:
    def evaluate(results) -> Verdict:
        doc = results.get("robustness_graphs")
        if doc is None:
            return Verdict(
                NOT_EVALUATED, "one graph (drawn, not listed)", "–", "the robustness experiment runs no graphs"
            )
        ours = (
            f"{doc['n_fitting']} graphs fit; of the {doc['n_counted']} with at most "
            f"{doc['expressions_counted_up_to_edges']} edges, {doc['n_counted_with_paper_expressions']} give 24 "
            f"expressions"
        )
        return Verdict(
            NOT_SPECIFIED,
            "one graph (drawn, not listed)",
            ours,
            f"{BEYOND}; criteria: arms 27/19/15 under N = {{A, C}}, alphabetical order, A and C both change "
            f"the projection, at most {doc['facts']['max_directed']} directed and "
            f"{doc['facts']['max_bidirected']} bidirected edges",
        )

    return Claim(
        "robustness-graphs",
        "§5, Fig. 5d",
        "How many diagrams fit everything the paper states about the graph of Fig. 5d",
        evaluate,
    )


def _robustness_claim(ordering: str) -> Claim:
    def evaluate(results) -> Verdict:
        table = results.get("robustness")
        if table is None:
            return Verdict(NOT_EVALUATED, "holds on the paper's SCMs", "–", "the robustness experiment was not run")
        found = shares(table)
        found = found[(found.ordering == ordering) & found.algorithm.isin(algorithms.own(PAPER))]
        ours = "; ".join(
            f"{r.family} {label(cast(str, r.algorithm))}: holds {r.holds}/{r.instances}, contradicted {r.contradicted}"
            for r in found.itertuples()
        )
        n = int(table["n_seeds"].min()) if len(table) else 0
        return Verdict(
            NOT_SPECIFIED,
            "holds on the paper's SCMs",
            ours or "–",
            f"{BEYOND}; contradicted = paired 95 % interval on the wrong side; {n} simulations per setting",
        )

    return Claim(
        f"robustness-{ordering.replace(' ', '').replace('≤', '-le-').replace('<', '-lt-').replace('+', 'plus')}",
        "§5 (orderings)",
        f"How often {ordering} holds over random SCMs and Fig. 5d-consistent graphs",
        evaluate,
    )


def claims(paper: Mapping[str, Any]) -> list[Claim]:
    """The study's claims: how many diagrams fit the paper's Fig. 5d facts, and how often each ordering holds."""
    return [_robustness_graphs_claim(), *(_robustness_claim(name) for name, _, _ in ORDERINGS)]


def report_step(job: Job) -> None:
    """Rule robustness_report: the orderings per instance and solver (:func:`orderings`), the figure, the table and
    the study's claims."""
    out, p, section = job.output, job.params, job.params.section
    instances = {Path(f).parent.name: store.read_json(f) for f in job.input.instances}
    finals = read_finals(job.input, ("experiment", "strategy", "algorithm"))
    finals["family"] = finals["experiment"].map(p.families)
    found = orderings(finals, instances)
    store.write_atomic(out.orderings, partial(found.to_csv, index=False, float_format="%.6g"))
    graphs = store.read_json(job.input.graphs[0]) if job.input.graphs else None
    scale = (
        f"Each instance: {section['n_seeds']} simulations of T = {section['horizon']:,} rounds per strategy and solver."
    )
    sampled = graphs_run(graphs, section) if graphs else 0
    md = markdown(shares(found), graphs, p.titles, scale, sampled)
    store.write_atomic(out.md, partial(Path.write_text, data=md))
    figure(
        found,
        out.pdf,
        out.png,
        scale=f"each point: mean final regrets over {section['n_seeds']} seeds of T = {section['horizon']:,} rounds "
        "per strategy",
    )
    rows = [c.check({"robustness": found, "robustness_graphs": graphs}) for c in claims({})]
    doc_scale = f"T = {section['horizon']:,}, {section['n_seeds']} seeds per instance, {len(instances)} instances"
    store.write_json(out.claims, studies.document("robustness", doc_scale, rows, {}))
    log.info("%d instances, %d (instance, solver, ordering) rows", len(instances), len(found))
