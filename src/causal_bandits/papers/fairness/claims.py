"""Huang, Zhang & Wu (AAAI-22), "Achieving Counterfactual Fairness for Causal Bandit": the claims.

The paper's experiments: D-UCB (Algorithm 1) and F-UCB (Algorithm 2) against UCB and C-UCB on the
Email Campaign SCM (§4.1: Figure 2, Table 1) and F-UCB against Fair-LinUCB on Adult-Video
(§4.2: Figure 3, Table 2). This module holds the paper's reported numbers and its claims as
data; the experiments live in :mod:`.email`, :mod:`.adult_video` and :mod:`.runs`, the tables and
figures in :mod:`.tables` and :mod:`.figures`, the config checks in :mod:`.config`.

Tolerances are fixed here, before any run: absolute regrets ±30 % (our (docs/papers/fairness.md#fairness-ambiguities)
"acceptable evidence of a faithful setting"), counts ±30 % or ±1 % of T. Where a published number cannot
follow from the paper's own model, the claim says "differs" and gives the exact computation
(the fairness radius floor of Eq. 12 and the largest exact counterfactual discrepancy).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from causal_bandits.bandits.cells import CellModel
from causal_bandits.bandits.certificate import radius_floor
from causal_bandits.claims import DIFFERS, NOT_EVALUATED, NOT_SPECIFIED, Claim, Note, Verdict, fmt, holds, within
from causal_bandits.papers.fairness.config import ADULT_W
from causal_bandits.papers.fairness.runs import algorithm_label, fucb_name

PAPER = "fairness"
PAPER_T = 5000
PAPER_SEEDS = 5
REGRET_REL_TOL = 0.30
COUNT_REL_TOL = 0.30
COUNT_ABS_TOL_FRACTION = 0.01

#: Table 1 (Email, T = 5,000, 5 trials): tau -> (F-UCB regret, unfair UCB, C-UCB, D-UCB, F-UCB).
TABLE1 = {
    0.1: (392.12, 3030, 3176, 3473, 0),
    0.2: (363.55, 1383, 1487, 1818, 0),
    0.3: (355.21, 482, 594, 739, 0),
    0.4: (317.80, 141, 185, 234, 0),
    0.5: (313.89, 18, 27, 47, 0),
}
TABLE1_COUNT_ALGORITHMS = ("ucb", "cucb", "ducb", "fucb")
#: Table 2 (Adult-Video, T = 5,000, 5 trials): tau -> (F-UCB regret, unfair F-UCB, Fair-LinUCB).
TABLE2 = {
    0.1: (361.43, 0, 2053),
    0.2: (332.10, 0, 1221),
    0.3: (323.12, 0, 602),
    0.4: (303.32, 0, 82),
    0.5: (296.19, 0, 6),
}
TABLE2_COUNT_ALGORITHMS = ("fucb", "fairlinucb")
#: §4.2 text: "the cumulative regret for Fair-LinUCB is around 250 over 5000 rounds".
FAIRLINUCB_REGRET = 250.0
#: Appendix E.2: "31,561 instances: 21,790 males and 10,771 females".
ADULT_STATED = {"instances": 31_561, "Male": 21_790, "Female": 10_771}
#: Appendix E.2: the YouTube subset "is composed of 1,580 instances" and "contains 16 video types".
PAPER_VIDEOS = 1580
EMAIL_W = {"A3", "I1", "I2"}  # §4.1: "send time, fitness, and template"
EMAIL_Z = {"I1", "I2"}  # §4.1: "the domain space of Z (fitness and template)"


def scale_text(config: Mapping[str, Any]) -> str:
    return f"T = {config['horizon']}, {config['n_seeds']} seeds"


def is_paper_scale(config: Mapping[str, Any]) -> bool:
    return config["horizon"] == PAPER_T and config["n_seeds"] == PAPER_SEEDS


# --------------------------------------------------------------------------- result access
def regret_stats(summary: pd.DataFrame, algorithm: str) -> tuple[float, float, int] | None:
    """(mean, sd, n) over seeds of the final regret of ``algorithm`` (None if it was not run)."""
    sel = summary[summary["algorithm"] == algorithm]
    if sel.empty:
        return None
    per_seed = sel.groupby("seed")["final_regret"].first()
    return float(per_seed.mean()), float(per_seed.std(ddof=1)) if len(per_seed) > 1 else 0.0, len(per_seed)


def unfair_mean(summary: pd.DataFrame, algorithm: str, tau: float, kind: str) -> float | None:
    """Mean over seeds of ``unfair_<kind>`` of ``algorithm`` at ``tau`` (None if absent)."""
    sel = summary[(summary["algorithm"] == algorithm) & np.isclose(summary["tau"], tau)]
    return float(sel[f"unfair_{kind}"].mean()) if not sel.empty else None


def count_algorithm(key: str, tau: float) -> str:
    """The run name whose counts fill a table column (F-UCB: the run at that tau)."""
    return fucb_name(tau) if key == "fucb" else key


def uncertified_text(summary: pd.DataFrame, taus: Sequence[float], horizon: int) -> str:
    """F-UCB's mean number of rounds without a certified-fair arm, per tau."""
    parts = []
    for tau in taus:
        sel = summary[(summary["algorithm"] == fucb_name(tau)) & np.isclose(summary["tau"], tau)]
        if not sel.empty:
            parts.append(f"τ={tau:g}: {sel['uncertified'].mean():.0f}")
    return f"F-UCB's rounds with no certified-fair arm (of {horizon}): " + ", ".join(parts)


