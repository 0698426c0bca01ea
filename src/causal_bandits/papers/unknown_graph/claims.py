"""The claims of Lu, Meisami & Tewari (2021), as data, each evaluated on the pipeline's results.

The paper reports no numbers (docs/papers/unknown_graph.md#unknown_graph): its claims are Figure 1's narrated steps,
Lemma 1's sample bound, the qualitative reading of Theorems 1-3 (CN-UCB beats UCB for large n and small d), the lower
bounds of Theorems 4-5, and §5's "will not output an incorrect sub-junction tree or clique". The
checks behind them (V1-V6) are designed for this replication and say so.

``results`` holds: ``fig1`` (the Figure-1 trace), ``regret`` (R_T per cell and algorithm),
``V4`` (clique success), ``V5`` (lower-bound table), ``V6`` (sampled discovery rows), ``readings``
(exact-test readings), ``config`` (the section). Fixed before any run:

* Lemma 1 holds in a V6 setting at c_B = 1 when the Wilson 95 % interval of the success rate lies at or above
  1 - delta and no run exceeds T1 + B rounds (amended: the point rate was judged at first);
* regret orderings are judged at our paper-scale horizon only (docs/papers/unknown_graph.md#unknown_graph-ref-orderings)
  (T >= 1e6); shorter runs show the numbers and are "not evaluated"
  (docs/papers/unknown_graph.md#unknown_graph-ref-orderings: at T <= 1e5 UCB is expected to win).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from causal_bandits import csv_tables, store
from causal_bandits.claims import (
    DIFFERS,
    INCONCLUSIVE,
    NOT_EVALUATED,
    NOT_SPECIFIED,
    REPRODUCED,
    Claim,
    Note,
    Rule,
    Verdict,
    combine,
    declared,
    document,
    holds,
    interval_text,
    note_texts,
    ordered,
    rate_in_band,
    ruled,
    seeds_to_decide,
    t_estimate,
    t_quantile,
    wilson,
)

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

Results = Mapping[str, Any]
DESIGNED = "check designed for this replication (not in the paper)"
PAPER_SCALE_T = 10**6
#: Notes several claims share, by key (:data:`causal_bandits.claims.Note`).
NOTES: dict[str, Note] = {
    "designed-V6": f"{DESIGNED} (V6)",
    "exact-tests": "exact (noise-free) tests",
    "wilson": "success rate [Wilson 95 % interval over the setting's runs]",
}
#: Each claim's rule, declared as data (:class:`causal_bandits.claims.Rule`), registered in
#: :mod:`causal_bandits.preregistration`.
RULES: dict[str, Rule] = {
    "fig1-trace": Rule("exact", "the narrated steps of Figure 1, exactly, on a sampled run of the reconstructed tree"),
    "lemma1": Rule(
        "threshold",
        "in every V6 setting at c_B = 1: the success rate's Wilson 95 % interval over the setting's runs against "
        "1 − δ (reproduced when its lower end is at or above 1 − δ, differs when its upper end is below, else "
        "inconclusive), and no run beyond T1 + B rounds (differs if one is)",
        {"c_B": 1.0},
    ),
    "exact-tests": Rule("exact", "the printed reading is correct on every exact (noise-free) test case"),
    "report": Rule("report", "reported, not judged: the paper states nothing to compare with"),
    "cliques": Rule(
        "threshold",
        "in every V4 cell (corrected Alg. 7/8): the rate of sampled runs with X_R in C0, its Wilson 95 % interval "
        "over the cell's runs against [1 − δ, 1] (δ of the batch size B): reproduced when every cell's interval lies "
        "inside, differs when one lies wholly below 1 − δ, else inconclusive",
    ),
    "thm1-ordering": Rule(
        "ordering",
        "CN-UCB's mean R_T below UCB's at the largest n of regime B, 95 % intervals (t-quantile of the seeds) apart, "
        "at T ≥ 1e6",
        {"horizon_min": PAPER_SCALE_T},
    ),
    "thm2-ordering": Rule(
        "ordering",
        "CN-UCB's mean R_T below UCB's at the largest n of the V3 forests (regime B), 95 % intervals (t-quantile of "
        "the seeds) apart, at T ≥ 1e6; added for coverage after the archived paper-scale run was seen",
        {"horizon_min": PAPER_SCALE_T},
    ),
    "thm45": Rule(
        "band",
        "for every theorem and algorithm, the max over instances of E R_T against sqrt(nKT)/8: reproduced when the "
        "lower end of the 95 % interval of the instance attaining the max (mean − t se, t of its seeds) is at or above "
        "the bound, "
        "differs when the one-sided 95 % upper bound on the max (max_i mean_i + t se_i) is below it, else "
        "inconclusive",
        {"level": 0.95},
    ),
}

#: The functions of this module that apply each rule (in its fingerprint, :func:`causal_bandits.claims.declared`).
RULES = declared(
    __name__,
    RULES,
    {
        "fig1-trace": ("_fig1",),
        "lemma1": ("_lemma1",),
        "exact-tests": ("_readings",),
        "report": ("_component_order", "_ordering"),
        "cliques": ("_cliques",),
        "thm1-ordering": ("_ordering",),
        "thm2-ordering": ("_ordering",),
        "thm45": ("_lower_bounds",),
    },
)


def _fig1(r: Results) -> Verdict:
    t = r["fig1"]
    s1 = [s["central"] for s in t["steps"] if s["stage"] == 1]
    s2 = [s for s in t["steps"] if s["stage"] == 2]
    ok = (
        s1 == ["X2", "X3"]
        and t["subtree_stage1"] == ["X3", "X6", "X7"]
        and len(s2) == 1
        and s2[0]["central"] == "X3"
        and s2[0]["intervened"] == ["X3", "X6", "X7"]
        and t["output"] == "X7"
    )
    ours = (
        f"stage 1 centres {', '.join(s1)}; subtree {{{', '.join(t['subtree_stage1'])}}}; stage 2: "
        + "; ".join(f"centre {s['central']}, intervened {' '.join(s['intervened'])}" for s in s2)
        + f"; output {t['output']} after {t['rounds']:,} rounds (B = {t['B']:,})"
    )
    return holds(
        ok,
        "centres X2, X3; subtree {X3, X6, X7}; stage 2 centre X3, children X6, X7; returns X7",
        ours,
        "from a sampled run on the reconstructed 9-node tree (docs/papers/unknown_graph.md#unknown_graph-r-figure1)",
    )


def _lemma1(r: Results) -> Verdict:
    """Lemma 1 in every V6 setting at c_B = 1 (:data:`RULES` ``lemma1``): the success rate judged by its Wilson 95 %
    interval against 1 − δ (:func:`causal_bandits.claims.rate_in_band` with the one-sided band [1 − δ, ∞)), and the
    largest round count of the setting's runs against T1 + B (a count over every run, no sampling interval)."""
    v6 = r["V6"]
    base = v6[v6["c_B"] == 1.0]
    paper = "P(X_hat = X_R) >= 1 - delta, rounds <= KB(2+d) log2 n + B"
    if base.empty:
        return Verdict(NOT_EVALUATED, "P(correct) >= 1 - delta within T1 + B rounds", "-", "no V6 setting with c_B = 1")
    parts, statuses = [], []
    notes: dict[str, list[str]] = {}  # a note -> the settings it is said of (said once)
    for row in base.itertuples():
        n = int(row.n_seeds)
        lo, hi = wilson(round(float(row.success_rate) * n), n)
        status, note = rate_in_band(round(float(row.success_rate) * n), n, (1 - float(row.delta), math.inf))
        late = float(row.max_rounds) > float(row.T1_plus_B)
        statuses.append(DIFFERS if late else status)
        setting = f"{row.regime} n={row.n} delta={row.delta:g}"
        parts.append(
            f"{setting}: {interval_text(float(row.success_rate), (lo, hi), 3)} correct ({n} runs), max "
            f"{row.max_rounds:,.0f} of {row.T1_plus_B:,.0f} rounds"
        )
        if status != REPRODUCED or late:
            notes.setdefault(("a run beyond T1 + B; " if late else "") + note, []).append(setting)
    note = "; ".join(f"{', '.join(settings)}: {text}" for text, settings in notes.items())
    return Verdict(combine(statuses), paper, "; ".join(parts), note, ("wilson", "designed-V6"))


