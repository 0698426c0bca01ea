"""Same-means SCMs and the efficiency of the z² estimators (beyond the paper): the delta method against
Monte Carlo, the family against exact inference."""

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from causal_bandits import config as cb_config
from causal_bandits.causal.efficiency import asymptotic_covariance, efficiencies
from causal_bandits.claims import NOT_EVALUATED, NOT_SPECIFIED
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import experiments, scms
from causal_bandits.papers.nonmanip.efficiency import PanelEfficiency, canonical
from causal_bandits.studies import same_means as sensitivity
from causal_bandits.studies import same_means_family as family_module
from causal_bandits.studies import same_means_outputs as outputs

CONFIG = cb_config.validate(cb_config.load(Path(__file__).resolve().parents[1] / "config" / "config.yaml"))
PANELS = CONFIG["nonmanip"]["panels"]


@pytest.fixture(scope="module")
def fig5b():
    return PanelEfficiency(experiments.instance_document("fig5b", PANELS["fig5b"]))


@pytest.fixture(scope="module")
def families():
    return {p: family_module.family(p, PANELS[p], 3, 0.2) for p in ("fig5a", "fig5b")}


def test_delta_method_variance_matches_monte_carlo(fig5b):
    """n · Var of the plug-in estimators over multinomial samples of the source arms approaches the
    delta method's asymptotic variance (fig5b: expressions over one and over two source arms)."""
    est = fig5b.estimators
    tables = fig5b.tables(PANELS["fig5b"]["scm"])
    theta, cov = asymptotic_covariance(est, tables)
    rng = np.random.default_rng(np.random.SeedSequence([24, 1]))
    n, reps = 5000, 4000
    counts = np.stack([rng.multinomial(n, p, size=reps) for p in tables], axis=1)
    values, _ = est.values_and_support(counts)
    assert np.all(np.isfinite(values))
    np.testing.assert_allclose(values.mean(axis=0), theta, atol=5e-3)
    mc = n * np.cov(values, rowvar=False)
    # sampling error of a variance over 4,000 replicates is about 2.2 %; finite n adds O(1/n)
    np.testing.assert_allclose(np.diag(mc), np.diag(cov), rtol=0.1)
    # covariances too (estimators sharing source data), on the scale of the standard deviations
    scale = np.sqrt(np.outer(np.diag(cov), np.diag(cov)))
    assert np.abs(mc - cov).max() < 0.1 * scale.max()
    off = ~np.eye(len(theta), dtype=bool)
    i, j = np.unravel_index(np.where(off, np.abs(cov) / scale, 0).argmax(), cov.shape)
    assert abs(cov[i, j]) > 0.3 * scale[i, j] and mc[i, j] == pytest.approx(cov[i, j], rel=0.15)


def test_efficiency_is_bernoulli_variance_over_asymptotic_variance(fig5b):
    eff = efficiencies(fig5b.estimators, fig5b.tables(PANELS["fig5b"]["scm"]))
    expected = eff["theta"] * (1 - eff["theta"]) / eff["variance"]
    np.testing.assert_allclose(eff["efficiency"], expected, rtol=1e-12)
    # the minimum-variance combination is at least as good as the arm's best single estimator
    for a, slots in enumerate(fig5b.estimators.slots):
        ids = slots[slots >= 0]
        if ids.size:
            assert eff["combined"][a] >= eff["efficiency"][ids].max() * (1 - 1e-9)


@pytest.mark.parametrize("panel", list(PANELS))
def test_parity_means_equal_exact_inference(panel):
    instance = experiments.instance_document(panel, PANELS[panel])
    model = scms.scm(experiments.panel_diagram(PANELS[panel])[0], PANELS[panel]["scm"])
    q = np.array([model.q[u] for u in model.exogenous])
    parities = [family_module.parity(model, instance["reward"], a["values"]) for a in instance["arms"]]
    np.testing.assert_allclose(
        family_module.arm_means(q, parities), [a["mu"] for a in instance["arms"]], rtol=0, atol=1e-12
    )