def impossibility(instance: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, float]:
    """The two exact quantities that bound any unfair-decision count of an experiment at the paper's T."""
    model = CellModel.from_document(instance["models"]["ducb"])
    return {
        "radius_floor": radius_floor(model, PAPER_T, config["fucb"]["alpha_c"]),
        "max_abs_delta": float(np.abs(np.asarray(instance["delta_true"])).max()),
        "n_z": int(model.weights.shape[2]),
    }


# --------------------------------------------------------------------------- claims
def _email_dsep_claim() -> Claim:
    def evaluate(r) -> Verdict:
        d = r["email"]["dsep"]
        ours = f"W = {{{', '.join(d['W'])}}}, |W| = {d['domain_W']}, Z = {{{', '.join(d['Z'])}}}, |Z| = {d['domain_Z']}"
        ok = set(d["W"]) == EMAIL_W and set(d["Z"]) == EMAIL_Z and d["domain_W"] == 12
        return holds(
            ok,
            "W = {send time, fitness, template}; Z = {fitness, template}",
            ours,
            f"brute force over all {2**10} subsets, {d['n_valid']} valid; minimum domain of W, then Z",
        )

    return Claim("email-dsep", "§4.1 (Fig. 2(a))", "Email: the minimum d-separation set W and its Z", evaluate)


def _email_best_arm_claim() -> Claim:
    def evaluate(r) -> Verdict:
        doc = r["email"]
        arms = np.asarray(doc["arms"]) + 1
        best = {tuple(arms[i]) for opt in doc["optimal_arms"] for i in opt}
        text = ", ".join(str(tuple(int(v) for v in b)) for b in sorted(best))
        text += f" for all {len(doc['optimal_arms'])} contexts"
        match = best == {(1, 1, 3)} and all(len(o) == 1 for o in doc["optimal_arms"])
        return Verdict(
            NOT_SPECIFIED,
            "–",
            text,
            "the paper states no optimal arm; our closed form predicts "
            "(docs/papers/fairness.md#fairness-simulator) (1,1,3) for every user: "
            + ("matches" if match else "DOES NOT match"),
        )

    return Claim(
        "email-best-arm",
        "docs/papers/fairness.md#fairness-email",
        "Email: the optimal arm (A1, A2, A3) of every user",
        evaluate,
    )