def _readings(check: str, printed: str, corrected: str, paper: str):
    def evaluate(r: Results) -> Verdict:
        rows = r["readings"][r["readings"]["check"] == check].set_index("reading")
        p, c = rows.loc[printed], rows.loc[corrected]
        ours = (
            f"printed ({printed}): {p['correct']}/{p['cases']} correct, {p['wrong']} wrong, "
            f"{p['nonterminating']} never stop; {corrected}: {c['correct']}/{c['cases']} correct"
        )
        return holds(p["correct"] == p["cases"], paper, ours, notes=("exact-tests", "designed-V6"))

    return evaluate


def _component_order(r: Results) -> Verdict:
    rows = r["readings"][r["readings"]["check"].str.startswith("random polytrees")].set_index("reading")
    rt, ix = rows.loc["reverse_topological"], rows.loc["index"]
    return Verdict(
        NOT_SPECIFIED,
        "order of chain components not given (Alg. 5 / Alg. 2)",
        f"reverse topological: {rt['correct']}/{rt['cases']} correct; by index: {ix['correct']}/{ix['cases']}",
        "exact tests on random polytrees; " + DESIGNED,
    )


#: Where each family's regret orderings are run: its experiment and what its cells are.
FAMILIES = {"tree": "V2", "forest": "V3, forests of 1-8 trees"}


