"""Lee & Bareinboim (AAAI-19): every claim of the paper, evaluated on our results."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np

from causal_bandits import algorithms
from causal_bandits.claims import NOT_EVALUATED, Claim, Note, Verdict, fmt, holds, within
from causal_bandits.papers.nonmanip import PAPER, POMIS_PLUS
from causal_bandits.papers.nonmanip.experiments import STRATEGIES
from causal_bandits.papers.nonmanip.graphs import CASES
from causal_bandits.papers.nonmanip.tables import (
    REDUCTIONS,
    TABLE1,
    final_row,
    label,
    pomis_plus_note,
    table1_id,
)

PAPER_HORIZON = 10_000
PAPER_SIMULATIONS = 1_000
#: Relative tolerance for Table 1 values, fixed before any run: the paper's SCMs are unpublished,
#: ours are our reconstruction (docs/papers/nonmanip.md#nonmanip-r-scm-parameters), so only the level of each number can
#: be compared.
TABLE1_REL_TOL = 0.15
#: Reductions POMIS -> POMIS+ (per cent of POMIS's regret), fixed before any run: ours must lie within
#: this many percentage points of the paper's. The SCMs are our reconstruction
#: (docs/papers/nonmanip.md#nonmanip-r-scm-parameters) and the bootstrap
#: refresh may be adaptive [R], so only the size of the reduction (tens of per cent,
#: docs/papers/nonmanip.md#nonmanip-numbers (iv)) is
#: comparable.
REDUCTION_TOL_PP = 15.0
#: Numbers of catalogue expressions the paper states for the Figure 5 tasks, and where.
EXPRESSIONS_STATED = {
    "fig5a": (1, "§1 (the front-door formula)"),
    "fig5b": (4, "§4, Eqs. (1)–(4)"),
    "fig5c": (24, "§5"),
}
#: The (graph, N) cases whose BF/MIS/POMIS arm counts the paper states, and where.
ARM_COUNTS_STATED = {
    ("frontdoor", ("Z",)): "§5, Fig. 5a",
    ("fig2a", ("A",)): "§5, Fig. 5b",
    ("fig5d", ("A", "C")): "§5, Fig. 5c",
}


def _case(results, graph: str, N: tuple[str, ...]) -> Mapping[str, Any] | None:
    doc = results["arm_sets"].get(graph)
    return next((c for c in doc["cases"] if tuple(c["N"]) == N), None) if doc else None


def _set_text(sets) -> str:
    return "{" + ", ".join("{" + ",".join(s) + "}" if s else "∅" for s in sets) + "}"


def _pomis_claim(graph: str, N: tuple[str, ...], expected, source: str) -> Claim:
    def evaluate(results) -> Verdict:
        case = _case(results, graph, N)
        assert case is not None  # the arm-sets document has a case for every claimed (graph, N)
        ours = [tuple(s) for s in case["pomis"]]
        return holds(ours == list(expected), _set_text(expected), _set_text(ours))

    n_text = "{" + ",".join(N) + "}" if N else "∅"
    return Claim(
        f"pomis-{graph}-N{''.join(N) or '0'}", source, f"POMIS sets of the {graph} graph with N = {n_text}", evaluate
    )


#: Graphs the paper only draws, rebuilt by our reading (docs/papers/nonmanip.md#nonmanip-r-fig5d-graph) to match what
#: the paper states of them: their
#: arm counts agree by construction, so the claim checks the reconstruction, not the paper.
RECONSTRUCTED = {
    "fig5d": "by construction: the paper does not publish Fig. 5d's graph; our reading "
    "(docs/papers/nonmanip.md#nonmanip-r-fig5d-graph) rebuilt it "
    "so that it gives these counts, so this checks the reconstruction only"
}


def _arms_claim(graph: str, N: tuple[str, ...], counts, source: str) -> Claim:
    def evaluate(results) -> Verdict:
        case = _case(results, graph, N)
        assert case is not None  # the arm-sets document has a case for every claimed (graph, N)
        got = case["n_arms"]
        ours = (got["BF"], got["MIS"], got["POMIS"])
        return holds(
            ours == tuple(counts), "/".join(map(str, counts)), "/".join(map(str, ours)), notes=_reconstructed(graph)
        )

    return Claim(
        f"arms-{graph}-N{''.join(N)}",
        source,
        f"numbers of BF/MIS/POMIS arms, {graph} with N = {{{','.join(N)}}}",
        evaluate,
    )


def _reconstructed(graph: str) -> tuple[str, ...]:
    """The shared note of a graph we rebuilt (:data:`RECONSTRUCTED`), if ``graph`` is one."""
    return (f"reconstructed-{graph}",) if graph in RECONSTRUCTED else ()


def _below_paper_scale(row) -> tuple[str, ...]:
    """The shared note saying why a comparison of final regrets cannot be judged on this run; none at paper scale."""
    return ("below-paper-scale",) if row["round"] < PAPER_HORIZON or row["n_seeds"] < PAPER_SIMULATIONS else ()


#: Notes several claims share, by key (:data:`causal_bandits.claims.Note`); scales are the run's (its section).
NOTES: dict[str, Note] = {
    **{f"reconstructed-{graph}": text for graph, text in RECONSTRUCTED.items()},
    "bit-for-bit": "compared bit for bit over all seeds and recorded rounds",
    "below-paper-scale": lambda r: (
        f"this run has T = {r['section']['horizon']} and {r['section']['n_seeds']} simulations; the paper's claim "
        f"is at T = {PAPER_HORIZON:,} with {PAPER_SIMULATIONS:,} (quick runs lack the power)"
    ),
    "ordering-rule": "strict with non-overlapping 95 % CIs where arm sets differ, equal where identical",
    "expression-count": "distinct functionals per target arm set (docs/papers/nonmanip.md#nonmanip-catalogue, "
    "docs/papers/nonmanip.md#nonmanip-a-expression-count)",
    "strict-ci": "strict, with non-overlapping 95 % CIs",
    "pomis-plus": lambda r: pomis_plus_note(r["section"]["pomis_plus"]),
    "reduction-tolerance": f"within {REDUCTION_TOL_PP:.0f} percentage points (fixed before the run)",
    "scm-reconstruction": "SCM parameters are our reconstruction [R] "
    "(docs/papers/nonmanip.md#nonmanip-r-scm-parameters)",
    "table1-scale": lambda r: (
        f"this run has T = {r['section']['horizon']}; the paper's value is at T = {PAPER_HORIZON:,}"
    ),
}


def _table1_claim(algorithm: str, strategy: str, panel: str, value: float) -> Claim:
    def evaluate(results) -> Verdict:
        table = results["table1"]
        sel = table[(table.panel == panel) & (table.algorithm == algorithm) & (table.strategy == strategy)]
        if sel.empty or np.isnan(sel.iloc[0]["mean_cr_T"]):
            return Verdict(NOT_EVALUATED, fmt(value), "–", "this setting was not run")
        row = sel.iloc[0]
        ours = f"{row['mean_cr_T']:.2f} ± {row['ci95_halfwidth']:.2f}"
        if row["horizon"] != PAPER_HORIZON:
            return Verdict(NOT_EVALUATED, fmt(value), ours, notes=("table1-scale",))
        verdict = within(row["mean_cr_T"], value, TABLE1_REL_TOL, ours)
        notes = ("scm-reconstruction", "pomis-plus") if strategy == "POMIS+" else ("scm-reconstruction",)
        return Verdict(verdict.status, verdict.paper, verdict.ours, verdict.note, notes)

    return Claim(
        table1_id(algorithm, strategy, panel),
        "Table 1",
        f"{label(algorithm)} {strategy}, {panel}: mean cumulative regret at T = 10,000",
        evaluate,
    )


def _ordering_claim(panel: str, algorithm: str) -> Claim:
    def evaluate(results) -> Verdict:
        agg, identical = results["agg"].get(panel), results["instances"][panel]["identical"]
        if agg is None:
            return Verdict(NOT_EVALUATED, "", "–", "panel not run")
        present = [s for s in ("POMIS", "MIS", "BF") if ((agg.strategy == s) & (agg.algorithm == algorithm)).any()]
        if not present:
            return Verdict(NOT_EVALUATED, "POMIS ≤ MIS ≤ BF", "–", f"{label(algorithm)} was not run")
        rows = {s: final_row(agg, s, algorithm) for s in present}
        ok, parts = True, []
        for smaller, larger in itertools.pairwise(present):
            a, b = rows[smaller], rows[larger]
            if identical.get(larger) == smaller:
                ok &= a["mean_cum_regret"] == b["mean_cum_regret"]
                parts.append(f"{smaller} = {larger}")
            else:  # arm sets differ: strict, with non-overlapping 95 % intervals
                ok &= a["ci95_hi"] < b["ci95_lo"]
                parts.append(f"{smaller} {a['mean_cum_regret']:.1f} vs {larger} {b['mean_cum_regret']:.1f}")
        scale = _below_paper_scale(rows[present[0]])
        if scale:
            return Verdict(NOT_EVALUATED, "POMIS ≤ MIS ≤ BF", "; ".join(parts), notes=(*scale, "ordering-rule"))
        return holds(ok, "POMIS ≤ MIS ≤ BF", "; ".join(parts), notes=("ordering-rule",))

    return Claim(
        f"order-{panel}-{algorithm}",
        "§5, Fig. 5 / Table 1",
        f"{label(algorithm)} on {panel}: regret at T ordered POMIS ≤ MIS ≤ BF",
        evaluate,
    )


def _ts_beats_klucb_claim(panel: str) -> Claim:
    def evaluate(results) -> Verdict:
        agg = results["agg"].get(panel)
        pairs = []
        for s in (*STRATEGIES, POMIS_PLUS):
            if {"ts", "kl_ucb"} <= set(agg[agg.strategy == s].algorithm):
                pairs.append(
                    (s, final_row(agg, s, "ts")["mean_cum_regret"], final_row(agg, s, "kl_ucb")["mean_cum_regret"])
                )
        ok = bool(pairs) and all(ts < kl for _, ts, kl in pairs)
        ours = "; ".join(f"{_label(s)}: {ts:.1f} vs {kl:.1f}" for s, ts, kl in pairs)
        scale = _below_paper_scale(final_row(agg, pairs[0][0], "ts")) if pairs else ()
        if scale:
            return Verdict(NOT_EVALUATED, "TS < KL-UCB", ours, notes=scale)
        return holds(ok, "TS < KL-UCB", ours)

    return Claim(
        f"ts-below-klucb-{panel}", "Table 1", f"{panel}: TS has lower regret than KL-UCB for every strategy", evaluate
    )


def _label(strategy: str) -> str:
    return "POMIS+" if strategy == POMIS_PLUS else strategy


def _no_expressions(results, panel: str) -> str | None:
    """Why POMIS+ cannot beat POMIS on ``panel``, or None: z²ID found no expression there."""
    doc = results["catalogues"].get(panel)
    if doc is not None and not doc["n_expressions"]:
        return "z²ID finds no expression on this panel's graph, so POMIS+ plays exactly POMIS"
    return None


def _pomis_plus_rows(results, panel: str, algorithm: str):
    agg = results["agg"].get(panel)
    have = [
        s
        for s in (POMIS_PLUS, "POMIS")
        if agg is not None and ((agg.strategy == s) & (agg.algorithm == algorithm)).any()
    ]
    return [final_row(agg, s, algorithm) for s in have] if len(have) == 2 else None


def _pomis_plus_claim(panel: str, algorithm: str) -> Claim:
    def evaluate(results) -> Verdict:
        rows = _pomis_plus_rows(results, panel, algorithm)
        if rows is None:
            return Verdict(NOT_EVALUATED, "POMIS+ < POMIS", "–", "POMIS+ or POMIS was not run")
        plus, base = rows
        ours = f"POMIS+ {plus['mean_cum_regret']:.1f} vs POMIS {base['mean_cum_regret']:.1f}"
        notes = ("strict-ci", "pomis-plus")
        no_expressions = _no_expressions(results, panel)
        if no_expressions or _below_paper_scale(plus):
            scale = () if no_expressions else _below_paper_scale(plus)
            return Verdict(NOT_EVALUATED, "POMIS+ < POMIS", ours, no_expressions or "", (*scale, *notes))
        return holds(bool(plus["ci95_hi"] < base["ci95_lo"]), "POMIS+ < POMIS", ours, notes=notes)

    return Claim(
        f"pomis-plus-below-pomis-{panel}-{algorithm}",
        "§5, Table 1",
        f"{label(algorithm)} on {panel}: POMIS+ (z² solver) has lower regret at T than POMIS",
        evaluate,
    )


def _reduction_claim(panel: str, algorithm: str, value: float) -> Claim:
    def evaluate(results) -> Verdict:
        paper = f"{value:.1f} %"
        rows = _pomis_plus_rows(results, panel, algorithm)
        if rows is None:
            return Verdict(NOT_EVALUATED, paper, "–", "POMIS+ or POMIS was not run")
        plus, base = rows
        reduction = 100.0 * (base["mean_cum_regret"] - plus["mean_cum_regret"]) / base["mean_cum_regret"]
        ours = f"{reduction:.1f} %"
        notes = ("reduction-tolerance", "scm-reconstruction", "pomis-plus")
        no_expressions = _no_expressions(results, panel)
        if no_expressions or _below_paper_scale(plus):
            scale = () if no_expressions else _below_paper_scale(plus)
            return Verdict(NOT_EVALUATED, paper, ours, no_expressions or "", (*scale, *notes))
        return holds(bool(abs(reduction - value) <= REDUCTION_TOL_PP), paper, ours, notes=notes)

    return Claim(
        f"reduction-{panel}-{algorithm}",
        "§5",
        f"{label(algorithm)} on {panel}: POMIS+ reduces POMIS's regret at T = 10,000 by {value:.1f} %",
        evaluate,
    )


def _expressions_claim(panel: str, count: int, source: str) -> Claim:
    def evaluate(results) -> Verdict:
        doc = results["catalogues"].get(panel)
        if doc is None:
            return Verdict(NOT_EVALUATED, str(count), "–", "no catalogue for this panel")
        graph = results["instances"][panel]["graph_name"]
        notes = _reconstructed(graph) or ("expression-count",)
        return holds(doc["n_expressions"] == count, str(count), str(doc["n_expressions"]), notes=notes)

    return Claim(f"expressions-{panel}", source, f"{panel}: number of expressions z²ID gives POMIS+", evaluate)


def _identical_label(pair: str) -> str:
    """``<larger>=<smaller>/<algorithm key>`` (nonmanip_aggregate's record) as readers see it: with the label."""
    strategies, _, algorithm = pair.rpartition("/")
    return f"{strategies}/{label(algorithm)}"


def _identical_runs_claim(panel: str) -> Claim:
    def evaluate(results) -> Verdict:
        own = algorithms.own(PAPER)
        same = {k: v for k, v in results["identical_runs"].get(panel, {}).items() if k.rpartition("/")[2] in own}
        ok = bool(same) and all(same.values())
        text = "; ".join(f"{_identical_label(k)}: {'identical' if v else 'DIFFERENT'}" for k, v in same.items())
        return holds(ok, "identical curves", text, notes=("bit-for-bit",))

    return Claim(
        f"identical-{panel}", "footnote 4", f"{panel}: strategies with the same arm set give identical runs", evaluate
    )


def claims(panels: Mapping[str, Any]) -> list[Claim]:
    """Every claim of the paper that this pipeline checks (in report order)."""
    out = []
    for case in CASES:
        key = (case["graph"], case["N"])
        if case["stated_in_paper"] and case["graph"] != "fig5d":  # fig5d's sets are [R]
            out.append(_pomis_claim(*key, case["pomis"], "§3–4, Figs. 1–4"))
        if key in ARM_COUNTS_STATED:
            out.append(_arms_claim(*key, case["arms"], ARM_COUNTS_STATED[key]))
    for panel, instance in panels.items():
        if instance["identical"]:
            out.append(_identical_runs_claim(panel))
        for algorithm in algorithms.own(PAPER):  # the paper's solvers only: an addition makes no claim
            out.append(_ordering_claim(panel, algorithm))
        out.append(_ts_beats_klucb_claim(panel))
        if panel in EXPRESSIONS_STATED:
            out.append(_expressions_claim(panel, *EXPRESSIONS_STATED[panel]))
        for algorithm in algorithms.own(PAPER):
            out.append(_pomis_plus_claim(panel, algorithm))
            if (algorithm, panel) in REDUCTIONS:
                out.append(_reduction_claim(panel, algorithm, REDUCTIONS[(algorithm, panel)]))
    for (algorithm, strategy, panel), value in TABLE1.items():
        if panel in panels:
            out.append(_table1_claim(algorithm, strategy, panel, value))
    return out