def _table4_claim() -> Claim:
    def evaluate(r) -> Verdict:
        t4 = r["table4"]
        rows = t4[t4["variable"].str.contains(r"\(I\d\)")]
        bad = rows[~rows["same"].astype(bool)]
        ours = "; ".join(f"{v}: {d}" for v, d in zip(bad["variable"], bad["domain_used"])) or "all as in Table 4"
        return holds(
            bad.empty,
            "; ".join(f"{v}: {d}" for v, d in zip(bad["variable"], bad["domain_paper"])) or "–",
            ours,
            "Table 5 gives 4 values of I4 and P(I3 = 1 | I2) makes I3 binary, so the network uses the "
            "CPTs' domains (ambiguity A2)",
        )

    return Claim(
        "email-table4-domains",
        "Table 4 vs Table 5 / App. E.1",
        "Email: Table 4's domains of the intermediate features agree with the CPTs",
        evaluate,
    )


def _final_regrets(r, names: Iterable[str]) -> dict[str, tuple[float, float, int]] | None:
    stats = {n: regret_stats(r["summary"]["email"], n) for n in names}
    return None if any(v is None for v in stats.values()) else cast(dict[str, tuple[float, float, int]], stats)


def _ordering_claim(
    cid: str, source: str, statement: str, pairs: Sequence[tuple[str, str]], paper: str, fig_tau: bool = False
) -> Claim:
    def evaluate(r) -> Verdict:
        fucb = fucb_name(r["config"]["figure2b_tau"])
        resolve = lambda n: fucb if n == "fucb" else n  # noqa: E731
        stats = _final_regrets(r, {resolve(n) for p in pairs for n in p})
        if stats is None:
            return Verdict(NOT_EVALUATED, paper, "–", "an algorithm of the comparison was not run")
        ok = all(stats[resolve(a)][0] > stats[resolve(b)][0] for a, b in pairs)
        # highest regret first; ties by name, not by the set's (hash-seeded) order
        names = sorted({resolve(n) for p in pairs for n in p}, key=lambda n: (-stats[n][0], n))
        ours = "; ".join(f"{algorithm_label(n)} {stats[n][0]:.1f} ± {stats[n][1]:.1f}" for n in names)
        return holds(ok, paper, ours, notes=("regret-spread",))

    return Claim(cid, source, statement, evaluate)


def _early_fucb_claim() -> Claim:
    def evaluate(r) -> Verdict:
        cfg = r["config"]
        paper = "F-UCB < D-UCB for t ≤ 2000; D-UCB < F-UCB at T = 5000"
        curves = r["curves"]["email"]
        fucb = fucb_name(cfg["figure2b_tau"])
        if cfg["horizon"] < PAPER_T:
            return Verdict(NOT_EVALUATED, paper, "–", f"needs T = {PAPER_T}; this run has T = {cfg['horizon']}")

        def at(name: str, t: int) -> float:
            rows = curves[(curves.algorithm == name) & (curves["round"] <= t)]
            return float(rows.sort_values("round")["mean_cum_regret"].iloc[-1])

        f2, d2, fT, dT = at(fucb, 2000), at("ducb", 2000), at(fucb, PAPER_T), at("ducb", PAPER_T)
        ok = f2 < d2 and dT < fT
        note = (
            uncertified_text(r["summary"]["email"], [cfg["figure2b_tau"]], cfg["horizon"])
            + f"; in those rounds it plays its fallback '{cfg['fucb']['fallback']}'"
            + (" (D-UCB's arm), so the curves coincide" if f2 == d2 and fT == dT else "")
        )
        return holds(ok, paper, f"t = 2000: F-UCB {f2:.1f}, D-UCB {d2:.1f}; T: F-UCB {fT:.1f}, D-UCB {dT:.1f}", note)

    return Claim(
        "fig2b-fucb-early",
        "§4.1 Remark (Fig. 2(b))",
        "Email: F-UCB (τ = 0.3) below D-UCB for the first ~2000 rounds, above it at T",
        evaluate,
    )


