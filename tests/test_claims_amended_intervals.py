"""The four claims whose rules were amended to judge on an interval: Fig. 2(b)'s early F-UCB ordering (paired over
seeds), unknown_graph's Lemma 1 rates (Wilson), cpe's E5 spread and E4 CCPE-BGLM / LUCB ratio (delta method). Each
test has a case where the point passes the old rule and the interval leaves it undecided."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from causal_bandits.claims import (
    DIFFERS,
    INCONCLUSIVE,
    REPRODUCED,
    TIE_STRICT,
    in_band,
    rate_in_band,
    runs_to_decide,
    seeds_to_decide,
    wilson,
)

# --------------------------------------------------------------------------- fairness fig2b-fucb-early
FUCB = "fucb_tau0.3"


def _fig2b(early_gap, final_gap, uncertified: float = 10.0) -> dict:
    """Email results: F-UCB's regret minus D-UCB's is ``early_gap[seed]`` at t = 2000, ``final_gap[seed]`` at T."""
    from causal_bandits.papers.fairness import claims

    rows = []
    for seed, (early, final) in enumerate(zip(early_gap, final_gap)):
        for name, e, f in (("ducb", 100.0, 250.0), (FUCB, 100.0 + early, 250.0 + final)):
            rows.append(
                {
                    "algorithm": name,
                    "seed": seed,
                    "tau": 0.3,
                    "final_regret": f + seed,
                    "early_regret": e + seed,
                    "uncertified": uncertified if name == FUCB else math.nan,
                }
            )
    config = {
        "horizon": claims.PAPER_T,
        "n_seeds": len(early_gap),
        "taus": [0.3],
        "figure2b_tau": 0.3,
        "fucb": {"fallback": "unconstrained"},
    }
    return {"config": config, "summary": {"email": pd.DataFrame(rows)}}


def _early_claim():
    from causal_bandits.papers.fairness import claims

    return next(c for c in claims.claims() if c.id == "fig2b-fucb-early")


def test_fig2b_early_is_judged_on_paired_differences_over_seeds():
    claim = _early_claim()
    clear = claim.check(_fig2b([-10, -11, -9, -10, -12], [20, 22, 19, 21, 20]))
    assert clear["status"] == REPRODUCED and "D-UCB − F-UCB at t = 2000: 10.4 [" in clear["note"]
    # F-UCB's mean is below D-UCB's at t = 2000 (the old point rule passed) but the seeds disagree: undecided
    noisy = claim.check(_fig2b([-30, 25, -20, 15, -5], [20, 22, 19, 21, 20]))
    assert noisy["status"] == INCONCLUSIVE and "seeds (this run: 5) would decide it" in noisy["note"]
    wrong = claim.check(_fig2b([10, 11, 9, 10, 12], [20, 22, 19, 21, 20]))
    assert wrong["status"] == DIFFERS


def test_fig2b_early_an_exact_tie_in_every_seed_differs_by_the_one_tie_rule():
    claim = _early_claim()
    tie = claim.check(_fig2b([0] * 5, [0] * 5, uncertified=4999))
    assert tie["status"] == DIFFERS and tie["note"].count(TIE_STRICT) == 2
    # many uncertified rounds alone make nothing vacuous: F-UCB's own regrets, apart from D-UCB's, are judged
    own = claim.check(_fig2b([-10, -11, -9, -10, -12], [20, 22, 19, 21, 20], uncertified=4999))
    assert own["status"] == REPRODUCED


def test_fairness_summary_keeps_each_seeds_regret_at_the_early_round():
    from causal_bandits.papers.fairness.runs import EARLY_ROUND, regret_at, seed_summary

    traces = pd.DataFrame(
        {"seed": [0, 0, 0, 1, 1, 1], "round": [1000, 2000, 3000] * 2, "cum_regret": [1, 2, 3, 4, 5, 6]}
    )
    assert regret_at(traces, EARLY_ROUND) == {0: 2.0, 1: 5.0} and regret_at(traces, 2500) == {0: 2.0, 1: 5.0}
    runs = pd.DataFrame(
        {"seed": [1, 0], "final_regret": [6.0, 3.0], "unfair_cert_tau0.3": [0, 0], "unfair_true_tau0.3": [0, 0]}
    )
    summary = seed_summary({"ducb": runs}, [0.3], 3000, {"ducb": regret_at(traces, EARLY_ROUND)})
    assert summary[["seed", "early_regret", "final_regret"]].values.tolist() == [[0, 2.0, 3.0], [1, 5.0, 6.0]]


# --------------------------------------------------------------------------- unknown_graph lemma1
def _v6(success_rate: float, delta: float, n: int = 200, max_rounds: float = 10.0) -> dict:
    row = {"regime": "A", "n": 15, "delta": delta, "c_B": 1.0, "n_seeds": n, "success_rate": success_rate}
    return {"V6": pd.DataFrame([{**row, "max_rounds": max_rounds, "T1_plus_B": 20.0}])}


def test_lemma1_judges_the_wilson_interval_of_the_success_rate():
    from causal_bandits.papers.unknown_graph.claims import _lemma1

    assert _lemma1(_v6(1.0, 0.1)).status == REPRODUCED  # Wilson [0.981, 1] clears 0.9
    # every run correct passes the old point rule at delta = 0.01, but 200 runs cannot show a rate >= 0.99
    undecided = _lemma1(_v6(1.0, 0.01))
    assert undecided.status == INCONCLUSIVE and "1.000 [0.981, 1.000] correct (200 runs)" in undecided.ours
    assert f"about {runs_to_decide(1.0, 200, 0.99)} runs (this run: 200)" in undecided.note  # 381: 381/381 clears it
    assert _lemma1(_v6(1.0, 0.01, n=400)).status == REPRODUCED  # 400/400: Wilson lower 0.9905
    assert _lemma1(_v6(0.9, 0.01)).status == DIFFERS  # 180/200: Wilson upper 0.934
    assert _lemma1(_v6(1.0, 0.1, max_rounds=21.0)).status == DIFFERS


def test_in_band_counts_seeds_from_the_side_of_the_interval_facing_the_edge():
    lo, hi = wilson(200, 200)
    status, note = in_band(1.0, (lo, hi), (0.99, math.inf), 200, "runs", 3)
    # the symmetric half-width (0.0094) would claim fewer runs than this run has; the lower side (0.0188) does not
    assert status == INCONCLUSIVE and f"about {seeds_to_decide(200, 1 - lo, 0.01)} runs" in note
    # a rate's own Wilson interval decides it sooner: 381 of 381 runs clear 0.99
    assert rate_in_band(200, 200, (0.99, math.inf))[1].endswith(
        "about 381 runs (this run: 200) would decide it if the rate stays"
    )
    lo381 = wilson(381, 381)[0]
    assert lo381 >= 0.99 > wilson(380, 380)[0]
    assert in_band(5.0, (4.0, 6.0), (0.0, 5.5), 10)[1].endswith(
        f"about {seeds_to_decide(10, 1.0, 0.5)} seeds (this run: 10) would decide it if the estimate stays where it is"
    )


# --------------------------------------------------------------------------- cpe e5-lower-bound, e4-bglm-vs-lucb
def _cpe_claim(cid: str):
    from causal_bandits.papers.cpe import claims

    return next(c for c in claims.claims({}) if c.id == cid)


def _e5(se: float) -> dict:
    """Two positive-bound configs whose samples / LB are 10 and 49 (a spread of 4.9)."""
    frame = pd.DataFrame(
        {
            "algorithm": "ccpe_general",
            "strategy": "practical",
            "config": ["n4p0.2", "n8p0.2"],
            "samples_mean": [10_000.0, 49_000.0],
            "samples_se": [10_000.0 * se, 49_000.0 * se],
            "LB": [1000.0, 1000.0],
            "n_runs": 100,
        }
    )
    return {"stopping": {"E5": frame}}


@pytest.mark.parametrize(("se", "status"), [(0.002, REPRODUCED), (0.02, INCONCLUSIVE)])
def test_e5_spread_is_judged_on_its_interval(se, status):
    row = _cpe_claim("e5-lower-bound").check(_e5(se))
    assert row["status"] == status and "4.90 [" in row["ours"]  # the point 4.9 < 5 passed the old rule
    lo, hi = row["interval"]
    assert lo < 4.9 < hi and (hi < 5) == (status == REPRODUCED)


def test_e5_spread_wholly_above_five_differs():
    results = _e5(0.002)
    results["stopping"]["E5"].loc[1, "samples_mean"] = 60_000.0
    assert _cpe_claim("e5-lower-bound").check(results)["status"] == DIFFERS


def _e4(bglm: float, se: float) -> dict:
    frame = pd.DataFrame(
        {
            "algorithm": ["ccpe_bglm", "lucb"] * 2,
            "strategy": "practical",
            "config": ["k2", "k2", "k7", "k7"],
            "samples_mean": [13_000.0, 10_000.0, bglm * 10_000.0, 10_000.0],
            "samples_se": [100.0, 100.0, bglm * 10_000.0 * se, 10_000.0 * se],
            "n_runs": 100,
        }
    )
    return {"stopping": {"E4": frame}}


def test_e4_bglm_ratio_is_judged_against_no_advantage_on_its_interval():
    claim = _cpe_claim("e4-bglm-vs-lucb")
    assert claim.rule_key == "e4-bglm-vs-lucb" and claim.rule.kind == "threshold"
    assert claim.check(_e4(1.2, 0.005))["status"] == REPRODUCED
    # 1.02 > 1 at the point, but its interval reaches below 1: undecided
    undecided = claim.check(_e4(1.02, 0.01))
    assert undecided["status"] == INCONCLUSIVE and "k7: 1.02 [" in undecided["ours"]
    assert "CCPE-BGLM / LUCB samples" in undecided["ours"] and "no CCPE-BGLM advantage" in undecided["note"]
    assert claim.check(_e4(0.8, 0.005))["status"] == DIFFERS


# --------------------------------------------------------------------------- unknown_graph thm2-forests (new claim)
def _forests(ucb_lo: float, horizon: int = 10**6) -> dict:
    rows = [
        {"family": "forest", "regime": "B", "n": n, "algorithm": a, "mean_R_T": m, "ci95_lo": lo, "ci95_hi": hi}
        for n in (31, 248)
        for a, m, lo, hi in (("CN-UCB", 4500.0, 4400.0, 4600.0), ("UCB", ucb_lo + 100.0, ucb_lo, ucb_lo + 200.0))
    ]
    tree = {"family": "tree", "regime": "B", "n": 1023, "algorithm": "UCB", "mean_R_T": 1.0, "ci95_lo": 0, "ci95_hi": 2}
    return {"regret": pd.DataFrame([*rows, tree]).assign(n_seeds=20), "config": {"horizon": horizon}}


def test_thm2_forests_orders_cn_ucb_below_ucb_on_the_largest_forest_by_intervals():
    from causal_bandits.papers.unknown_graph import claims

    claim = next(c for c in claims.claims() if c.id == "thm2-forests")
    apart = claim.check(_forests(17_900.0))
    assert apart["status"] == REPRODUCED and "at n = 248" in apart["note"] and "V3" in apart["note"]
    assert claim.check(_forests(4550.0))["status"] == INCONCLUSIVE  # UCB [4550, 4750] overlaps CN-UCB's
    assert claim.check(_forests(1000.0))["status"] == DIFFERS
    assert claim.check(_forests(17_900.0, horizon=10**5))["status"] == "not evaluated"
