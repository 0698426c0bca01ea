"""The one interval and tie standard every rule on random runs applies (causal_bandits.claims), per rule kind: a
mean's interval at the t-quantile of its own n, a rate's Wilson interval and the runs that would decide it, an
exact tie in every seed, and a quantity more seeds do not narrow."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from causal_bandits.claims import (
    DIFFERS,
    INCONCLUSIVE,
    REPRODUCED,
    TIE_STRICT,
    TIE_WEAK,
    VACUOUS,
    Estimate,
    combine,
    in_band,
    ordered,
    rate_in_band,
    ratio_estimate,
    t_estimate,
    t_quantile,
    wilson,
)


# --------------------------------------------------------------------------- the shared judges
def test_ordering_kind_an_exact_tie_differs_when_strict_and_is_vacuous_when_not():
    zero = Estimate(0.0, 0.0, 0.0, 5)
    assert ordered(zero, Estimate(0.0, 0.0, 0.0, 5)) == (DIFFERS, TIE_STRICT)
    assert ordered(zero, Estimate(0.0, 0.0, 0.0, 5), strict=False) == (VACUOUS, TIE_WEAK)
    # a point on the edge of an interval is no tie: undecided, and no number of seeds parts it
    status, note = ordered(zero, Estimate(0.0, -1.0, 1.0, 5))
    assert status == INCONCLUSIVE and "no number of seeds" in note
    assert combine([REPRODUCED, VACUOUS]) == VACUOUS and combine([VACUOUS, INCONCLUSIVE]) == INCONCLUSIVE


def test_band_kind_means_use_the_t_quantile_of_their_own_n():
    assert t_quantile(5) == pytest.approx(2.776, rel=1e-3) and math.isinf(t_quantile(1))
    e = t_estimate(10.0, 1.96, 5)  # a table's 1.96·sd/√n half-width at 5 seeds
    assert e.half == pytest.approx(t_quantile(5)) and e.n == 5
    r = ratio_estimate(10.0, 1.0, 5.0, 0.5, 30)
    assert r.point == 2.0 and r.half == pytest.approx(t_quantile(30) * 2.0 * math.hypot(0.1, 0.1))


def test_band_kind_a_quantity_more_seeds_do_not_narrow_says_so():
    status, note = in_band(1.0, (0.8, 1.2), (0.85, 1.15), 100, "seeds per size", fixed="a fit over 5 sizes")
    assert status == INCONCLUSIVE and note.endswith("not decidable by more seeds per size: a fit over 5 sizes")


def test_threshold_kind_a_rate_is_judged_on_its_wilson_interval_and_runs_to_decide_from_it():
    assert rate_in_band(100, 100, (0.95, 1.0))[0] == REPRODUCED  # Wilson [0.963, 1]
    status, note = rate_in_band(30, 30, (0.95, 1.0))  # Wilson [0.886, 1] straddles 0.95
    assert status == INCONCLUSIVE and "about 73 runs (this run: 30)" in note
    assert wilson(73, 73)[0] >= 0.95 > wilson(72, 72)[0]
    assert rate_in_band(25, 30, (0.95, 1.0))[0] == DIFFERS  # Wilson upper 0.927


# --------------------------------------------------------------------------- the rules moved onto it
def _stopping(correct: int, runs: int) -> dict:
    row = {
        "algorithm": "ccpe_general",
        "config": "n4",
        "strategy": "practical",
        "correct_rate": correct / runs,
        "correct_wilson_low": wilson(correct, runs)[0],
        "correct_wilson_high": wilson(correct, runs)[1],
        "n_runs": runs,
        "n_censored": 0,
        "delta": 0.05,
    }
    return {"stopping": {"E1": pd.DataFrame([row])}}


@pytest.mark.parametrize(
    ("correct", "runs", "status"), [(30, 30, INCONCLUSIVE), (100, 100, REPRODUCED), (25, 30, DIFFERS)]
)
def test_cpe_pac_is_judged_on_each_settings_interval_not_on_a_point(correct, runs, status):
    from causal_bandits.papers.cpe import claims

    claim = next(c for c in claims.claims({"E1": ["ccpe_general"]}) if c.id.startswith("pac-E1"))
    row = claim.check(_stopping(correct, runs))
    assert row["status"] == status
    if status == INCONCLUSIVE:  # all 30 correct passed the old rule (upper bound ≥ 1 − δ, R < 100)
        assert "about 73 runs (this run: 30) would decide it" in row["note"]


def test_unknown_graph_cliques_judges_each_cells_wilson_interval_against_one_minus_delta():
    from causal_bandits.papers.unknown_graph.claims import _cliques

    def v4(rate: float, n: int) -> dict:
        frame = pd.DataFrame([{"cell": "V4-a", "mode": "corrected", "n_seeds": n, "XR_in_C0": rate}])
        return {"V4": frame, "config": {"delta": 0.1}}

    undecided = _cliques(v4(1.0, 20))  # 20 of 20 was reproduced as a point
    assert undecided.status == INCONCLUSIVE and "about 35 runs (this run: 20)" in undecided.note
    assert _cliques(v4(1.0, 40)).status == REPRODUCED
    assert _cliques(v4(0.5, 20)).status == DIFFERS


def test_fairness_decreasing_a_step_tied_in_every_seed_differs():
    from causal_bandits.papers.fairness import claims

    taus = [0.1, 0.2, 0.3]
    rows = [
        {
            "algorithm": f"fucb_tau{t:g}",
            "seed": s,
            "tau": t,
            "final_regret": 300.0 + s - (10.0 if t == 0.3 else 0.0),
            "uncertified": 4999,
        }
        for t in taus
        for s in range(5)
    ]
    claim = next(c for c in claims.claims() if c.id == "table1-fucb-regret-decreasing")
    config = {"taus": taus, "horizon": 5000, "fucb": {"alpha_c": 1.0, "fallback": "unconstrained"}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(claims.CellModel, "from_document", staticmethod(lambda doc: None))
        patch.setattr(claims, "radius_floor", lambda model, horizon, alpha: 0.27)
        row = claim.check(
            {"config": config, "summary": {"email": pd.DataFrame(rows)}, "email": {"models": {"ducb": {}}}}
        )
    assert row["status"] == DIFFERS and "0.1→0.2: 0.0 [0.0, 0.0]" in row["note"]


def test_bounds_deviates_reads_table_1s_variant_against_a_band_from_the_papers_magnitude():
    from causal_bandits.papers.bounds import claims
    from causal_bandits.papers.bounds.cells import TABLE1_REPORTED

    truth = np.array(TABLE1_REPORTED["truth"])
    paper = float(np.mean(np.abs(np.array(TABLE1_REPORTED["cp"]) - truth)))
    frame = lambda shift: pd.DataFrame({"cp": truth + shift, "truth": truth, "n_sel": 10**6})  # noqa: E731
    exact = pd.DataFrame({"cp": truth, "truth": truth})
    results = {
        "estimates": {"paper_marginal": frame(paper), "conditional": frame(0.5 * paper)},
        "exact": {"tables": {"paper_marginal": exact.to_dict("list"), "conditional": exact.to_dict("list")}},
    }
    claim = next(c for c in claims.claims() if c.id == "cp-deviates")
    row = claim.check(results)
    assert row["status"] == REPRODUCED and "paper_marginal variant" in row["note"]  # the conditional one differs
    results["estimates"]["paper_marginal"] = frame(1.29 * paper)  # inside +30 %, though far beyond our own SE
    assert claim.check(results)["status"] == REPRODUCED
