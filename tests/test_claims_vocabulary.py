"""The verdict vocabulary (causal_bandits.claims): intervals against bands, orderings, the seeds that would decide."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from causal_bandits.claims import (
    DIFFERS,
    FITTED,
    INCONCLUSIVE,
    REPRODUCED,
    STATUSES,
    VACUOUS,
    Estimate,
    Verdict,
    mean_interval,
    ordered,
    seeds_to_decide,
    t_quantile,
    within,
)


def test_seven_verdicts_each_counted_apart():
    assert len(STATUSES) == len(set(STATUSES)) == 7
    with pytest.raises(ValueError, match="must say why"):
        Verdict(FITTED, "1", "1")
    assert Verdict(VACUOUS, "1", "1", reason="identical arm sets").reason


def test_within_judges_the_whole_interval_not_the_point():
    # the case: TS POMIS+ Fig. 5c, 138.82 ± 1.65 against 121.54 +- 15 % (edge 139.77)
    v = within(138.82, 121.54, 0.15, interval=(137.17, 140.47), n=1000)
    assert v.status == INCONCLUSIVE and v.interval == (137.17, 140.47)
    # half-width 1.65 must shrink below the 0.95 to the edge: about 1000 (1.65 / 0.95)² seeds, with the t-quantiles
    assert f"about {seeds_to_decide(1000, 1.65, 139.771 - 138.82):,} seeds" in v.note
    assert within(130.0, 121.54, 0.15, interval=(128.0, 132.0), n=1000).status == REPRODUCED
    assert within(150.0, 121.54, 0.15, interval=(145.0, 155.0), n=1000).status == DIFFERS
    exact = within(14_230, 15_000, 0.10, interval=(14_230, 14_230), n=1)
    assert exact.status == REPRODUCED and exact.interval is None and "straddles" not in exact.note


def test_seeds_to_decide_solves_the_t_interval_of_the_claims_own_n():
    # the fewest m with t(m)·s/√m at most the distance, s the standard deviation behind the interval at n
    for n, half, distance in ((100, 2.0, 1.0), (100, 1.0, 2.0), (5, 10.0, 1.0), (1000, 1.65, 0.95)):
        m = seeds_to_decide(n, half, distance)
        spread = half * math.sqrt(n) / t_quantile(n)
        assert t_quantile(m) * spread / math.sqrt(m) <= distance < t_quantile(m - 1) * spread / math.sqrt(m - 1)
    assert 390 < seeds_to_decide(100, 2.0, 1.0) < 400  # t(100) = 1.98 > t(393) = 1.97: fewer than (2/1)² x 100
    # at 5 seeds the t-quantile (2.78) alone halves the 1/√n count: Adult F-UCB τ = 0.2's case
    assert seeds_to_decide(5, 4.98, 431.73 - 433.28 + 5.0) < 5 * (4.98 / 3.45) ** 2
    assert seeds_to_decide(5, 4.0, 0.0) is None and seeds_to_decide(5, math.inf, 1.0) is None


def test_orderings_are_strict_on_intervals():
    a, b = Estimate(10, 9, 11, 50), Estimate(20, 19, 21, 50)
    assert ordered(a, b)[0] == REPRODUCED and ordered(b, a)[0] == DIFFERS
    status, note = ordered(Estimate(10, 8, 12, 50), Estimate(11, 9, 13, 50))
    assert status == INCONCLUSIVE and f"about {seeds_to_decide(50, 4.0, 1.0)} seeds" in note  # ~ (2 + 2)² / 1² x 50


def test_mean_interval_uses_student_t():
    lo, hi = mean_interval(100.0, 5.0, 5)
    assert hi - 100.0 == 100.0 - lo == pytest.approx(2.776 * 5.0 / math.sqrt(5), rel=1e-3)
    assert mean_interval(1.0, 0.0, 1) == (-math.inf, math.inf)


def _fairness_results(cert: float, true: float, uncertified: float, delta: float = 0.0, fucb_offset: float = 0.0):
    from causal_bandits.papers.fairness import claims

    rows = []
    for tau in claims.TABLE1:
        for seed in range(5):
            for name in ("ucb", "ducb", f"fucb_tau{tau:g}"):
                rows.append(
                    {
                        "algorithm": name,
                        "seed": seed,
                        "tau": tau,
                        "final_regret": 300.0 + seed + (fucb_offset if name.startswith("fucb") else 0.0),
                        "unfair_cert": cert,
                        "unfair_true": true,
                        "uncertified": uncertified,
                    }
                )
    return pd.DataFrame(rows)


def test_fairness_counts_report_both_readings_and_a_zero_by_the_model_is_vacuous(monkeypatch):
    from causal_bandits.papers.fairness import claims

    config = {"horizon": 5000, "n_seeds": 5, "taus": list(claims.TABLE1), "figure2b_tau": 0.3, "fucb": {}}
    bound = {"radius_floor": 0.27, "max_abs_delta": 0.0073, "n_z": 4}
    monkeypatch.setattr(claims, "impossibility", lambda instance, cfg: bound)
    claim = {c.id: c for c in claims.claims()}
    results = {"config": config, "email": {"data_provenance": "paper-scm"}}
    # F-UCB: certificate-based 4999 (the paper says 0), truth-based 0 = the paper's 0, but 0 for every algorithm
    fucb = claim["table1-unfair-fucb"].check({**results, "summary": {"email": _fairness_results(4999, 0, 4999)}})
    assert fucb["status"] == VACUOUS and "truth-based" in fucb["reason"]
    assert "certificate-based reading: differs; truth-based reading: reproduced" in fucb["note"]
    # UCB: neither reading gives the paper's 3030, 1383, ...: differs, with the model's reason
    ucb = claim["table1-unfair-ucb"].check({**results, "summary": {"email": _fairness_results(4999, 0, 4999)}})
    assert ucb["status"] == DIFFERS and "neither" not in ucb["status"] and "the model:" in ucb["note"]


def test_fucb_agreement_while_it_plays_its_fallback_is_vacuous():
    from causal_bandits.papers.fairness import claims

    config = {"horizon": 5000, "n_seeds": 5, "taus": list(claims.TABLE1), "figure2b_tau": 0.3}
    claim = {c.id: c for c in claims.claims()}["table1-fucb-regret-tau0.4"]
    results = {"config": config, "email": {"data_provenance": "paper-scm"}}
    # F-UCB's regret is D-UCB's in every seed: an exact tie by its fallback, whatever the share of rounds
    row = claim.check({**results, "summary": {"email": _fairness_results(4999, 0, 4999)}})
    assert row["status"] == VACUOUS and "D-UCB's regret in every seed" in row["reason"] and row["interval"]
    assert "4,999 of 5,000 rounds" in row["reason"]
    row = claim.check({**results, "summary": {"email": _fairness_results(10, 0, 10, fucb_offset=1.0)}})
    assert row["status"] == REPRODUCED  # 303 [301.0, 305.0] inside 317.80 +- 30 %, F-UCB's own regret
    # no threshold on the uncertified rounds: F-UCB mostly on its fallback but with its own regret is judged as found
    row = claim.check({**results, "summary": {"email": _fairness_results(10, 0, 4999, fucb_offset=1.0)}})
    assert row["status"] == REPRODUCED
