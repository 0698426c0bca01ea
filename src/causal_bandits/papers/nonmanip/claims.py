"""Lee & Bareinboim (AAAI-19): every claim of the paper, evaluated on our results."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from causal_bandits import algorithms, csv_tables, store
from causal_bandits.claims import (
    FITTED,
    NOT_EVALUATED,
    REPRODUCED,
    VACUOUS,
    Claim,
    Estimate,
    Note,
    Rule,
    Verdict,
    combine,
    declared,
    document,
    fmt,
    holds,
    in_band,
    interval_text,
    note_texts,
    ordered,
    ruled,
    t_estimate,
    within,
)
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

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

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
#: The strategies whose TS regret the SCM search aimed at (docs/papers/nonmanip.md#nonmanip-r-scm-parameters, "What
#: constrained it"): their Table 1 rows agree partly by construction.
FITTED_BASELINES = ("POMIS", "MIS", "BF")
FITTED_ALGORITHM = "ts"
_CRN = (
    "runs of one panel share random streams (common random numbers) and the aggregates hold no paired "
    "difference, so the rule uses two intervals apart, which is conservative"
)
#: Each claim's rule, declared as data (:class:`causal_bandits.claims.Rule`), registered in
#: :mod:`causal_bandits.preregistration`.
RULES: dict[str, Rule] = {
    "pomis-sets": Rule("exact", "our POMIS sets (exact graph algorithm) equal the paper's sets"),
    "arm-counts": Rule(
        "exact",
        "numbers of BF/MIS/POMIS arms equal the paper's; fitted where the graph is our reconstruction built to give "
        "them (Fig. 5d)",
    ),
    "identical-runs": Rule("exact", "strategies with the same arm set give bit-identical runs (all seeds, rounds)"),
    "ordering": Rule(
        "ordering",
        "regret at T strictly ordered POMIS < MIS < BF: reproduced when the 95 % intervals (t sd/sqrt(n) over "
        "seeds, t of their n) are apart in that direction, differs when apart the other way, inconclusive when they "
        "overlap; a step between identical arm sets holds by identity (vacuous); fitted when it agrees and compares "
        "the fitted TS baselines; " + _CRN,
        {"horizon": PAPER_HORIZON, "simulations": PAPER_SIMULATIONS},
    ),
    "ts-below-klucb": Rule(
        "ordering",
        "TS < KL-UCB for every strategy, each by 95 % intervals apart (as the ordering rule); fitted when it agrees "
        "(the TS baselines are fitted); " + _CRN,
        {"horizon": PAPER_HORIZON, "simulations": PAPER_SIMULATIONS},
    ),
    "expressions": Rule(
        "exact",
        "number of distinct functionals z2ID gives per target arm set equals the paper's; fitted where the graph "
        "is our reconstruction",
    ),
    "pomis-plus-below": Rule(
        "ordering",
        "POMIS+ < POMIS at T by 95 % intervals apart; not evaluated where z2ID finds no expression; fitted when it "
        "agrees on TS (its POMIS baseline is fitted); " + _CRN,
        {"horizon": PAPER_HORIZON, "simulations": PAPER_SIMULATIONS},
    ),
    "reduction": Rule(
        "band",
        "the reduction 100 (POMIS - POMIS+) / POMIS with its 95 % interval (delta method, the two means' intervals "
        "combined as if independent: conservative under common random numbers; t-quantile of the seeds) inside paper "
        "+- tolerance; fitted when it agrees on TS (its POMIS baseline is fitted)",
        {"abs_tol_pp": REDUCTION_TOL_PP, "horizon": PAPER_HORIZON},
    ),
    "table1": Rule(
        "band",
        "mean cumulative regret at T with its 95 % interval (t sd/sqrt(n) over seeds, t of their n) inside paper x "
        "(1 +- tolerance)",
        {"rel_tol": TABLE1_REL_TOL, "horizon": PAPER_HORIZON},
    ),
    "table1-fitted": Rule(
        "band",
        "as table1, but the SCM parameters were searched so that these TS baseline regrets land near Table 1: "
        "agreement is fitted, disagreement differs",
        {"rel_tol": TABLE1_REL_TOL, "horizon": PAPER_HORIZON},
    ),
}
#: The functions of this module that apply each rule (in its fingerprint, :func:`causal_bandits.claims.declared`).
RULES = declared(
    __name__,
    RULES,
    {
        "pomis-sets": ("_pomis_claim",),
        "arm-counts": ("_arms_claim", "_fitted_if_reconstructed"),
        "identical-runs": ("_identical_runs_claim",),
        "ordering": ("_ordering_claim", "_estimate"),
        "ts-below-klucb": ("_ts_beats_klucb_claim", "_estimate"),
        "expressions": ("_expressions_claim", "_fitted_if_reconstructed"),
        "pomis-plus-below": ("_pomis_plus_claim", "_pomis_plus_rows", "_estimate"),
        "reduction": ("_reduction_claim", "_pomis_plus_rows", "_estimate"),
        "table1": ("_table1_claim",),
        "table1-fitted": ("_table1_claim",),
    },
)


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
        f"pomis-{graph}-N{''.join(N) or '0'}",
        source,
        f"POMIS sets of the {graph} graph with N = {n_text}",
        evaluate,
        **ruled(RULES, "pomis-sets"),
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
        verdict = holds(
            ours == tuple(counts), "/".join(map(str, counts)), "/".join(map(str, ours)), notes=_reconstructed(graph)
        )
        return _fitted_if_reconstructed(verdict, graph)

    return Claim(
        f"arms-{graph}-N{''.join(N)}",
        source,
        f"numbers of BF/MIS/POMIS arms, {graph} with N = {{{','.join(N)}}}",
        evaluate,
        **ruled(RULES, "arm-counts"),
    )


def _reconstructed(graph: str) -> tuple[str, ...]:
    """The shared note of a graph we rebuilt (:data:`RECONSTRUCTED`), if ``graph`` is one."""
    return (f"reconstructed-{graph}",) if graph in RECONSTRUCTED else ()


def _fitted_if_reconstructed(verdict: Verdict, graph: str) -> Verdict:
    """An agreement on a graph we rebuilt to give the paper's numbers (:data:`RECONSTRUCTED`) is fitted."""
    if verdict.status == REPRODUCED and graph in RECONSTRUCTED:
        return verdict.replace(status=FITTED, reason=RECONSTRUCTED[graph])
    return verdict


