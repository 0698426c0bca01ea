"""The z² bootstrap's compiled binomial sampler (BTRS / inversion, causal_bandits.bandits.multinomial)."""

import numpy as np
import pytest
from scipy import stats

from causal_bandits.bandits.multinomial import multinomial

# inversion (n·min(p, 1−p) < 10) and BTRS on both sides of the switch, p > 1/2 drawn as n − Bin(n, 1 − p)
POINTS = [
    (5, 0.3),
    (30, 0.33),
    (31, 0.34),
    (100, 0.09),
    (100, 0.11),
    (40, 0.6),
    (1000, 0.95),
    (1000, 0.995),
    (9000, 0.2),
]


@pytest.mark.parametrize(("n", "p"), POINTS)
def test_binomial_draws_follow_the_exact_pmf(n, p):
    """Chi-square of 50,000 draws (fixed seed) against scipy's exact Bin(n, p) pmf, cells with an expected count
    under 5 pooled: a wrong constant in either algorithm moves p far below the threshold."""
    draws = multinomial(np.random.default_rng(7), np.full(50_000, n), np.array([p, 1 - p]))
    x = draws[:, 0]
    assert (draws.sum(axis=1) == n).all()
    expected = stats.binom.pmf(np.arange(n + 1), n, p) * x.size
    observed = np.bincount(x, minlength=n + 1)
    big = expected >= 5
    e = np.append(expected[big], expected[~big].sum())
    o = np.append(observed[big], observed[~big].sum())
    if e[-1] < 5:
        e, o = e[:-1], o[:-1]
    assert stats.chisquare(o, e * o.sum() / e.sum()).pvalue > 1e-3


def test_multinomial_vectors_sum_to_their_totals_and_follow_the_seed_stream():
    """Each vector sums to its total, empty cells stay empty, and the draws depend on the Generator alone (the same
    seed gives the same draws; another seed, others)."""
    p = np.array([0.5, 0.3, 0.0, 0.2])
    totals = np.array([0, 1, 7, 100, 5000])
    a = multinomial(np.random.default_rng(3), totals, p)
    assert (a.sum(axis=1) == totals).all() and (a[:, 2] == 0).all()
    np.testing.assert_array_equal(a, multinomial(np.random.default_rng(3), totals, p))
    assert not np.array_equal(a, multinomial(np.random.default_rng(4), totals, p))
