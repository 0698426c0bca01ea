"""The F-UCB radius study's table and finding (studies/fucb_radius.py)."""

import pandas as pd
import pytest

from causal_bandits.config import check, load
from causal_bandits.errors import ConfigError
from causal_bandits.studies import fucb_radius as radius_study


def _runs(alpha_c, means):
    rows = [
        {"alpha_r": "1.0", "alpha_c": alpha_c, "tau": tau, "seed": s, "final_regret": m + d, "uncertified": 0.0}
        for tau, m in means.items()
        for s, d in enumerate((-1.0, 1.0))
    ]
    return pd.DataFrame(rows)


def test_decreasing_needs_every_step_beyond_one_standard_error():
    runs = pd.concat([_runs(0.1, {0.1: 30.0, 0.3: 20.0, 0.5: 10.0}), _runs(1.0, {0.1: 30.0, 0.3: 29.5, 0.5: 10.0})])
    tab = radius_study.table(runs, {0.1: 392.12, 0.3: 355.21, 0.5: 313.89})
    assert list(tab["decreasing"]) == [True, False]
    assert tab["regret_tau0.1"].iloc[0] == "30.0 ± 1.0"
    assert radius_study.finding(tab) == (
        "the paper's decreasing trend over τ holds at 1 of 2 (alpha_r, alpha_c) points: (alpha_r=1.0, alpha_c=0.1)"
    )


def test_no_point_is_said():
    tab = radius_study.table(_runs(1.0, {0.1: 10.0, 0.3: 10.0}), {})
    assert radius_study.finding(tab).startswith("no point of the grid")


def test_empty_grid_is_an_error():
    config = load("config/config.yaml")
    config["studies"] = {"fucb_radius": {"alpha_r": [], "alpha_c": [0.1]}}
    with pytest.raises(ConfigError, match=r"studies\.fucb_radius\.alpha_r"):
        check(config)