def _regret_value_claim(experiment: str, tau: float, value: float, source: str) -> Claim:
    def evaluate(r) -> Verdict:
        cfg = r["config"]
        stats = regret_stats(r["summary"][experiment], fucb_name(tau))
        if stats is None:
            return Verdict(NOT_EVALUATED, fmt(value), "–", f"τ = {tau:g} was not run")
        ours = f"{stats[0]:.2f} ± {stats[1]:.2f}"
        if not is_paper_scale(cfg):
            return Verdict(NOT_EVALUATED, fmt(value), ours, notes=("run-scale", "paper-scale"))
        v = within(stats[0], value, REGRET_REL_TOL, ours)
        return Verdict(v.status, v.paper, v.ours, v.note, provenance(r, experiment))

    name = "Email" if experiment == "email" else "Adult-Video"
    return Claim(
        f"{'table1' if experiment == 'email' else 'table2'}-fucb-regret-tau{tau:g}",
        source,
        f"{name}: F-UCB cumulative regret at T = 5000, τ = {tau:g}",
        evaluate,
    )


def notices(r) -> list[str]:
    """What a reader must know before any verdict: Adult-Video built from synthetic stand-ins."""
    if "synthetic-standin" not in (r["adult_video"]["data_provenance"], r["users_meta"]["data_provenance"]):
        return []
    return [
        "Synthetic stand-in data: the UCI Adult and YouTube files were not found, so every Adult-Video "
        "result (Table 2, Figure 3, the App. E.2 counts) comes from labelled synthetic stand-ins built to "
        "their format (rows marked [SYNTHETIC STAND-IN DATA]); those verdicts check the code path, not the "
        "paper. The Email Campaign results do not depend on them."
    ]


def provenance(r, experiment: str) -> tuple[str, ...]:
    """The shared note marking a verdict drawn from synthetic stand-in data, if ``experiment``'s is."""
    return ("synthetic",) if r[experiment]["data_provenance"] == "synthetic-standin" else ()


def _count_scale(r) -> str:
    return (
        f"cannot be judged at this scale: the paper counts over T = {PAPER_T:,} rounds and {PAPER_SEEDS} seeds, "
        f"this run over {scale_text(r['config'])}"
    )


#: Notes several claims share, by key (:data:`causal_bandits.claims.Note`).
NOTES: dict[str, Note] = {
    "regret-spread": lambda r: f"mean ± sd of the regret at T over seeds ({scale_text(r['config'])})",
    "run-scale": lambda r: f"this run has {scale_text(r['config'])}",
    "paper-scale": f"the paper's value is at T = {PAPER_T}, {PAPER_SEEDS} seeds",
    "count-scale": _count_scale,
    "synthetic": "[SYNTHETIC STAND-IN DATA]",
}


def _monotone_claim() -> Claim:
    def evaluate(r) -> Verdict:
        taus = sorted(r["config"]["taus"])
        stats = [regret_stats(r["summary"]["email"], fucb_name(t)) for t in taus]
        if len(taus) < 2 or any(s is None for s in stats):
            return Verdict(NOT_EVALUATED, "decreasing", "–", "needs F-UCB runs at two or more τ")
        found = cast(list[tuple[float, float, int]], stats)  # none is None (checked above)
        # Strictly smaller at every step, by more than one standard error of the difference.
        steps = [(a[0] - b[0]) > np.sqrt(a[1] ** 2 / a[2] + b[1] ** 2 / b[2]) for a, b in itertools.pairwise(found)]
        ours = " → ".join(f"{t:g}: {s[0]:.1f}" for t, s in zip(taus, found))
        note = "each step must fall by more than one standard error of the difference"
        flat = [f"{a:g}→{b:g}" for a, b, ok in zip(taus, taus[1:], steps) if not ok]
        if flat:
            note += f"; no decrease at {', '.join(flat)}"
            model = CellModel.from_document(r["email"]["models"]["ducb"])
            floor = radius_floor(model, r["config"]["horizon"], r["config"]["fucb"]["alpha_c"])
            note += (
                f"; {uncertified_text(r['summary']['email'], taus, r['config']['horizon'])}, where it plays its "
                f"fallback '{r['config']['fucb']['fallback']}'; the Eq. 12 radius is ≥ {floor:.3f} in every "
                f"round after the first"
            )
        return holds(all(steps), " → ".join(f"{t:g}: {TABLE1[t][0]:.1f}" for t in taus if t in TABLE1), ours, note)

    return Claim(
        "table1-fucb-regret-decreasing",
        "§4.1 (Table 1)",
        "Email: the larger τ, the smaller F-UCB's cumulative regret",
        evaluate,
    )