def _ordering(regime: str, family: str = "tree") -> Any:
    """CN-UCB against UCB on the ``family`` cells of ``regime`` (cells: Theorem 1; forests: Theorem 2)."""
    theorem = 1 if family == "tree" else 2

    def evaluate(r: Results) -> Verdict:
        table = r["regret"]
        cells = table[(table["family"] == family) & (table["regime"] == regime)]
        if cells.empty:
            return Verdict(NOT_EVALUATED, "-", "-", f"no regime-{regime} {family} cells in this config")
        wide = cells.pivot_table(index="n", columns="algorithm", values="mean_R_T")
        ours = "; ".join(f"n={n}: CN-UCB {row['CN-UCB']:,.0f} vs UCB {row['UCB']:,.0f}" for n, row in wide.iterrows())
        if r["config"]["horizon"] < PAPER_SCALE_T:
            return Verdict(
                NOT_EVALUATED,
                f"CN-UCB below UCB for large n (Thm {theorem} vs sqrt(nKT))",
                ours,
                f"T = {r['config']['horizon']:,} < 1e6: orderings are judged at our scale only "
                f"(docs/papers/unknown_graph.md#unknown_graph-ref-orderings)",
            )
        if regime == "B":
            at_n = cells[cells["n"] == cells["n"].max()].set_index("algorithm")
            cn, ucb = (
                t_estimate(float(x["mean_R_T"]), (float(x["ci95_hi"]) - float(x["ci95_lo"])) / 2, int(x["n_seeds"]))
                for x in (at_n.loc["CN-UCB"], at_n.loc["UCB"])
            )
            status, undecided = ordered(cn, ucb)
            return Verdict(
                status,
                f"CN-UCB below UCB for large n and small d (Thm {theorem})",
                ours,
                "; ".join(
                    p
                    for p in (
                        f"at n = {int(cells['n'].max())}: CN-UCB [{cn.lo:,.0f}, {cn.hi:,.0f}] vs UCB "
                        f"[{ucb.lo:,.0f}, {ucb.hi:,.0f}] (95 % intervals)",
                        undecided,
                        DESIGNED + f" ({FAMILIES[family]}, regime B: many near-optimal arms)",
                    )
                    if p
                ),
            )
        return Verdict(
            NOT_SPECIFIED,
            "the paper does not say where CN-UCB loses",
            ours,
            DESIGNED + " (V2, regime A: every gap ~0.5, UCB-friendly; our reading "
            "(docs/papers/unknown_graph.md#unknown_graph-ref-orderings) expects UCB to win)",
        )

    return evaluate