def _estimate(row) -> Estimate:
    """A strategy's final regret with its 95 % interval over its seeds: the aggregate's (1.96 sd/√n) at the
    t-quantile of its seeds (:func:`causal_bandits.claims.t_estimate`)."""
    half = (float(row["ci95_hi"]) - float(row["ci95_lo"])) / 2
    return t_estimate(float(row["mean_cum_regret"]), half, int(row["n_seeds"]))


def _fitted_if_baseline(verdict: Verdict, algorithm: str, strategies: Iterable[str]) -> Verdict:
    """An agreement of a comparison that includes a fitted value (a TS baseline of the searched SCMs,
    :data:`FITTED_BASELINES`) is fitted: the search aimed those values at the paper's."""
    used = [s for s in strategies if algorithm == FITTED_ALGORITHM and s in FITTED_BASELINES]
    if verdict.status == REPRODUCED and used:
        return verdict.replace(status=FITTED, reason=f"compares the fitted TS {', '.join(used)}: " + FITTED_REASON)
    return verdict


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


FITTED_REASON = (
    "the SCM parameters were chosen by a seeded search so that the TS baselines land near Table 1 "
    "(docs/papers/nonmanip.md#nonmanip-r-scm-parameters)"
)


def _table1_claim(algorithm: str, strategy: str, panel: str, value: float) -> Claim:
    def evaluate(results) -> Verdict:
        table = results["table1"]
        sel = table[(table.panel == panel) & (table.algorithm == algorithm) & (table.strategy == strategy)]
        if sel.empty or np.isnan(sel.iloc[0]["mean_cr_T"]):
            return Verdict(NOT_EVALUATED, fmt(value), "–", "this setting was not run")
        row = sel.iloc[0]
        e = t_estimate(float(row["mean_cr_T"]), float(row["ci95_halfwidth"]), int(row["n_seeds"]))
        mean, interval = e.point, (e.lo, e.hi)
        ours = interval_text(mean, interval)
        if row["horizon"] != PAPER_HORIZON:
            return Verdict(NOT_EVALUATED, fmt(value), ours, notes=("table1-scale",), interval=interval)
        verdict = within(mean, value, TABLE1_REL_TOL, ours, interval=interval, n=int(row["n_seeds"]))
        notes = ("scm-reconstruction", "pomis-plus") if strategy == "POMIS+" else ("scm-reconstruction",)
        verdict = verdict.replace(notes=notes)
        if fitted and verdict.status == REPRODUCED:
            return verdict.replace(status=FITTED, reason=FITTED_REASON)
        return verdict

    fitted = algorithm == FITTED_ALGORITHM and strategy in FITTED_BASELINES
    return Claim(
        table1_id(algorithm, strategy, panel),
        "Table 1",
        f"{label(algorithm)} {strategy}, {panel}: mean cumulative regret at T = 10,000",
        evaluate,
        **ruled(RULES, "table1-fitted" if fitted else "table1"),
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
        statuses, parts, ties, notes = [], [], [], []
        for smaller, larger in itertools.pairwise(present):
            a, b = rows[smaller], rows[larger]
            if identical.get(larger) == smaller:  # the same arm set: equal by identity, no evidence either way
                ties.append(f"{smaller} = {larger}")
                parts.append(f"{smaller} = {larger} (identical arm sets)")
                continue
            status, note = ordered(_estimate(a), _estimate(b))
            statuses.append(status)
            parts.append(f"{smaller} {_ci_text(a)} vs {larger} {_ci_text(b)}")
            notes += [f"{smaller} vs {larger}: {note}"] if note else []
        ours = "; ".join(parts)
        scale = _below_paper_scale(rows[present[0]])
        if scale:
            return Verdict(NOT_EVALUATED, "POMIS ≤ MIS ≤ BF", ours, notes=(*scale, "ordering-rule"))
        if not statuses:
            reason = f"every step holds only by identity: {', '.join(ties)} have identical arm sets (same runs)"
            return Verdict(VACUOUS, "POMIS ≤ MIS ≤ BF", ours, notes=("ordering-rule",), reason=reason)
        tie_note = [f"{', '.join(ties)} by identity (identical arm sets), not evidence"] if ties else []
        verdict = Verdict(combine(statuses), "POMIS ≤ MIS ≤ BF", ours, "; ".join(notes + tie_note), ("ordering-rule",))
        return _fitted_if_baseline(verdict, algorithm, present)

    return Claim(
        f"order-{panel}-{algorithm}",
        "§5, Fig. 5 / Table 1",
        f"{label(algorithm)} on {panel}: regret at T ordered POMIS ≤ MIS ≤ BF",
        evaluate,
        **ruled(RULES, "ordering"),
    )


def _ci_text(row) -> str:
    """A final regret with its 95 % interval."""
    return interval_text(float(row["mean_cum_regret"]), (float(row["ci95_lo"]), float(row["ci95_hi"])), 1)


def _ts_beats_klucb_claim(panel: str) -> Claim:
    def evaluate(results) -> Verdict:
        agg = results["agg"].get(panel)
        pairs = [
            (s, final_row(agg, s, "ts"), final_row(agg, s, "kl_ucb"))
            for s in (*STRATEGIES, POMIS_PLUS)
            if {"ts", "kl_ucb"} <= set(agg[agg.strategy == s].algorithm)
        ]
        if not pairs:
            return Verdict(NOT_EVALUATED, "TS < KL-UCB", "–", "TS or KL-UCB was not run")
        ours = "; ".join(f"{_label(s)}: {_ci_text(ts)} vs {_ci_text(kl)}" for s, ts, kl in pairs)
        scale = _below_paper_scale(pairs[0][1])
        if scale:
            return Verdict(NOT_EVALUATED, "TS < KL-UCB", ours, notes=scale)
        judged = [(s, *ordered(_estimate(ts), _estimate(kl))) for s, ts, kl in pairs]
        notes = "; ".join(f"{_label(s)}: {status}" + (f" ({note})" if note else "") for s, status, note in judged)
        verdict = Verdict(combine([status for _, status, _ in judged]), "TS < KL-UCB", ours, notes)
        return _fitted_if_baseline(verdict, FITTED_ALGORITHM, [s for s, _, _ in pairs])

    return Claim(
        f"ts-below-klucb-{panel}",
        "Table 1",
        f"{panel}: TS has lower regret than KL-UCB for every strategy",
        evaluate,
        **ruled(RULES, "ts-below-klucb"),
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
        ours = f"POMIS+ {_ci_text(plus)} vs POMIS {_ci_text(base)}"
        notes = ("strict-ci", "pomis-plus")
        no_expressions = _no_expressions(results, panel)
        if no_expressions or _below_paper_scale(plus):
            scale = () if no_expressions else _below_paper_scale(plus)
            return Verdict(NOT_EVALUATED, "POMIS+ < POMIS", ours, no_expressions or "", (*scale, *notes))
        status, note = ordered(_estimate(plus), _estimate(base))
        return _fitted_if_baseline(Verdict(status, "POMIS+ < POMIS", ours, note, notes), algorithm, ["POMIS"])

    return Claim(
        f"pomis-plus-below-pomis-{panel}-{algorithm}",
        "§5, Table 1",
        f"{label(algorithm)} on {panel}: POMIS+ (z² solver) has lower regret at T than POMIS",
        evaluate,
        **ruled(RULES, "pomis-plus-below"),
    )


def _reduction_claim(panel: str, algorithm: str, value: float) -> Claim:
    def evaluate(results) -> Verdict:
        paper = f"{value:.1f} %"
        rows = _pomis_plus_rows(results, panel, algorithm)
        if rows is None:
            return Verdict(NOT_EVALUATED, paper, "–", "POMIS+ or POMIS was not run")
        p, b = _estimate(rows[0]), _estimate(rows[1])
        reduction = 100.0 * (b.point - p.point) / b.point
        # delta method, the two intervals combined as if independent (conservative under common random numbers)
        half = 100.0 * float(np.hypot(p.half / b.point, p.point * b.half / b.point**2))
        interval = (reduction - half, reduction + half)
        ours = f"{interval_text(reduction, interval, 1)} %"
        notes = ("reduction-tolerance", "scm-reconstruction", "pomis-plus")
        no_expressions = _no_expressions(results, panel)
        if no_expressions or _below_paper_scale(rows[0]):
            scale = () if no_expressions else _below_paper_scale(rows[0])
            return Verdict(NOT_EVALUATED, paper, ours, no_expressions or "", (*scale, *notes), interval=interval)
        status, note = in_band(reduction, interval, (value - REDUCTION_TOL_PP, value + REDUCTION_TOL_PP), min(p.n, b.n))
        verdict = Verdict(status, paper, ours, note, notes, interval=interval)
        return _fitted_if_baseline(verdict, algorithm, ["POMIS"])

    return Claim(
        f"reduction-{panel}-{algorithm}",
        "§5",
        f"{label(algorithm)} on {panel}: POMIS+ reduces POMIS's regret at T = 10,000 by {value:.1f} %",
        evaluate,
        **ruled(RULES, "reduction"),
    )


def _expressions_claim(panel: str, count: int, source: str) -> Claim:
    def evaluate(results) -> Verdict:
        doc = results["catalogues"].get(panel)
        if doc is None:
            return Verdict(NOT_EVALUATED, str(count), "–", "no catalogue for this panel")
        graph = results["instances"][panel]["graph_name"]
        notes = _reconstructed(graph) or ("expression-count",)
        verdict = holds(doc["n_expressions"] == count, str(count), str(doc["n_expressions"]), notes=notes)
        return _fitted_if_reconstructed(verdict, graph)

    return Claim(
        f"expressions-{panel}",
        source,
        f"{panel}: number of expressions z²ID gives POMIS+",
        evaluate,
        **ruled(RULES, "expressions"),
    )


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
        f"identical-{panel}",
        "footnote 4",
        f"{panel}: strategies with the same arm set give identical runs",
        evaluate,
        **ruled(RULES, "identical-runs"),
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


def claims_step(job: Job) -> None:
    """Rule nonmanip_claims: each claim of the paper (:func:`claims`) evaluated on our results."""
    inp = job.input
    results = {
        "arm_sets": {Path(p).stem: store.read_json(p) for p in inp.arm_sets},
        "instances": {Path(p).stem: store.read_json(p) for p in inp.instances},
        "catalogues": {Path(p).stem: store.read_json(p) for p in inp.catalogues},
        "agg": {Path(p).stem: store.read_table(p).to_pandas() for p in inp.agg},
        "identical_runs": {Path(p).name.split(".")[0]: store.read_json(p) for p in inp.identical},
        "table1": algorithms.keyed(PAPER, csv_tables.read_csv(inp.table1)),  # the CSV prints labels
        "section": job.params.section,
    }
    rows = [claim.check(results) for claim in claims(results["instances"])]
    notes = note_texts(NOTES, rows, results)
    store.write_json(job.output[0], document("nonmanip", job.params.section, rows, notes=notes))
    log.info("%d claims evaluated", len(rows))
