"""The exact naive-estimand study on E3 (papers/cpe/naive_study.py)."""

import numpy as np
import pytest

from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe import naive_study


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
    with pytest.raises(ConfigError, match="naive_study"):
        naive_study.grid([], [0.8])