def _count_tolerance(paper: float, T: int) -> float:
    return max(COUNT_REL_TOL * paper, COUNT_ABS_TOL_FRACTION * T)


def _impossible_counts(paper: Mapping[float, float], bound: Mapping[str, float]) -> str:
    """Why the paper's counts cannot follow from its own model (empty when they can): at every τ at or above the
    largest exact discrepancy a truth-based count is 0, and below the floor of the Eq. 12 radius a
    certificate-based count is T - 1 (:func:`impossibility`)."""
    imp_true = [t for t in sorted(paper) if bound["max_abs_delta"] <= t and paper[t] != 0]
    imp_cert = [t for t in sorted(paper) if bound["radius_floor"] > t and paper[t] != PAPER_T - 1]

    def taus(ts: list[float]) -> str:
        return "{" + ", ".join(f"{t:g}" for t in ts) + "}"

    parts = []
    if imp_true:
        size = (
            "0 (no rewarded user feature descends from the sensitive one in the graph)"
            if bound["max_abs_delta"] == 0
            else f"|Δ| ≤ {bound['max_abs_delta']:.4f} < τ"
        )
        parts.append(
            f"every arm's exact counterfactual discrepancy is {size} for τ ∈ {taus(imp_true)}, "
            f"so a truth-based count must be 0"
        )
    if imp_cert:
        parts.append(
            f"the Eq. 12 radius is ≥ min over users, arms and t ≤ {PAPER_T} of "
            f"sqrt(16 ln t/(t−1+|Z|))·(Σ_z P(z|x,a)^(2/3))^(3/2) = {bound['radius_floor']:.3f} "
            f"> τ "
            f"for τ ∈ {taus(imp_cert)}, so a certificate-based count must be {PAPER_T - 1}"
        )
    return "; and ".join(parts)


def _count_claim(experiment: str, key: str, paper: Mapping[float, float], source: str) -> Claim:
    """Unfair-decision counts of one algorithm column over tau (Table 1 or 2).

    Two exact facts of the experiment's model bound any count at the paper's T: the largest
    exact discrepancy (a truth-based count is 0 at every tau above it) and the floor of the Eq. 12
    radius (a certificate-based count is T - 1 at every tau below it).
    """

    def evaluate(r) -> Verdict:
        cfg, summary = r["config"], r["summary"][experiment]
        bound = impossibility(r[experiment], cfg)
        paper_text = ", ".join(f"τ={t:g}: {paper[t]:g}" for t in sorted(paper))
        cells, close = [], True
        for tau in [t for t in cfg["taus"] if t in paper]:
            name = count_algorithm(key, tau)
            cert, true = unfair_mean(summary, name, tau, "cert"), unfair_mean(summary, name, tau, "true")
            if cert is None:
                close = False
                continue
            cells.append(f"τ={tau:g}: {cert:.0f} / {true:.0f}")
            close &= abs(cert - paper[tau]) <= _count_tolerance(paper[tau], PAPER_T)
        ours = ("; ".join(cells) + " (certified / true)") if cells else "–"
        model = _impossible_counts(paper, bound)
        marks = provenance(r, experiment)
        if cfg["horizon"] != PAPER_T:  # counts grow with T: ours at another T say nothing about the paper's
            # the model's verdict is exact, whatever the run: a paper-scale run reports it as "differs"
            why = f"the paper's counts cannot follow from its own model at T = {PAPER_T:,} either: {model}"
            return Verdict(NOT_EVALUATED, paper_text, ours, why if model else "", ("count-scale", *marks))
        if model:
            return Verdict(DIFFERS, paper_text, ours, "Cannot follow from the paper's model: " + model, marks)
        if not cells:
            return Verdict(NOT_EVALUATED, paper_text, ours, "no τ of the paper's table was run", marks)
        tolerance = f"certified count within ±{COUNT_REL_TOL:.0%} or ±{COUNT_ABS_TOL_FRACTION * PAPER_T:.0f}"
        return holds(close, paper_text, ours, tolerance, marks)

    label = "F-UCB" if key == "fucb" else algorithm_label(key)
    table = "table1" if experiment == "email" else "table2"
    name = "Email" if experiment == "email" else "Adult-Video"
    return Claim(f"{table}-unfair-{key}", source, f"{name}: unfair decisions of {label} over T = 5000 rounds", evaluate)


