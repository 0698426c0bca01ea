"""The exact naive-estimand study on E3 (studies/naive_estimand.py)."""

import numpy as np
import pytest

from causal_bandits.config import check, load
from causal_bandits.errors import ConfigError
from causal_bandits.studies import naive_estimand as naive_study


def test_no_confounding_never_misleads():
    table = naive_study.grid([0.0, 0.3], [0.0, 0.8])
    assert not table["differs"].any()
    assert np.allclose(table["regret"], 0.0)


def test_threshold_matches_closed_form():
    # {X3=1, X6=1} overtakes the true best {X3=1, X4=1} once its partners' terms ρ²(w4 + w5)/2 exceed the gap 0.05,
    # i.e. ρ² > 0.4; the threshold does not depend on ρ_Y.
    edge = np.sqrt(0.4)
    table = naive_study.grid([edge - 1e-3, edge + 1e-3], [0.0, 1.0])
    assert list(table["differs"]) == [False, False, True, True]
    wrong = table[table["differs"]].iloc[0]
    assert wrong["naive_best_arm"] == "X3=1, X6=1"
    assert wrong["regret"] == pytest.approx(0.05)
    assert "ρ ≥ 0.633456 at every ρ_Y" in naive_study.finding(table)


def test_empty_grid_is_an_error():
    config = load("config/config.yaml")
    config["studies"] = {"naive_estimand": {"rho": [], "rho_Y": [0.8]}}
    with pytest.raises(ConfigError, match=r"studies\.naive_estimand\.rho"):
        check(config)


def test_the_study_documents_its_finding_under_the_paper_claim():
    table = naive_study.grid([0.0, 0.8], [0.0])
    (row,) = [c.check({"table": table}) for c in naive_study.claims({})]
    assert row["id"] == "naive-estimand-E3" and row["ours"] == naive_study.finding(table)
    assert naive_study.STUDY.about("naive-fails-E3") and not naive_study.STUDY.about("naive-fails-E3-other")
