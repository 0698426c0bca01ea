"""The z² bootstrap's compiled binomial sampler (BTRS / inversion, causal_bandits.bandits.multinomial)."""

import numpy as np
import pytest
from scipy import stats

from causal_bandits.bandits.multinomial import _step, multinomial, pcg64_state, set_pcg64_state

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


@pytest.mark.parametrize("seed", [0, [7, 2**32 - 1, 12345, 99], 2**63 + 11])
def test_the_samplers_pcg64_stream_is_numpys_bit_for_bit(seed):
    """The compiled PCG64 step, from a Generator's state words, gives ``Generator.random``'s doubles exactly (the
    low word's carry and the 128-bit product are exercised by 20,000 steps), and the words put back into a Generator
    continue the same stream."""
    gen = np.random.default_rng(seed)
    hi, lo, inc_hi, inc_lo = pcg64_state(gen)
    ours = np.empty(20_000)
    for i in range(ours.size):
        ours[i], hi, lo = _step(np.uint64(hi), np.uint64(lo), inc_hi, inc_lo)
    np.testing.assert_array_equal(ours, gen.random(20_000))
    other = np.random.default_rng(1)
    set_pcg64_state(other, np.array([hi, lo, inc_hi, inc_lo], dtype=np.uint64))
    np.testing.assert_array_equal(other.random(1_000), gen.random(1_000))


def test_multinomial_advances_its_generator_past_its_draws_and_refuses_other_bit_generators():
    """A second call on one Generator draws other vectors (the first advanced it), the ones a Generator set to the
    state the first call left draws; a Generator on another bit generator is refused, not silently drawn from
    another stream."""
    p, totals = np.array([0.2, 0.5, 0.3]), np.array([40, 900, 3])
    gen = np.random.default_rng(5)
    first = multinomial(gen, totals, p)
    left = np.random.default_rng(0)
    set_pcg64_state(left, pcg64_state(gen))
    second = multinomial(gen, totals, p)
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(second, multinomial(left, totals, p))
    with pytest.raises(ValueError, match="PCG64"):
        multinomial(np.random.Generator(np.random.MT19937(1)), totals, p)
