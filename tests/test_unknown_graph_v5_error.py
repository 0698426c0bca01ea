"""tableV5's Monte-Carlo error of the max over instances and the Thm 4-5 claim judged on it."""

import io

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from causal_bandits.papers.unknown_graph import claims, tables


def _frame(means, n_seeds, spread=1.0):
    rows = []
    for j, m in enumerate(means):
        for s in range(n_seeds):
            rows.append(
                {
                    "theorem": 4,
                    "algorithm": "ucb",
                    "j": j,
                    "k": 1,
                    "seed": s,
                    "final_regret": m + spread * (s % 2 * 2 - 1),
                }
            )
    return pd.DataFrame(rows)


def _verdict(table):
    claim = next(c for c in claims.claims() if c.id == "thm45")
    return claim.check({"V5": pd.read_csv(io.StringIO(table.to_csv(index=False)))})


def test_upper_bound_is_max_of_one_sided_bounds():
    table = tables.lower_bounds(_frame([10.0, 20.0], 4), bound=21.0)
    se = np.std([19, 21, 19, 21], ddof=1) / 2
    assert table["se_at_max"].iloc[0] == pytest.approx(se)
    assert table["max_upper95"].iloc[0] == pytest.approx(20.0 + stats.t.ppf(0.95, 3) * se)
    assert not table["max_at_least_bound"].iloc[0]
    # the point estimate is below the bound, within its Monte-Carlo error: neither contradicted nor supported
    assert bool(table["upper95_at_least_bound"].iloc[0])
    v = _verdict(table)
    assert v["status"] == "inconclusive at this scale" and "seeds per instance would decide it" in v["note"]
    # the interval's lower end at or above the bound: supported
    assert _verdict(tables.lower_bounds(_frame([10.0, 20.0], 4), bound=15.0))["status"] == "reproduced"


def test_upper_bound_below_the_bound_differs():
    assert _verdict(tables.lower_bounds(_frame([10.0, 20.0], 4), bound=30.0))["status"] == "differs"


def test_one_seed_is_not_evaluated():
    table = tables.lower_bounds(_frame([10.0, 20.0], 1), bound=5.0)
    assert np.isnan(table["max_upper95"].iloc[0])
    assert _verdict(table)["status"] == "not evaluated"