def _lower_bounds(r: Results) -> Verdict:
    """Thm 4-5 judged with the Monte-Carlo error of a max over instances (:data:`RULES` ``thm45``): the claim is
    contradicted where the one-sided 95 % upper bound on max_i E R_T (tableV5 ``max_upper95``) is below sqrt(nKT)/8,
    and supported where the lower end of the 95 % interval of the instance attaining the max is at or above it."""
    v5 = r["V5"]
    paper = f"max over instances of E R_T >= sqrt(nKT)/8 = {v5['bound_sqrt_nKT_over_8'].iloc[0]:.2f}"
    ours = "; ".join(
        f"Thm {row.theorem} {row.algorithm}: max {row.max_mean_R_T:.1f} "
        f"[{row.max_mean_R_T - t_quantile(row.n_seeds_min) * row.se_at_max:.1f}, one-sided upper "
        f"{row.max_upper95:.1f}]"
        for row in v5.itertuples()
    )
    basis = "judged on the Monte-Carlo error of the max over instances (two amendments: see below); "
    if v5["max_upper95"].isna().any():
        return Verdict(
            NOT_EVALUATED,
            paper,
            ours,
            basis + f"needs >= 2 seeds per instance (lower_bounds.n_seeds); {DESIGNED} (V5)",
        )
    bound = float(v5["bound_sqrt_nKT_over_8"].iloc[0])
    below = [f"Thm {row.theorem} {row.algorithm}" for row in v5.itertuples() if not row.upper95_at_least_bound]
    point = [f"Thm {row.theorem} {row.algorithm}" for row in v5.itertuples() if not row.max_at_least_bound]
    open_rows = [
        row
        for row in v5.itertuples()
        if row.upper95_at_least_bound and row.max_mean_R_T - t_quantile(row.n_seeds_min) * row.se_at_max < bound
    ]
    undecided = [
        f"Thm {row.theorem} {row.algorithm} ("
        + (
            f"about {needed:,} seeds per instance would decide it"
            if (
                needed := seeds_to_decide(
                    row.n_seeds_min, t_quantile(row.n_seeds_min) * row.se_at_max, abs(row.max_mean_R_T - bound)
                )
            )
            else "the point is on the bound"
        )
        + f", this run: {row.n_seeds_min:,})"
        for row in open_rows
    ]
    status = DIFFERS if below else INCONCLUSIVE if open_rows else REPRODUCED
    detail = (
        f"point estimate below the bound: {', '.join(point) or 'none'}; one-sided upper bound below: "
        f"{', '.join(below) or 'none'}; interval straddling the bound: {', '.join(undecided) or 'none'}"
    )
    return Verdict(status, paper, ours, basis + detail + f"; {DESIGNED} (V5)")


