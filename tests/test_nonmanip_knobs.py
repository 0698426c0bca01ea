"""The knob study (beyond the paper): its table, findings, claim lines and figure, on synthetic per-seed regrets."""

import numpy as np
import pandas as pd
import pytest

from causal_bandits.claims import NOT_EVALUATED, NOT_SPECIFIED
from causal_bandits.papers.nonmanip import claims, knobs
from causal_bandits.papers.nonmanip.runs import knob_points

SETTINGS = {"n_min": 20, "no_expression": "klucb", "knobs": {"n_min": [0, 20, 100], "no_expression": ["beta"]}}


def _finals(n_seeds: int, level: dict[tuple[str, str], float]) -> pd.DataFrame:
    """Per-seed regrets of fig5b: the paper's cells are TS 50.29 and KL-UCB 74.93; noise the same for every strategy
    of a solver (the variants share the main run's streams)."""
    rng = np.random.default_rng(0)
    noise = {a: rng.normal(0, 5, n_seeds) for a in ("ts", "kl_ucb")}
    return pd.DataFrame(
        [
            {"panel": "fig5b", "strategy": s, "algorithm": a, "seed": i, "final_regret": m + noise[a][i]}
            for (s, a), m in level.items()
            for i in range(n_seeds)
        ]
    )


LEVELS = {
    ("POMISplus", "ts"): 30.0,
    ("POMISplus_nmin0", "ts"): 20.0,
    ("POMISplus_nmin100", "ts"): 50.0,  # within ±15 % of 50.29
    ("POMISplus", "kl_ucb"): 40.0,
    ("POMISplus_nmin0", "kl_ucb"): 35.0,
    ("POMISplus_nmin100", "kl_ucb"): 45.0,
    ("POMISplus_beta", "kl_ucb"): 70.0,  # within ±15 % of 74.93
}


def test_knob_points_name_the_main_run_for_the_main_values():
    assert knob_points(SETTINGS) == [
        ("n_min", 0, "POMISplus_nmin0"),
        ("n_min", 20, "POMISplus"),
        ("n_min", 100, "POMISplus_nmin100"),
        ("no_expression", "klucb", "POMISplus"),
        ("no_expression", "beta", "POMISplus_beta"),
    ]
    assert knob_points({"n_min": 20, "knobs": {"n_min": [5]}}) == [
        ("n_min", 5, "POMISplus_nmin5"),
        ("n_min", 20, "POMISplus"),
    ]


def test_table_and_findings_at_paper_scale():
    table = knobs.knob_table(_finals(1000, LEVELS), SETTINGS, 10_000)
    ts = table[table.algorithm == "ts"]
    assert list(zip(ts.knob, ts.value)) == [("n_min", "0"), ("n_min", "20"), ("n_min", "100")]  # no Beta for z²-TS
    beta = table[(table.algorithm == "kl_ucb") & (table.value == "beta")].iloc[0]
    assert beta.paired_difference == pytest.approx(30.0) and beta.paired_ci95_halfwidth == pytest.approx(0.0, abs=1e-9)
    assert bool(beta.within_tolerance) and beta.strategy == "POMISplus_beta"
    found = knobs.findings(table)["fig5b"]
    assert found["ts"]["n_min_within"] == [100] and found["ts"]["paper_scale"]
    assert found["ts"]["finding"].startswith("n_min ∈ {100} of {0, 20, 100} put the cell within ±15% of 50.29")
    assert "does not apply to z²-TS" in found["ts"]["finding"]
    assert found["kl_ucb"]["n_min_within"] == []
    assert "no n_min of {0, 20, 100} puts the cell within ±15% of 74.93" in found["kl_ucb"]["finding"]
    assert "no_expression = beta moves it from 39.96 ± 0.32 (klucb) to 69.96" in found["kl_ucb"]["finding"]
    assert "paired difference +30.00 ± 0.00 (within ±15%)" in found["kl_ucb"]["finding"]
    md = knobs.markdown(table, knobs.findings(table), {"fig5b": "Fig. 2a"})
    assert "| Fig. 2a | KL-UCB | 74.93 |" in md and "(main)" in md and "no_expression = beta" in md


def test_claim_lines_under_the_pomis_plus_cells():
    table = knobs.knob_table(_finals(1000, LEVELS), SETTINGS, 10_000)
    claim = {c.id: c for c in claims.claims({"fig5b": {"identical": False}})}["table1-kl_ucb-POMIS+-fig5b-knobs"]
    row = claim.check({"knobs": knobs.findings(table)})
    assert row["status"] == NOT_SPECIFIED and row["ours"].startswith("no n_min")
    assert claim.check({"knobs": None})["status"] == NOT_EVALUATED
    small = knobs.findings(knobs.knob_table(_finals(8, LEVELS), SETTINGS, 1000))
    row = claim.check({"knobs": small})
    assert row["status"] == NOT_EVALUATED and row["ours"].startswith("not judged at this scale")


def test_variants_must_hold_the_main_runs_seeds():
    finals = _finals(6, LEVELS)
    finals = finals[~((finals.strategy == "POMISplus_nmin0") & (finals.seed == 5))]
    with pytest.raises(ValueError, match="must hold the same seeds"):
        knobs.knob_table(finals, SETTINGS, 1000)


def test_figure_is_written(tmp_path):
    table = knobs.knob_table(_finals(20, LEVELS), SETTINGS, 1000)
    knobs.figure(table, {"fig5b": "Fig. 2a"}, tmp_path / "k.pdf", tmp_path / "k.png")
    assert (tmp_path / "k.png").stat().st_size > 0 and (tmp_path / "k.pdf").stat().st_size > 0