def _fairlinucb_regret_claim() -> Claim:
    def evaluate(r) -> Verdict:
        cfg = r["config"]
        stats = regret_stats(r["summary"]["adult_video"], "fairlinucb")
        if stats is None:
            return Verdict(NOT_EVALUATED, "≈ 250", "–", "Fair-LinUCB was not run")
        ours = f"{stats[0]:.1f} ± {stats[1]:.1f}"
        if not is_paper_scale(cfg):
            return Verdict(NOT_EVALUATED, "≈ 250", ours, notes=("run-scale",))
        v = within(stats[0], FAIRLINUCB_REGRET, REGRET_REL_TOL, ours)
        return Verdict(
            v.status,
            "≈ 250",
            ours,
            v.note + "; Fair-LinUCB is a reconstruction (docs/papers/fairness.md#fairness-r-fair-linucb)",
            provenance(r, "adult_video"),
        )

    return Claim(
        "table2-fairlinucb-regret",
        "§4.2 text",
        "Adult-Video: Fair-LinUCB's cumulative regret over 5000 rounds",
        evaluate,
    )


def _fairlinucb_better_claim() -> Claim:
    def evaluate(r) -> Verdict:
        summary = r["summary"]["adult_video"]
        lin = regret_stats(summary, "fairlinucb")
        fucb = {t: regret_stats(summary, fucb_name(t)) for t in r["config"]["taus"]}
        if lin is None or any(v is None for v in fucb.values()):
            return Verdict(NOT_EVALUATED, "Fair-LinUCB < F-UCB", "–", "a run is missing")
        found = cast(dict[float, tuple[float, float, int]], fucb)  # none is None (checked above)
        ok = all(lin[0] < s[0] for s in found.values())
        ours = f"Fair-LinUCB {lin[0]:.1f}; F-UCB " + ", ".join(f"τ={t:g}: {s[0]:.1f}" for t, s in found.items())
        return holds(
            ok,
            "Fair-LinUCB < F-UCB",
            ours,
            f"{scale_text(r['config'])}; Fair-LinUCB is a reconstruction",
            provenance(r, "adult_video"),
        )

    return Claim(
        "table2-fairlinucb-below-fucb",
        "§4.2 text",
        "Adult-Video: Fair-LinUCB's regret is (slightly) lower than F-UCB's at every τ",
        evaluate,
    )


def _adult_graph_claim() -> Claim:
    def evaluate(r) -> Verdict:
        g = r["graph"]
        ours = "{" + ", ".join(g["pa_R"]) + "}"
        return holds(
            set(g["pa_R"]) == ADULT_W,
            "{age, income, ratings, views}",
            ours,
            f"PC-stable, χ² test, α = {g['settings']['alpha']}, ≤ {g['settings']['max_cond_vars']} "
            f"conditioning variables, tiers user < video < R, on {g['settings']['n_rows']} offline users",
            provenance(r, "adult_video"),
        )

    return Claim(
        "fig3-parents-of-R", "Fig. 3 (bold nodes)", "Adult-Video: the learned graph's parents of the reward", evaluate
    )


def _adult_w_claim() -> Claim:
    def evaluate(r) -> Verdict:
        d = r["adult_video"]["dsep"]
        ours = "{" + ", ".join(d["learned_W"]) + "}" + (" (paper's W enforced)" if d["enforced_paper_W"] else "")
        return holds(
            set(d["learned_W"]) == ADULT_W,
            "{age, income, ratings, views}",
            ours,
            f"minimum-domain d-separation set of the learned graph with policy edges X → A; cf mode "
            f"'{r['adult_video']['cf_mode_used']}'",
            provenance(r, "adult_video"),
        )

    return Claim("adult-dsep", "§4.2", "Adult-Video: the minimum d-separation set W of the learned graph", evaluate)