def _cliques(r: Results) -> Verdict:
    """Theorem 3's clique step on every V4 cell (:data:`RULES` ``cliques``): the success rate (X_R in C0) of the
    corrected Alg. 7/8, judged by its Wilson 95 % interval over the cell's runs against [1 − δ, 1]."""
    v4 = r["V4"]
    corrected = v4[v4["mode"] == "corrected"]
    paper = "Alg. 2 finds a clique holding X_R (Thm 3, w.p. >= 1 - delta)"
    if corrected.empty:
        return Verdict(NOT_EVALUATED, "-", "-", "no V4 cells")
    delta = float(r["config"]["delta"])
    judged, parts = [], []
    for row in corrected.itertuples():
        n = int(row.n_seeds)
        interval = wilson(round(float(row.XR_in_C0) * n), n)
        status, note = rate_in_band(round(float(row.XR_in_C0) * n), n, (1 - delta, 1.0))
        judged.append((row.cell, status, note))
        parts.append(f"{row.cell}: {interval_text(float(row.XR_in_C0), interval)} ({n} runs)")
    undecided = sorted({note for _, status, note in judged if status != REPRODUCED})
    cells = [cell for cell, status, _ in judged if status != REPRODUCED]
    note = f"corrected Alg. 7/8, sampled, delta = {delta:g}; " + (
        f"not inside the band: {', '.join(cells)} ({'; '.join(undecided)}); " if cells else ""
    )
    return Verdict(combine([status for _, status, _ in judged]), paper, "; ".join(parts), note + DESIGNED + " (V4)")


def claims() -> list[Claim]:
    return [
        Claim("fig1-trace", "Figure 1, §3", "CN-UCB's steps on the example tree", _fig1, **ruled(RULES, "fig1-trace")),
        Claim(
            "lemma1",
            "Lemma 1",
            "stages 0-2 return X_R within KB(2+d) log2 n + B rounds w.p. >= 1 - delta",
            _lemma1,
            **ruled(RULES, "lemma1"),
        ),
        Claim(
            "alg3-printed",
            "Alg. 3",
            "Find Sub-tree as printed (q <- 1 resets) finds X_R",
            _readings("random trees: weight update (A4)", "literal", "intersect", "Alg. 3 + Alg. 4 find X_R (Lemma 1)"),
            **ruled(RULES, "exact-tests"),
        ),
        Claim(
            "alg78-printed",
            "§5, Alg. 7/8",
            "Alg. 2 will not output an incorrect sub-junction tree or clique",
            _readings("path_power: clique rules (A8)", "literal", "corrected", "never a wrong clique (§5)"),
            **ruled(RULES, "exact-tests"),
        ),
        Claim(
            "component-order",
            "Alg. 2, Alg. 5",
            "chain components may be visited in any order",
            _component_order,
            **ruled(RULES, "report"),
        ),
        Claim("thm3-cliques", "Thm 3", "Alg. 2's clique C0 holds X_R", _cliques, **ruled(RULES, "cliques")),
        Claim(
            "thm1-regime-B",
            "Thm 1, §4",
            "CN-UCB beats UCB for large n and small d",
            _ordering("B"),
            **ruled(RULES, "thm1-ordering"),
        ),
        Claim("thm1-regime-A", "Thm 1, §4", "where CN-UCB loses to UCB", _ordering("A"), **ruled(RULES, "report")),
        Claim(
            "thm2-forests",
            "Thm 2, §4",
            "CN-UCB beats UCB on causal forests for large n and small d",
            _ordering("B", "forest"),
            **ruled(RULES, "thm2-ordering"),
        ),
        Claim(
            "thm45",
            "Thm 4, Thm 5",
            "without A2 or A3 every policy has regret >= sqrt(nKT)/8 on some instance",
            _lower_bounds,
            **ruled(RULES, "thm45"),
        ),
    ]


def claims_step(job: Job) -> None:
    """Rule unknown_graph_claims: each claim of the paper (:func:`claims`) evaluated on our results."""
    inp, section = job.input, job.params.section
    results = {
        "fig1": store.read_json(inp.trace),
        "regret": store.read_table(inp.regret).to_pandas(),
        "V4": csv_tables.read_csv(inp.v4),
        "V5": csv_tables.read_csv(inp.v5),
        "V6": pd.concat([store.read_table(p).to_pandas() for p in inp.v6], ignore_index=True),
        "readings": store.read_table(inp.readings).to_pandas(),
        "config": section,
    }
    rows = [claim.check(results) for claim in claims()]
    notes = note_texts(NOTES, rows, results)
    store.write_json(job.output[0], document("unknown_graph", section, rows, notes=notes))
    log.info("%d claims evaluated", len(rows))