def test_family_keeps_every_arm_mean_and_lowers_efficiency(families):
    for panel, doc in families.items():
        points = doc["points"]
        assert len(points) == 3 and points[0]["scm"] == scms.spec(
            scms.scm(experiments.panel_diagram(PANELS[panel])[0], PANELS[panel]["scm"])
        )
        effs = [p["panel_efficiency"] for p in points]
        path = [n["panel_efficiency"] for n in doc["path"]]
        assert all(a > b for a, b in itertools.pairwise(path))  # steepest descent: E falls at every step
        assert all(
            family_module.Q_MIN - 1e-12 <= v <= family_module.Q_MAX + 1e-12
            for n in doc["path"]
            for v in n["q"].values()
        )
        assert effs[0] > effs[1] > effs[2] and effs[2] == pytest.approx(max(0.2 * effs[0], effs[2]))
        for k in range(1, 3):
            inst = family_module.point_instance(PANELS[panel], doc, k)  # raises beyond 1e-9
            canonical = experiments.instance_document(panel, PANELS[panel])
            assert max(abs(a["mu"] - b["mu"]) for a, b in zip(inst["arms"], canonical["arms"])) < 1e-9
            assert inst["scm"] != canonical["scm"]
            assert inst["sensitivity"]["panel_efficiency"] == effs[k]


def test_frontdoor_family_keeps_the_closed_form_invariants(families):
    """Front-door, N = {Z}: do(x) reads (1-2q_Y)(1-2q_Z)(1-2q_XY), the observational arm (1-2q_Y)(1-2q_Z)(1-2q_X)."""
    for p in families["fig5a"]["points"]:
        q = p["scm"]["q"]
        f = {u: 1 - 2 * v for u, v in q.items()}
        q0 = {u: 1 - 2 * v for u, v in PANELS["fig5a"]["scm"]["q"].items()}
        assert f["U_Y"] * f["U_Z"] * f["U_XY"] == pytest.approx(q0["U_Y"] * q0["U_Z"] * q0["U_XY"], rel=1e-12)
        assert f["U_Y"] * f["U_Z"] * f["U_X"] == pytest.approx(q0["U_Y"] * q0["U_Z"] * q0["U_X"], rel=1e-12)


def test_the_canonical_point_is_the_papers_efficiency_document(families):
    """Table 1's note reads the paper's own efficiency document; the sweep's point 0 is the same SCM."""
    doc = canonical(experiments.instance_document("fig5a", PANELS["fig5a"]))
    point0 = families["fig5a"]["points"][0]
    assert doc["panel_efficiency"] == point0["panel_efficiency"] and doc["arms"] == point0["arms"]


def test_each_point_has_its_own_streams():
    assert family_module.stream_key("fig5a", 3) == "fig5a_sens3" != family_module.stream_key("fig5a", 0)


def _finals(means: dict, n: int = 400) -> pd.DataFrame:
    """Per-seed final regrets around given means: {(point, algorithm, strategy): mean}."""
    rng = np.random.default_rng(np.random.SeedSequence([24, 2]))
    rows = [
        pd.DataFrame(
            {"final_regret": m + rng.normal(0, 1.0, n), "panel": "fig5a", "point": k, "algorithm": a, "strategy": s}
        )
        for (k, a, s), m in means.items()
    ]
    return pd.concat(rows, ignore_index=True)


def _family(effs):
    return {
        "fig5a": {
            "points": [{"point": k, "panel_efficiency": e} for k, e in enumerate(effs)],
            "direction_note": "test direction",
        }
    }


def test_findings_interval_needs_both_cells_within_tolerance():
    # paper fig5a: TS POMIS+ 29.08, KL-UCB POMIS+ 59.30; tolerance 15 %
    means = {
        (0, "ts", "POMISplus"): 10.0,
        (0, "kl_ucb", "POMISplus"): 10.0,
        (1, "ts", "POMISplus"): 29.0,
        (1, "kl_ucb", "POMISplus"): 58.0,
        (2, "ts", "POMISplus"): 30.0,
        (2, "kl_ucb", "POMISplus"): 20.0,
    }
    means.update({(k, a, "POMIS"): 44.0 for k in range(3) for a in ("ts", "kl_ucb")})
    fam = _family([0.5, 0.3, 0.1])
    table = outputs.sweep_table(_finals(means), fam, 10_000)
    found = outputs.findings(table, fam)["fig5a"]
    assert found["interval"] == [0.3, 0.3] and "E ∈ [0.3, 0.3]" in found["finding"]
    assert found["pomis_equal_means_p"]["ts"] > 0.01  # the same mean at every point
    assert found["paper_scale"]  # 400 seeds at the paper's horizon: judged
    means[(1, "kl_ucb", "POMISplus")] = 80.0
    found = outputs.findings(outputs.sweep_table(_finals(means), fam, 10_000), fam)["fig5a"]
    assert found["interval"] is None and "no same-means SCM" in found["finding"]
    small = outputs.findings(outputs.sweep_table(_finals(means, n=20), fam, 10_000), fam)["fig5a"]
    assert not small["paper_scale"] and small["finding"].startswith("not judged at this scale")


