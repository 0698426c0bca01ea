"""The refresh study (beyond the paper): its seeds pair with the main run's, its table and its claim."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from run_helpers import run_nonmanip

from causal_bandits import config as cb_config
from causal_bandits.claims import DIFFERS, NOT_EVALUATED, REPRODUCED
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip import POMIS_PLUS, catalogue, experiments, runs
from causal_bandits.studies import refresh

ROOT = Path(__file__).resolve().parents[1]
CONFIG = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))
PANELS = CONFIG["nonmanip"]["panels"]
SETTINGS = {"bootstrap": 20, "refresh": "adaptive", "warmup": 200, "growth": 0.05, "n_min": 20, "trivial": "beta"}
SECTION = {"schedule": "every_round", "n_seeds": 3, "seeds_per_job": 3, "algorithms": ["ts", "kl_ucb"]}


def _run(tmp_path, instance, doc, name, seeds, settings, horizon=150):
    trace = run_nonmanip(
        tmp_path,
        f"{name}-{len(seeds)}-{settings['warmup']}",
        instance,
        strategy=POMIS_PLUS,
        algorithm="ts",
        seeds=seeds,
        horizon=horizon,
        record_points=horizon,
        catalogue=doc,
        pomis_plus=settings,
    )
    return pq.read_table(trace).to_pandas()


def test_study_seeds_see_the_main_runs_noise(tmp_path):
    """Seed s of the study (a smaller chunk, the other schedule) and seed s of the main POMIS+ run draw from the
    same keyed streams: with a horizon inside the warm-up, where both schedules bootstrap at the same rounds, the
    runs are identical seed for seed; after it they part."""
    instance = experiments.instance_document("fig5b", PANELS["fig5b"])
    doc = catalogue.catalogue_document(instance)
    for warmup, same in ((150, True), (0, False)):
        main_settings = runs.pomis_plus_settings({**SETTINGS, "warmup": warmup}, "z2_ts")
        study_settings = runs.pomis_plus_settings({**SETTINGS, "warmup": warmup}, "z2_ts", refresh.changes(SECTION))
        main = _run(tmp_path, instance, doc, "main", range(5), main_settings)
        study = _run(tmp_path, instance, doc, "study", range(3), study_settings)
        head = main[main.seed < 3].reset_index(drop=True)
        assert study.equals(head) == same
        if not same:
            assert not study["arm"].equals(head["arm"])


def _config(**section):
    config = cb_config.load(ROOT / "config" / "config.yaml")
    config["studies"] = {"refresh": section}
    return config


def test_config_checks():
    cb_config.check(_config(n_seeds=3))
    with pytest.raises(ConfigError, match=re.escape("studies.refresh.schedule = 'adaptive' is the main run's own")):
        cb_config.check(_config(schedule="adaptive"))
    with pytest.raises(ConfigError, match=re.escape("studies.refresh.n_seeds = 2000 exceeds nonmanip.n_seeds = 1000")):
        cb_config.check(_config(n_seeds=2000))
    config = _config()
    config["nonmanip"]["strategies"] = ["BF", "MIS", "POMIS"]
    with pytest.raises(ConfigError, match=re.escape("studies.refresh reruns POMIS+")):
        cb_config.check(config)


def _finals(values: dict[tuple[str, str], list[float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"panel": "fig5b", "run": r, "algorithm": a, "seed": i, "final_regret": v}
            for (r, a), vs in values.items()
            for i, v in enumerate(vs)
        ]
    )


def test_the_table_pairs_the_same_seeds():
    # The main run has 6 seeds, the study the first 3: seeds 3-5 of the main run (regret 1000) stay out.
    finals = _finals({("main", "ts"): [10.0, 20.0, 30.0, 1000.0, 1000.0, 1000.0], ("study", "ts"): [9.0, 18.0, 33.0]})
    row = refresh.paired_table(finals, SECTION, "adaptive", 1000).iloc[0]
    assert row.n_seeds == 3 and row.horizon == 1000
    assert row.main_mean_cr_T == pytest.approx(20.0) and row.mean_cr_T == pytest.approx(20.0)
    assert row.paired_difference == pytest.approx(0.0)  # (1 + 2 - 3) / 3
    assert row.paired_ci95_halfwidth == pytest.approx(1.96 * np.std([1, 2, -3], ddof=1) / np.sqrt(3))
    # Pairing, not two samples: a seed-wise constant shift has a zero-width interval.
    shifted = _finals({("main", "ts"): [10.0, 50.0, 90.0], ("study", "ts"): [8.0, 48.0, 88.0]})
    row = refresh.paired_table(shifted, SECTION, "adaptive", 1000).iloc[0]
    assert row.paired_difference == pytest.approx(2.0) and row.paired_ci95_halfwidth == pytest.approx(0.0)
    assert row.ci95_halfwidth > 40
    with pytest.raises(ValueError, match=re.escape("seeds 0..2 of both runs")):
        refresh.paired_table(_finals({("main", "ts"): [1.0, 2.0], ("study", "ts"): [1.0, 2.0, 3.0]}), SECTION, "a", 1)


def _paired(differences, horizon=10_000, n=50, half=2.0):
    return pd.DataFrame(
        [
            {
                "algorithm": a,
                "panel": p,
                "horizon": horizon,
                "n_seeds": n,
                "refresh": "every_round",
                "mean_cr_T": 100.0 - d,
                "ci95_halfwidth": 5.0,
                "main_refresh": "adaptive",
                "main_mean_cr_T": 100.0,
                "main_ci95_halfwidth": 5.0,
                "paired_difference": d,
                "paired_ci95_halfwidth": half,
            }
            for (p, a), d in differences.items()
        ]
    )


def test_the_claim_the_findings_and_the_table():
    (claim,) = refresh.claims({})
    # 2.2 is beyond a 95 % half-width of 2 but within the Bonferroni bound for 2 cells (2 x 2.24 / 1.96 = 2.29).
    v = claim.check({"paired": _paired({("fig5c", "ts"): 2.2, ("fig5c", "kl_ucb"): -1.0})})
    assert v["status"] == REPRODUCED and v["id"] == "refresh-schedule"
    assert "adaptive 100.0 vs every_round 97.8, difference +2.2 ± 2.0" in v["ours"] and "no cell beyond" in v["note"]
    v = claim.check({"paired": _paired({("fig5c", "ts"): 3.0, ("fig5c", "kl_ucb"): -1.0})})
    assert v["status"] == DIFFERS and "beyond noise in fig5c TS" in v["note"]
    v = claim.check({"paired": _paired({("fig5c", "ts"): 30.0}, horizon=1000, n=2)})
    assert v["status"] == NOT_EVALUATED and "T = 1000 and 2 seeds" in v["note"] and "+30.0" in v["ours"]
    paired = _paired({("fig5c", "ts"): 2.4})
    assert refresh.findings(paired) == {  # beyond its 95 % interval: the schedule explains part of the cell
        "table1-ts-POMIS+-fig5c": {
            "outcome": "partly",
            "numbers": "adaptive − every_round on seeds 0–49: +2.4 ± 2.0 (paired)",
            "sentence": "the refresh schedule moves this cell beyond noise",
        }
    }
    assert refresh.findings(_paired({("fig5c", "ts"): 1.0}))["table1-ts-POMIS+-fig5c"]["outcome"] == "ruled out"
    assert refresh.STUDY.about("table1-ts-POMIS+-fig5c")
    md = refresh.markdown(paired, {"fig5c": "c"})
    assert "| TS POMIS+ every_round | 97.60 ± 5.00 |" in md
    assert "| TS difference adaptive − every_round | +2.40 ± 2.00 |" in md