def _adult_counts_claims() -> list[Claim]:
    def total(r) -> Verdict:
        meta = r["users_meta"]
        stated = f"{ADULT_STATED['instances']:,}"
        if meta["data_provenance"] == "synthetic-standin":
            return Verdict(
                NOT_EVALUATED, stated, f"{meta['n_records']:,}", "synthetic stand-in (built to match adult.data)"
            )
        return holds(
            meta["n_records"] == ADULT_STATED["instances"],
            stated,
            f"{meta['n_records']:,}",
            "adult.data has 32,561 records; 31,561 is a typo in the paper (A16)",
        )

    def sexes(r) -> Verdict:
        meta = r["users_meta"]
        stated = f"{ADULT_STATED['Male']:,} male / {ADULT_STATED['Female']:,} female"
        ours = f"{meta['n_male']:,} male / {meta['n_female']:,} female"
        if meta["data_provenance"] == "synthetic-standin":
            return Verdict(NOT_EVALUATED, stated, ours, "synthetic stand-in (built to match adult.data)")
        return holds((meta["n_male"], meta["n_female"]) == (ADULT_STATED["Male"], ADULT_STATED["Female"]), stated, ours)

    return [
        Claim("adult-instances", "App. E.2", "Adult: number of instances", total),
        Claim("adult-sexes", "App. E.2", "Adult: males and females", sexes),
    ]


def _video_types_claim() -> Claim:
    def evaluate(r) -> Verdict:
        meta = r["videos_meta"]
        ours = f"{meta['n_types']} types among {meta['n_videos']} videos (of {meta['n_valid']} valid records)"
        if meta["n_videos"] != PAPER_VIDEOS:
            return Verdict(NOT_EVALUATED, "16 video types", ours, f"the paper's pool has {PAPER_VIDEOS} videos")
        return holds(meta["n_types"] == 16, "16 video types", ours, notes=provenance(r, "adult_video"))

    return Claim("youtube-video-types", "App. E.2", "YouTube: the video pool holds all 16 binary video types", evaluate)


def claims() -> list[Claim]:
    """Every claim of the paper this pipeline checks, in report order."""
    out = [
        _email_dsep_claim(),
        _email_best_arm_claim(),
        _table4_claim(),
        _ordering_claim(
            "fig2b-ucb-cucb-ducb",
            "§4.1 (Fig. 2(b))",
            "Email: regret at T ordered UCB > C-UCB > D-UCB",
            [("ucb", "cucb"), ("cucb", "ducb")],
            "UCB > C-UCB > D-UCB",
        ),
        _ordering_claim(
            "fig2b-causal-below-ucb",
            "§4.1 (Fig. 2(b))",
            "Email: all three causal bandits (C-UCB, D-UCB, F-UCB τ = 0.3) have lower regret than UCB",
            [("ucb", "cucb"), ("ucb", "ducb"), ("ucb", "fucb")],
            "UCB above C-UCB, D-UCB, F-UCB",
        ),
        _ordering_claim(
            "fig2b-d-f-below-cucb",
            "§4.1 (Fig. 2(b))",
            "Email: D-UCB and F-UCB (τ = 0.3) have lower regret than C-UCB",
            [("cucb", "ducb"), ("cucb", "fucb")],
            "C-UCB above D-UCB, F-UCB",
        ),
        _early_fucb_claim(),
    ]
    out += [_regret_value_claim("email", t, v[0], "Table 1") for t, v in TABLE1.items()]
    out.append(_monotone_claim())
    out += [
        _count_claim("email", key, {t: v[1 + i] for t, v in TABLE1.items()}, "Table 1")
        for i, key in enumerate(TABLE1_COUNT_ALGORITHMS)
    ]
    out += [_adult_graph_claim(), _adult_w_claim(), *_adult_counts_claims(), _video_types_claim()]
    out += [_regret_value_claim("adult_video", t, v[0], "Table 2") for t, v in TABLE2.items()]
    out += [
        _count_claim("adult_video", key, {t: v[1 + i] for t, v in TABLE2.items()}, "Table 2")
        for i, key in enumerate(TABLE2_COUNT_ALGORITHMS)
    ]
    out += [_fairlinucb_regret_claim(), _fairlinucb_better_claim()]
    return out