def test_pomis_flatness_rejects_moving_means():
    means = {(k, "ts", "POMIS"): 44.0 + 3.0 * k for k in range(3)}
    table = outputs.sweep_table(_finals(means), _family([0.5, 0.3, 0.1]), 10_000)
    assert outputs.pomis_flat(table, "fig5a", "ts")[0] < 1e-6


def test_the_study_claims_one_row_per_pomis_plus_cell_and_locates_its_cause():
    rows = outputs.claims({"panels": ["fig5a"]})
    assert [c.id for c in rows] == ["same-means-ts-fig5a", "same-means-kl_ucb-fig5a"]
    found = {
        "finding": "no same-means SCM of the sweep reproduces both POMIS+ cells",
        "interval": None,
        "paper_scale": True,
        "direction": "d",
        "pomis_equal_means_p": {"ts": 0.4},
    }
    row = rows[0].check({"findings": {"fig5a": found}})
    assert row["status"] == NOT_SPECIFIED and row["ours"] == found["finding"] and "p = 0.4" in row["note"]
    assert rows[0].check({"findings": {}})["status"] == NOT_EVALUATED
    table = pd.DataFrame(
        [
            {"panel": "fig5a", "point": k, "algorithm": a, "strategy": "POMIS+", "n_seeds": 200, "paper_value": paper}
            | {"mean_cr_T": mean, "ci95_halfwidth": 1.0}
            for k, means in enumerate([(20.0, 7.0), (29.0, 40.0), (29.0, 59.0)])
            for a, paper, mean in zip(("ts", "kl_ucb"), (29.08, 59.30), means)
        ]
    )
    effs = {"efficiencies": [0.5, 0.3, 0.1]}
    record = {"outcome": "ruled out", "numbers": "", "sentence": found["finding"]}
    assert outputs.located(table[table.point < 2], {"fig5a": found | effs}) == {
        "table1-ts-POMIS+-fig5a": record,
        "table1-kl_ucb-POMIS+-fig5a": record,
    }
    located = outputs.located(table, {"fig5a": found | effs})["table1-kl_ucb-POMIS+-fig5a"]
    assert located["outcome"] == "located" and located["setting"] == "same-means point 2 (E = 0.1)"
    assert located["main_setting"] == "the canonical SCM (point 0)" and "KL-UCB 7.00" in located["others"]
    assert sensitivity.STUDY.about("table1-ts-POMIS+-fig5a") and not sensitivity.STUDY.about("table1-ts-POMIS-fig5a")


def test_sweep_towards_high_efficiency_keeps_the_means():
    doc = family_module.family("fig5a", PANELS["fig5a"], 3, 1.5, towards="high")
    effs = [p["panel_efficiency"] for p in doc["points"]]
    assert effs[0] < effs[1] < effs[2] and "ascent" in doc["direction_note"]
    assert max(p["max_mean_change"] for p in doc["points"]) <= family_module.MEAN_TOLERANCE


def test_sweep_settings_per_panel_and_config_check():
    section = {"n_points": 8, "lowest_ratio": 0.1, "highest_ratio": 4, "towards": {"fig5c": "high"}}
    assert sensitivity.settings(section, "fig5c") == {"n_points": 8, "towards": "high", "end_ratio": 4}
    assert sensitivity.settings(section, "fig5a") == {"n_points": 8, "towards": "low", "end_ratio": 0.1}
    config = cb_config.load(Path(__file__).resolve().parents[1] / "config" / "config.yaml")
    config["studies"] = {"same_means": {"towards": {"fig9": "high"}}}
    with pytest.raises(ConfigError, match=r"studies.same_means.towards names \['fig9'\]"):
        cb_config.check(config)
