"""cpe algorithms: estimators against their formulas, stopping rules, δ-PAC on easy instances,
chunk invariance, censoring, the parallel bandit's plan, the constant profiles and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from cpe_helpers import run_to_stop

from causal_bandits.algorithms import registry
from causal_bandits.bandits import engine
from causal_bandits.bandits.bglm_estimate import BGLMCounts, fit
from causal_bandits.bandits.bglm_model import _sigma_enumerated, _sigma_two_layer, sigma
from causal_bandits.bandits.ccpe_bglm import ALPHA_O as BGLM_ALPHA_O
from causal_bandits.bandits.ccpe_bglm import CCPEBGLM
from causal_bandits.bandits.ccpe_general import CCPEGeneral, observational_intervals
from causal_bandits.bandits.ccpe_loop import interventional_intervals, merge_intervals, most_pulls, record_pulls
from causal_bandits.bandits.ccpe_naive import NaiveCCPE
from causal_bandits.bandits.count_tables import CountTables, _estimates
from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.bandits.environments import ContextFree
from causal_bandits.bandits.lucb import LUCB
from causal_bandits.bandits.parallel_bandit import ParallelBandit, observation_threshold
from causal_bandits.bandits.pure_exploration import RadiusTable, check_sample_cap, interventional_radius
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.bandits.successive_elimination import SuccessiveElimination
from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe import environment
from causal_bandits.papers.cpe import families as F
from causal_bandits.papers.cpe.actions import actions_up_to, atomic_actions
from causal_bandits.papers.cpe.admissible import adjustment_sequence, is_admissible, parent_sequence
from causal_bandits.papers.cpe.design import Job
from causal_bandits.papers.cpe.environment import CPEEnvironment
from causal_bandits.papers.cpe.instance import CPEInstance, bglm_structure, bglm_theta, policy_arms
from causal_bandits.papers.cpe.quantities import bglm_constants
from causal_bandits.papers.cpe.recorders import IntervalCoverage, RecommendationTrace, checkpoints
from causal_bandits.papers.cpe.runs import policy as run_policy
from causal_bandits.papers.cpe.scm import BinarySCM, Mechanism, bernoulli
from causal_bandits.scm.cpt import configurations


def _instance(scm: BinarySCM, actions, sequences, **bglm) -> CPEInstance:
    assert all(is_admissible(scm, seq) for seq in sequences if seq is not None)
    mu = np.array([scm.interventional_mean(a.as_dict()) for a in actions])
    return CPEInstance("test", {}, scm, tuple(actions), tuple(sequences), mu, mu.copy(), **bglm)


def confounded_pair() -> CPEInstance:
    """Hidden U -> X1, X2; Y <- X1, X2. Gaps >= 0.15; Z = the other X (an adjustment set)."""
    m = {
        "U": bernoulli(0.5),
        "X1": Mechanism("linear", ("U",), (0.6,), intercept=0.2),
        "X2": Mechanism("linear", ("U",), (0.6,), intercept=0.2),
        "Y": Mechanism("linear", ("X1", "X2"), (0.5, 0.3), intercept=0.1),
    }
    scm = BinarySCM(("U", "X1", "X2", "Y"), m, frozenset({"U"}))
    acts = atomic_actions(["X1", "X2"])
    seqs = [None] + [adjustment_sequence(a.S, [v for v in ("X1", "X2") if v not in a.S]) for a in acts[1:]]
    return _instance(scm, acts, seqs)


def chain() -> CPEInstance:
    """X1 -> X2 -> X3 -> Y, X1 -> X3, X1 -> Y: combinatorial arms with non-empty Z_2 (Theorem 4)."""
    m = {
        "X1": bernoulli(0.4),
        "X2": Mechanism("linear", ("X1",), (0.5,), intercept=0.2),
        "X3": Mechanism("linear", ("X1", "X2"), (0.3, 0.4), intercept=0.1),
        "Y": Mechanism("linear", ("X1", "X2", "X3"), (0.2, 0.1, 0.5), intercept=0.1),
    }
    scm = BinarySCM(("X1", "X2", "X3", "Y"), m)
    acts = actions_up_to(["X1", "X2", "X3"], 2)
    return _instance(scm, acts, [parent_sequence(scm, a.S) if a.S else None for a in acts])


def correct(instance, recommended):
    return instance.mu.max() - instance.mu[recommended] <= 1e-12


# -- estimators against their formulas -----------------------------------------------------------


def _literal_eq10(values, y, arm, seq):
    """Eq. (10)'s plug-in written out with loops over z, from the raw observations."""
    order, blocks = seq
    s = dict(arm)
    Z = [z for b in blocks for z in b]
    total, T = 0.0, []
    for z in configurations(len(Z)):
        zv = dict(zip(Z, z))
        rows = np.all([values[:, c] == s[c] for c in order] + [values[:, c] == zv[c] for c in Z], axis=0)
        T.append(rows.sum())
        if not rows.sum():
            return 0.0, 0
        term = y[rows].mean()
        for l, block in enumerate(blocks):
            if not block:
                continue
            prefix = [c for b in blocks[:l] for c in b]
            cond = np.all(
                [np.ones(len(y), bool)]
                + [values[:, c] == s[c] for c in order[:l]]
                + [values[:, c] == zv[c] for c in prefix],
                axis=0,
            )
            num = cond & np.all([values[:, c] == zv[c] for c in block], axis=0)
            term *= num.sum() / cond.sum()
        total += term
    return total, min(T)


@pytest.mark.parametrize("make", [confounded_pair, chain, lambda: F.confounded(0.8)])
def test_count_tables_give_the_eq10_plug_in_exactly(make):
    instance = make()
    rng = np.random.default_rng(7)
    values = rng.integers(0, 2, size=(400, len(instance.scm.observed)))
    y = rng.integers(0, 2, size=400)
    tables = CountTables(instance.policy_arms(), instance.policy_sequences())
    counts, ysum = tables.empty(1)
    for j in range(len(y)):
        tables.add(counts, ysum, values[j : j + 1], y[j : j + 1].astype(float))
    mu, T = tables.estimates(counts, ysum)
    for a, (arm, seq) in enumerate(zip(instance.policy_arms(), instance.policy_sequences())):
        want, want_T = (0.0, 0) if seq is None else _literal_eq10(values, y, arm, seq)
        assert T[0, a] == want_T
        assert mu[0, a] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("make", [confounded_pair, chain, lambda: F.confounded(0.8), lambda: F.parallel(8)])
def test_a_block_counts_what_its_rows_count_one_by_one(make):
    """add_block's compiled pass leaves the counts and reward sums that L calls of add leave, seed by seed; only
    rewards of 1 count as hits."""
    instance = make()
    tables = CountTables(instance.policy_arms(), instance.policy_sequences())
    rng = np.random.default_rng(11)
    values = rng.integers(0, 2, size=(5, 37, len(instance.scm.observed)))
    rewards = rng.integers(0, 2, size=(5, 37)).astype(float)
    block, by_row = tables.empty(5), tables.empty(5)
    tables.add_block(*block, values, rewards)
    for r in range(37):
        tables.add(*by_row, values[:, r], rewards[:, r])
    assert np.array_equal(block[0], by_row[0]) and np.array_equal(block[1], by_row[1])
    assert block[0].sum() == 5 * 37 * len(tables.strata.offsets) and 0 < block[1].sum() < block[0].sum()


@pytest.mark.parametrize("make", [lambda: F.parallel(8), lambda: F.bglm(3), lambda: F.parallel_max(4, 0.2)])
def test_refresh_after_each_observation_equals_the_full_estimates_bit_for_bit(make):
    """Whole arms (Z_a = ∅): redoing only the arms whose cell an observation changed (CCPE-General, the naive
    ablation) gives exactly the numbers of recomputing every arm, seed by seed."""
    instance = make()
    arms = instance.policy_arms()
    tables = CountTables(arms, [None, *instance.policy_sequences()[1:]])
    assert tables.whole_arms
    env, rng = CPEEnvironment(instance), np.random.default_rng(5)
    counts, ysum = tables.empty(6)
    mu, T = tables.estimates(counts, ysum)
    for _ in range(60):
        rewards, values = env.pull(1, None, np.zeros(6, dtype=np.int64), rng.random((6, env.noise_width)))
        tables.refresh(counts, ysum, mu, T, tables.add(counts, ysum, values, rewards))
        full_mu, full_T = tables.estimates(counts, ysum)
        assert np.array_equal(T, full_T) and mu.tobytes() == full_mu.tobytes()
    assert (T > 0).any()
    with pytest.raises(ValueError, match="whole arms"):
        CountTables(F.confounded(0.8).policy_arms(), F.confounded(0.8).policy_sequences()).refresh(
            counts, ysum, mu, T, None
        )


def _estimates_by_arrays(counts, ysum, pair_cell, ratios, factors, n_factors, arms, starts, n_arms):
    """Eq. (10) as whole-array numpy: the expression the compiled ``_estimates`` replaced (a padded factor is 1)."""
    mu, T = np.zeros((counts.shape[0], n_arms)), np.zeros((counts.shape[0], n_arms), dtype=np.int64)
    pad = np.arange(factors.shape[1]) >= n_factors[:, None]
    num, den = ratios[factors, 0], ratios[factors, 1]
    T_pair = counts[:, pair_cell]
    with np.errstate(divide="ignore", invalid="ignore"):
        term = ysum[:, pair_cell] / T_pair
        for f in range(factors.shape[1]):
            term = term * np.where(pad[:, f], 1.0, counts[:, num[:, f]] / counts[:, den[:, f]])
    T_arm = np.minimum.reduceat(T_pair, starts, axis=1)
    T[:, arms] = T_arm
    mu[:, arms] = np.where(T_arm > 0, np.add.reduceat(term, starts, axis=1), 0.0)
    return mu, T


def test_the_compiled_estimates_are_the_array_expression_bit_for_bit():
    """Random tables (zero counts in half the cells, so inf and NaN terms and T_a = 0 too), 0-3 factors per pair and
    arms of 1 to 300 pairs: the same (μ̂, T) bytes as numpy's, whose sum per arm (``np.add.reduceat``) is its first
    term plus the pairwise sum of the rest, an order that changes the bits past 8 terms and again past 128."""
    rng = np.random.default_rng(11)
    n_seeds, n_cells, n_ratios = 5, 200, 80
    counts = rng.integers(1, 60, (n_seeds, n_cells))
    counts[:, 100:][rng.random((n_seeds, 100)) < 0.3] = 0  # cells 100-199 are sometimes empty, 0-99 never
    ysum = rng.integers(0, counts + 1)
    lengths = [1, 2, 3, 7, 8, 9, 10, 16, 17, 40, 128, 129, 130, 137, 200, 257, 300, 4, 12, 150]
    n_arms = 2 * len(lengths) + 3
    arms = np.sort(rng.choice(np.arange(1, n_arms), 2 * len(lengths), replace=False))
    starts = np.cumsum([0, *lengths, *lengths])[:-1]
    n_pairs = 2 * sum(lengths)
    dirty = np.repeat(np.arange(2 * len(lengths)) >= len(lengths), [*lengths, *lengths])  # the second copy
    ratios = rng.integers(0, np.repeat([100, n_cells], n_ratios // 2)[:, None], (n_ratios, 2))  # the first half clean
    pair_cell = rng.integers(0, np.where(dirty, n_cells, 100))
    factors = rng.integers(0, np.where(dirty, n_ratios, n_ratios // 2)[:, None], (n_pairs, 3))
    n_factors = rng.integers(0, 4, n_pairs)
    args = (counts, ysum, pair_cell, ratios, factors, n_factors, arms, starts, n_arms)
    mu, T = _estimates(*args)
    want_mu, want_T = _estimates_by_arrays(*args)
    assert T.tobytes() == want_T.tobytes() and mu.tobytes() == want_mu.tobytes()
    clean = arms[: len(lengths)]
    assert (T[:, clean] > 0).all() and np.isfinite(mu[:, clean]).all()  # every length summed, for every seed
    assert (T[:, arms[len(lengths) :]] == 0).any() and (mu[:, arms[len(lengths) :]] > 0).any()


@pytest.mark.parametrize("make", [confounded_pair, chain])
def test_observational_estimates_converge_to_the_do_means(make):
    """CCPE-General's O-estimate is unbiased for μ_a; the naive one for E[Y | S = s] (4 s.e.)."""
    instance = make()
    env = CPEEnvironment(instance)
    rng = np.random.default_rng(3)
    n = 40_000
    rewards, values = env.pull(1, None, np.zeros(n, dtype=np.int64), rng.random((n, env.noise_width)))
    tables = CountTables(instance.policy_arms(), instance.policy_sequences())
    counts, ysum = tables.empty(n)
    tables.add(counts, ysum, values, rewards)  # one observation per row: sum the rows afterwards
    mu, T = tables.estimates(counts.sum(axis=0, keepdims=True), ysum.sum(axis=0, keepdims=True))
    ok = T[0] > 0
    assert ok[1:].all()
    assert np.abs(mu[0, ok] - instance.mu[ok]).max() < 4 * 0.5 / np.sqrt(T[0, ok].min())


def test_sigma_table_and_enumeration_agree_and_equal_brute_force():
    instance = F.bglm(3)
    structure, arms = instance.bglm_structure(), instance.policy_arms()
    rng = np.random.default_rng(1)
    theta = [rng.normal(size=(5, *t.shape[1:])) for t in instance.bglm_theta()]
    np.testing.assert_allclose(
        _sigma_two_layer(theta, structure, arms), _sigma_enumerated(theta, structure, arms), atol=1e-12
    )
    np.testing.assert_allclose(sigma(instance.bglm_theta(), structure, arms)[0], instance.mu, atol=1e-15)


def test_sigma_on_a_deeper_bglm_equals_enumeration_of_the_scm():
    m = {
        "X1": bernoulli(1.0),
        "X2": Mechanism("logistic", ("X1",), (0.3,)),
        "X3": Mechanism("logistic", ("X1", "X2"), (-0.4, 1.1)),
        "Y": Mechanism("logistic", ("X1", "X2", "X3"), (-0.2, 0.7, -1.3)),
    }
    scm = BinarySCM(("X1", "X2", "X3", "Y"), m)
    acts = actions_up_to(["X2", "X3"], 2)
    structure = bglm_structure(scm, "X1", "logistic")
    assert not structure.is_two_layer
    got = sigma(bglm_theta(scm, "X1"), structure, policy_arms(scm, acts))[0]
    np.testing.assert_allclose(got, [scm.interventional_mean(a.as_dict()) for a in acts], atol=1e-12)


@pytest.mark.parametrize("link_name", ["logistic", "linear"])
def test_bglm_estimate_recovers_theta_from_expected_counts(link_name):
    """Algorithm 2 with λ = 0 on counts proportional to the exact distribution returns θ* itself."""
    kind = "logistic" if link_name == "logistic" else "linear"
    weights = {"logistic": ((0.4,), (-0.5, 0.9, -0.7)), "linear": ((0.4,), (0.2, 0.5, 0.25))}[link_name]
    m = {
        "X1": bernoulli(1.0),
        "X2": Mechanism(kind, ("X1",), weights[0]),
        "Y": Mechanism(kind, ("X1", "X2", "X3"), weights[1]),
        "X3": Mechanism(kind, ("X1",), (0.5 if kind == "linear" else 0.0,)),
    }
    scm = BinarySCM(("X1", "X2", "X3", "Y"), m)
    structure = bglm_structure(scm, "X1", link_name)
    tables = BGLMCounts(structure)
    counts, ones = tables.empty(1)
    names, configs, prob = scm.joint()
    obs = [names.index(v) for v in scm.observed]
    for c, p in zip(configs, prob):  # weight every configuration by 10^6 · P(config)
        values, y = c[obs][None, :], np.array([float(c[names.index("Y")])])
        before = counts.copy(), ones.copy()
        tables.add(counts, ones, values, y)
        counts = before[0] + (counts - before[0]) * p * 1e6
        ones = before[1] + (ones - before[1]) * p * 1e6
    start = [np.zeros_like(t) for t in bglm_theta(scm, "X1")]
    got = fit(start, tables, counts, ones, ridge=0.0)
    for g, want in zip(got, bglm_theta(scm, "X1")):
        np.testing.assert_allclose(g, want, atol=1e-8)


def _merged_by_arrays(LO, UO, LI, UI, N, epsilon):
    """Step 3 and lines 4-5 as whole-array numpy expressions (the loop's definition)."""
    L, U = np.maximum(LO, LI), np.minimum(UO, UI)
    empty = L > U
    L = np.where(empty, np.where(N > 0, LI, LO), L)
    U = np.where(empty, np.where(N > 0, UI, UO), U)
    finite = np.isfinite(L) & np.isfinite(U)
    mu = np.where(finite, (np.where(finite, L, 0.0) + np.where(finite, U, 0.0)) / 2.0, 0.0)
    rows = np.arange(L.shape[0])
    best = mu.argmax(axis=1)
    masked = U.copy()
    masked[rows, best] = -np.inf
    challenger = masked.argmax(axis=1)
    return L, U, mu, empty.sum(axis=1), best, challenger, U[rows, challenger] <= L[rows, best] + epsilon


def test_the_compiled_interval_passes_are_the_array_expressions_bit_for_bit():
    """merge_intervals (Step 3, h and l) and CCPE-General's observational_intervals give the bytes of the array
    expressions, with ties, empty intersections, infinite and NaN ends and T_a = 0 among the cases."""
    rng = np.random.default_rng(7)
    n, k = 400, 12
    grid = np.round(rng.uniform(-1.0, 2.0, (4, n, k)), 1)  # coarse: ties, empty intersections, both signs of zero
    LO, UO, LI, UI = grid
    LO[rng.random((n, k)) < 0.15], UI[rng.random((n, k)) < 0.15] = -np.inf, np.inf
    LI[rng.random((n, k)) < 0.05], UO[rng.random((n, k)) < 0.05] = np.inf, -np.inf
    LI[rng.random((n, k)) < 0.02], UO[rng.random((n, k)) < 0.02] = np.nan, np.nan
    N = rng.integers(0, 3, (n, k))
    want = _merged_by_arrays(LO, UO, LI, UI, N, 0.05)
    L, U, mu = np.empty((n, k)), np.empty((n, k)), np.empty((n, k))
    empty, best, challenger, closed = (
        np.zeros(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, bool),
    )
    merge_intervals(LO, UO, LI, UI, N, 0.05, L, U, mu, empty, best, challenger, closed)
    for got, expected in zip((L, U, mu, empty, best, challenger, closed), want):
        assert got.tobytes() == expected.tobytes()
    assert want[3].sum() > 0 and (best != challenger).all()  # the cases were met

    # rows without an empty intersection take the one-pass path: ties, NaN and infinite ends, and rows whose upper
    # ends are all −∞ (l falls back to index 0), or NaN at h and −∞ elsewhere, or NaN at h, at one other and −∞
    lower, upper = np.round(rng.uniform(-1.0, 0.5, (2, n, k)), 1), np.round(rng.uniform(0.5, 2.0, (2, n, k)), 1)
    LO, LI, UO, UI = lower[0], lower[1], upper[0], upper[1]
    LO[rng.random((n, k)) < 0.15], UI[rng.random((n, k)) < 0.15] = -np.inf, np.inf
    UO[rng.random((n, k)) < 0.03], LI[rng.random((n, k)) < 0.03] = np.nan, np.nan
    LO[:3], LI[:3], UO[:3] = -np.inf, -np.inf, -np.inf
    UO[1, 0], UO[2, [0, 3]] = np.nan, np.nan
    want = _merged_by_arrays(LO, UO, LI, UI, N, 0.05)
    empty[:] = 0
    merge_intervals(LO, UO, LI, UI, N, 0.05, L, U, mu, empty, best, challenger, closed)
    for got, expected in zip((L, U, mu, empty, best, challenger, closed), want):
        assert got.tobytes() == expected.tobytes()
    assert want[3].sum() == 0 and np.isnan(U).any(axis=1).sum() > n // 4 and (challenger[:3] == [0, 0, 3]).all()

    mu_O, T = rng.uniform(0.0, 1.0, (n, k)), rng.integers(0, 4, (n, k))
    log_term = rng.uniform(1.0, 9.0, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        radius = np.where(T > 0, 8.0 * np.sqrt(log_term / T), np.inf)
    lower, upper = np.empty((n, k)), np.empty((n, k))
    observational_intervals(mu_O, T, log_term, 8.0, lower, upper)
    assert lower.tobytes() == (mu_O - radius).tobytes() and upper.tobytes() == (mu_O + radius).tobytes()


def test_the_compiled_interventional_step_is_the_array_expression_bit_for_bit():
    """record_pulls and interventional_intervals (radii from a RadiusTable) give the bytes of the array expressions
    they replaced, with unpulled arms (N = 0) and an arm that is both do() and l or h among the cases."""
    rng = np.random.default_rng(3)
    n, k, delta, alpha = 50, 9, 0.01, 1.5
    N, YI = rng.integers(0, 40, (n, k)), rng.uniform(0.0, 30.0, (n, k))
    N[rng.random((n, k)) < 0.2] = 0
    YI[N == 0] = 0.0
    arms, y = rng.integers(0, k, n), rng.integers(0, 2, n).astype(float)
    want_N, want_YI = N.copy(), YI.copy()
    want_N[np.arange(n), arms] += 1
    want_YI[np.arange(n), arms] += y
    record_pulls(N, YI, arms, y)
    assert N.tobytes() == want_N.tobytes() and YI.tobytes() == want_YI.tobytes()

    LI, UI = rng.uniform(-1.0, 0.0, (n, k)), rng.uniform(1.0, 2.0, (n, k))
    best, challenger = rng.integers(0, k, n), rng.integers(1, k, n)
    touched, rows = np.stack([np.zeros(n, dtype=np.int64), challenger, best], axis=1), np.arange(n)[:, None]
    want_LI, want_UI, Nt = LI.copy(), UI.copy(), N[rows, touched]
    mean = np.where(Nt > 0, YI[rows, touched] / np.maximum(Nt, 1), 0.0)
    radius = interventional_radius(Nt, k, delta, alpha)
    want_LI[rows, touched], want_UI[rows, touched] = mean - radius, mean + radius
    table = RadiusTable(k, delta, alpha, size=8).covering(most_pulls(N, challenger, best))
    interventional_intervals(N, YI, challenger, best, table, LI, UI)
    assert LI.tobytes() == want_LI.tobytes() and UI.tobytes() == want_UI.tobytes()
    assert (Nt == 0).any() and (best == 0).any() and most_pulls(N, challenger, best) == Nt.max()


# -- stopping rules ------------------------------------------------------------------------------


class TwoArms(ContextFree):
    """A deterministic toy environment: arm 0 pays 1, arm 1 pays 0."""

    n_arms, noise_width = 2, 1
    means = np.array([[1.0, 0.0]])

    def pull(self, t, contexts, arms, noise, observe=None):
        return (arms == 0).astype(float), np.zeros((arms.size, 0), dtype=np.int64)


@pytest.mark.parametrize("profile,alpha", [("practical", 1.0), ("theory", 2.0)])
def test_lucb_stops_exactly_when_the_radii_separate(profile, alpha):
    """With means 1 and 0 and n pulls each, LUCB stops at the first n with β_I(n) <= 1/2."""
    n = next(n for n in range(1, 10**6) if interventional_radius(n, 2, 0.05, alpha) <= 0.5)
    result = run_to_stop(LUCB(profile=profile), TwoArms(), seeds=[0, 1], horizon=10**6)
    assert result.samples.tolist() == [2 * n, 2 * n]
    assert result.recommended.tolist() == [0, 0]
    assert result.diagnostics["iterations"].tolist() == [n - 1, n - 1]


def test_radius_table_gives_the_radius_function_bit_for_bit_as_it_grows():
    table = RadiusTable(5, 0.05, 1.0, size=4)
    for N in (np.array([[0, 1], [3, 2]]), np.array([7, 1000, 3]), np.arange(5000)):
        np.testing.assert_array_equal(table(N), interventional_radius(N, 5, 0.05, 1.0))


def test_successive_elimination_stops_when_one_arm_is_left():
    r = next(
        r
        for r in range(1, 10**6)
        if 1.0 - interventional_radius(r, 2, 0.05, 1.0) > interventional_radius(r, 2, 0.05, 1.0)
    )
    result = run_to_stop(SuccessiveElimination(), TwoArms(), seeds=[5], horizon=10**6)
    assert result.samples.tolist() == [2 * r] and result.recommended.tolist() == [0]


ALGORITHMS = {
    "CCPE-General": lambda inst: CCPEGeneral(inst.policy_arms(), inst.policy_sequences()),
    "CCPE-General theory": lambda inst: CCPEGeneral(inst.policy_arms(), inst.policy_sequences(), profile="theory"),
    "LUCB": lambda inst: LUCB(),
    "LUCB1-KK12": lambda inst: LUCB(radius="kk12"),
    "SE": lambda inst: SuccessiveElimination(),
}


PAC_CASES = [(name, confounded_pair) for name in ALGORITHMS] + [("CCPE-General", chain), ("LUCB", chain)]


@pytest.mark.parametrize("name,make", PAC_CASES, ids=[f"{n}-{m.__name__}" for n, m in PAC_CASES])
def test_each_algorithm_stops_and_is_delta_pac_on_an_easy_instance(name, make):
    instance = make()
    result = run_to_stop(
        ALGORITHMS[name](instance), CPEEnvironment(instance), seeds=range(30), horizon=2_000_000, experiment="pac"
    )
    assert not result.censored.any()
    assert correct(instance, result.recommended).sum() >= 27  # δ = 0.05: at most 1.5 errors expected


def test_ccpe_bglm_stops_and_is_delta_pac_on_e4_k2():
    instance = F.bglm(2)
    policy = CCPEBGLM(instance.policy_arms(), instance.bglm_structure())
    result = run_to_stop(policy, CPEEnvironment(instance), seeds=range(24), horizon=2_000_000, experiment="pac")
    assert not result.censored.any()
    assert correct(instance, result.recommended).sum() >= 21
    assert (result.samples >= 3 * 10 * 3).all()  # practical burn-in t_0 = 10 D, D = 3
    assert (result.samples % 3 == 0).all()


def test_parallel_bandit_with_a_large_budget_finds_the_best_arm():
    instance = F.parallel(4)
    result = run_to_stop(
        ParallelBandit(instance.policy_arms(), budget=8000), CPEEnvironment(instance), seeds=range(16), horizon=8000
    )
    assert not result.censored.any() and correct(instance, result.recommended).all()


@pytest.mark.parametrize(
    "make, budget, stops",
    [
        (lambda: F.rare(2, 0.5, n=4, p_rare=0.05), 1001, 1),
        (lambda: F.parallel(8), 3000, 1),
        (lambda: F.bglm(3), 2222, 3),
    ],
)
@pytest.mark.parametrize("serve", ["windows", "blocks", "blocks to round-by-round recorders"])
def test_parallel_bandit_in_blocks_is_the_parallel_bandit_round_by_round(make, budget, stops, serve):
    """Served in blocks (step 1 whole, step 3 until some seed's arm changes, each cut at the engine's BLOCK) or in the
    same rounds as compiled windows (the node program's whole rows), the parallel bandit leaves every summary column,
    its recommendations at checkpoints inside blocks among them, and every regret trace as round by round: with A′
    empty (every seed stops at ⌊T/2⌋, parallel(8)) and seeds that stop in ``stops`` different rounds. Where every
    recorder takes windows, a block's inner rounds reach them as windows cut at the checkpoints; else a recorder that
    does not (the μ̂ watcher, which also turns the policy's windows off) has them round by round."""
    instance = make()

    class Estimates:
        """Each seed's μ̂ (all arms) in the round it stops."""

        def start(self, seeds, horizon, env, policy):
            self.policy, self.mu = policy, {}

        def record(self, step):
            for row, mu in zip(step.rows[step.stopped], self.policy._mu[step.stopped]):
                self.mu[int(row)] = mu.tobytes()

        def finish(self):
            return None, {}, {}

    played = []

    def run(served: str):
        policy = ParallelBandit(instance.policy_arms(), budget=budget)
        if served == "rounds":
            policy.block = lambda t: 1
        elif served == "blocks":
            policy.window = lambda t: 1
        else:
            play = policy.play_window
            policy.play_window = lambda t, length, draws: played.append(length) or play(t, length, draws)
        grid = np.unique(np.r_[np.arange(1, budget, 97), budget // 2, budget // 2 + 1, budget])
        estimates = Estimates()
        recorders = [RegretTrace(grid), RecommendationTrace(checkpoints(budget, first=50))]
        result = run_to_stop(
            policy,
            CPEEnvironment(instance),
            seeds=range(9),
            horizon=budget,
            recorders=[*recorders, estimates]
            if served in ("rounds", "blocks to round-by-round recorders")
            else recorders,
        )
        return result, getattr(estimates, "mu", None)  # None: not watching

    (by_round, mu_by_round), (by_block, mu_by_block) = run("rounds"), run(serve)
    assert bool(played) == (serve == "windows")
    assert len(set(by_round.samples.tolist())) == stops
    assert by_round.summary.keys() == by_block.summary.keys()
    assert any(key.startswith("cpe_rec_") for key in by_block.summary)
    for key, value in by_round.summary.items():
        assert value.tobytes() == by_block.summary[key].tobytes(), key
    watched = serve == "blocks to round-by-round recorders"
    assert len(mu_by_round) == 9 and mu_by_block == (mu_by_round if watched else None)


@pytest.mark.parametrize(
    "make, stops",
    [(lambda: F.parallel(4), True), (lambda: F.bglm(3), True), (lambda: F.parallel_max(20, 0.5), False)],
)
@pytest.mark.parametrize("algorithm", ["lucb", "se"])
@pytest.mark.parametrize("window", [7, 4096])
def test_windows_are_the_stopping_policies_round_by_round(monkeypatch, make, stops, algorithm, window):
    """Played in windows (one compiled pass per window, drawn with the environment's node program), LUCB and
    successive elimination leave every summary column (stopping rounds, recommendations, diagnostics, checkpoints
    inside and at the ends of windows, censoring at the cap) and every regret trace as round by round: on table
    nodes, a BGLM graph and a max node over 20 parents (every seed censored), with windows cut short and long."""
    instance = make()
    env = CPEEnvironment(instance)
    assert env.node_program() is not None
    horizon = 20000

    def run(windows: bool):
        policy = LUCB() if algorithm == "lucb" else SuccessiveElimination()
        played = []
        if windows:
            play = policy.play_window
            policy.play_window = lambda t, length, draws: played.append(length) or play(t, length, draws)
        else:
            policy.window = lambda t: 1
        grid = np.unique(np.r_[np.arange(1, horizon, 89), 2, horizon])
        recorders = [RegretTrace(grid), RecommendationTrace(checkpoints(horizon, first=40))]
        result = run_to_stop(policy, env, seeds=range(12), horizon=horizon, recorders=recorders)
        return result, played

    by_round, _ = run(False)
    monkeypatch.setattr(engine, "WINDOW", window)
    by_window, played = run(True)
    assert played and max(played) <= window  # windows were played
    if stops:  # seeds stop in many rounds (inside windows), some are censored at the cap or none
        assert len(set(by_round.samples.tolist())) > 5
    else:
        assert by_round.censored.all()
    assert by_round.summary.keys() == by_window.summary.keys()
    for key, value in by_round.summary.items():
        assert value.tobytes() == by_window.summary[key].tobytes(), key


def test_a_node_drawn_from_its_mechanism_turns_windows_off(monkeypatch):
    """A node with more parents than a table holds and no max mechanism is drawn between compiled passes: the
    environment then serves no node program, and LUCB goes round by round."""
    monkeypatch.setattr(environment, "TABLE_PARENTS", 2)
    env = CPEEnvironment(F.bglm(3))
    assert env.node_program() is None
    policy = LUCB()
    policy.play_window = None  # would fail if called
    result = run_to_stop(policy, env, seeds=range(3), horizon=3000)
    assert result.samples.size == 3


def test_parallel_bandit_follows_its_plan():
    """Recompute q̂, m̂ and A′ from the observations the policy saw: phase 2 plays exactly A′ in arm
    order, ⌊(T − ⌊T/2⌋)/|A′|⌋ times each, and the output is the argmax of the mixed estimates."""
    instance = F.rare(2, 0.5, n=4, p_rare=0.05)
    budget, seeds = 1001, [0, 1, 2]
    played, seen = [], []

    class Recording(CPEEnvironment):
        def pull(self, t, contexts, arms, noise, observe=None):
            rewards, values = super().pull(t, contexts, arms, noise)
            played.append(arms.copy())
            seen.append((rewards.copy(), values.copy()))
            return rewards, values

    policy = ParallelBandit(instance.policy_arms(), budget=budget)
    policy.block = lambda t: 1  # round by round, so that every pull is one round (blocks: the next test)
    result = run_to_stop(policy, Recording(instance), seeds=seeds, horizon=budget)
    half = budget // 2
    for i in range(len(seeds)):
        y = np.array([seen[t][0][i] for t in range(half)])
        x = np.array([seen[t][1][i] for t in range(half)])
        T = np.array([half] + [(x[:, c] == v).sum() for ((c, v),) in instance.policy_arms()[1:]])
        q = T / half
        m = observation_threshold(q)[0]
        chosen = np.flatnonzero(q * m <= 1 + 1e-12)
        per = (budget - half) // len(chosen)
        arms_i = [played[t][i] for t in range(half, half + per * len(chosen))]
        assert arms_i == [a for a in chosen for _ in range(per)]
        assert result.samples[i] == half + per * len(chosen)
        mu = np.array(
            [y.mean()]
            + [y[x[:, c] == v].mean() if T[a + 1] else 0.0 for a, ((c, v),) in enumerate(instance.policy_arms()[1:])]
        )
        rewards_i = np.array([seen[t][0][i] for t in range(half, half + per * len(chosen))])
        for j, a in enumerate(chosen):
            mu[a] = rewards_i[j * per : (j + 1) * per].mean()
        assert result.recommended[i] == int(mu.argmax())
    assert {instance.labels[a] for a in chosen} >= {"do(X2=1)", "do(X3=1)"}  # the rare arms are in A′


# -- chunk invariance and censoring --------------------------------------------------------------

CHUNKED = {
    "CCPE-General": (confounded_pair, lambda inst: CCPEGeneral(inst.policy_arms(), inst.policy_sequences())),
    "naive": (confounded_pair, lambda inst: NaiveCCPE(inst.policy_arms())),
    "CCPE-BGLM": (lambda: F.bglm(2), lambda inst: CCPEBGLM(inst.policy_arms(), inst.bglm_structure())),
    "LUCB": (confounded_pair, lambda inst: LUCB()),
    "LUCB1-KK12": (confounded_pair, lambda inst: LUCB(radius="kk12")),
    "SE": (confounded_pair, lambda inst: SuccessiveElimination()),
    "PB": (lambda: F.rare(2, 0.5, n=4, p_rare=0.05), lambda inst: ParallelBandit(inst.policy_arms(), budget=3000)),
}


@pytest.mark.parametrize("name", list(CHUNKED))
def test_results_do_not_depend_on_the_chunking_of_seeds(name):
    make, policy = CHUNKED[name]
    instance = make()
    horizon = 3000 if name == "PB" else 2_000_000
    whole = run_to_stop(policy(instance), CPEEnvironment(instance), seeds=range(8), horizon=horizon)
    parts = [
        run_to_stop(policy(instance), CPEEnvironment(instance), seeds=s, horizon=horizon, block=97)
        for s in (range(4), range(4, 8))
    ]
    for field in ("samples", "recommended", "censored"):
        assert getattr(whole, field).tolist() == np.concatenate([getattr(p, field) for p in parts]).tolist()
    for key, value in whole.diagnostics.items():
        np.testing.assert_array_equal(value, np.concatenate([p.diagnostics[key] for p in parts]))
    assert len(set(whole.samples.tolist())) > 1 or name == "PB"  # seeds really stop at different times


def test_censored_seeds_are_recorded_at_the_cap_and_the_others_at_their_stop():
    instance = confounded_pair()
    make = ALGORITHMS["CCPE-General"]
    free = run_to_stop(make(instance), CPEEnvironment(instance), seeds=range(10), horizon=2_000_000)
    cap = int(np.median(free.samples))
    capped = run_to_stop(make(instance), CPEEnvironment(instance), seeds=range(10), horizon=cap)
    stopped = free.samples <= cap
    assert 0 < stopped.sum() < 10
    assert capped.censored.tolist() == (~stopped).tolist()
    assert capped.samples.tolist() == np.where(stopped, free.samples, cap).tolist()
    assert capped.recommended[stopped].tolist() == free.recommended[stopped].tolist()
    assert set(capped.recommended.tolist()) <= set(range(instance.n_arms))
    assert (free.samples % 3 == 0).all()
    assert (free.diagnostics["iterations"] * 3 == free.samples).all()


def test_lucb_and_se_count_their_samples():
    instance = chain()
    lucb = run_to_stop(LUCB(), CPEEnvironment(instance), seeds=range(4), horizon=2_000_000)
    assert (lucb.samples == instance.n_arms + 2 * lucb.diagnostics["iterations"]).all()
    se = run_to_stop(SuccessiveElimination(), CPEEnvironment(instance), seeds=range(4), horizon=2_000_000)
    assert (se.samples == se.diagnostics["n_int_samples"]).all()


# -- the environment ------------------------------------------------------------------------------


def test_environment_reports_interventions_and_samples_the_scm():
    instance = F.confounded(0.8)
    env = CPEEnvironment(instance)
    rng = np.random.default_rng(11)
    n = 20_000
    for a in (0, 5, 40, 98):
        rewards, values = env.pull(1, None, np.full(n, a), rng.random((n, env.noise_width)))
        for v, x in instance.actions[a].assignment:
            assert (values[:, instance.columns[v]] == x).all()
        assert abs(rewards.mean() - instance.mu[a]) < 4 * np.sqrt(0.25 / n)
    rewards, values = env.pull(1, None, np.zeros(n, dtype=np.int64), rng.random((n, env.noise_width)))
    agree = (values[:, 0] == values[:, 1]).mean()  # X1, X2 share U1: P(X1 = X2) = 0.5(0.9² + 0.1²)·2
    assert abs(agree - 0.82) < 4 * np.sqrt(0.25 / n)


def _ancestral_row(instance: CPEInstance, arm: int, u: np.ndarray) -> dict[str, int]:
    """One seed's round by the definition: in the SCM's order, each node its set value, else u_V < P(V = 1 | pa(V))
    from its mechanism, with u_V the node's uniform (declared node order)."""
    scm, fixed = instance.scm, dict(instance.actions[arm].assignment)
    x: dict[str, int] = {}
    for v in scm.order:
        mech = scm.mechanisms[v]
        p = mech.probability(np.array([[x[q] for q in mech.parents]], dtype=np.int64))[0] if mech.parents else None
        x[v] = fixed[v] if v in fixed else int(u[scm.nodes.index(v)] < (mech.intercept if p is None else p))
    return x


@pytest.mark.parametrize(
    "make",
    [
        lambda: F.parallel(8),  # E1
        lambda: F.rare(16, 0.5),  # E2: Y has 17 parents that matter, the largest table (2^17 entries)
        lambda: F.confounded(0.8),  # E3: hidden confounders
        lambda: F.bglm(3),  # E4: logistic layers
        lambda: F.parallel_max(32, 0.2),  # E5: a max mechanism over 32 parents, its own compiled pass
        confounded_pair,
    ],
)
def test_environment_draws_are_ancestral_sampling_row_by_row(make):
    """The compiled table passes and the mechanism steps between them draw, seed by seed, exactly what ancestral
    sampling from the mechanisms draws, interventions included."""
    instance = make()
    env, rng = CPEEnvironment(instance), np.random.default_rng(3)
    arms = np.concatenate([np.arange(instance.n_arms), rng.integers(0, instance.n_arms, 40)])
    noise = rng.random((len(arms), env.noise_width))
    rewards, values = env.pull(1, None, arms, noise)
    for row, (arm, u) in enumerate(zip(arms, noise)):
        x = _ancestral_row(instance, int(arm), u)
        assert rewards[row] == x[instance.scm.reward]
        assert values[row].tolist() == [x[v] for v in instance.scm.observed], (row, int(arm))


@pytest.mark.parametrize("make", [lambda: F.rare(16, 0.5), lambda: F.parallel_max(32, 0.2), lambda: F.parallel(8)])
def test_the_reward_is_drawn_against_its_mechanisms_probability_to_the_last_bit(make):
    """Y's uniform set to P(Y = 1 | pa) as the mechanism computes it (numpy) draws 0, one float below it draws 1:
    the table (E2 r16, E1) and the compiled max pass (E5) compare with that very number."""
    instance = make()
    env, rng = CPEEnvironment(instance), np.random.default_rng(7)
    scm = instance.scm
    arms = rng.integers(0, instance.n_arms, 300)
    noise = rng.random((arms.size, env.noise_width))
    _, values = env.pull(1, None, arms, noise)
    mech, uy = scm.mechanisms[scm.reward], scm.nodes.index(scm.reward)
    parents = values[:, [scm.observed.index(q) for q in mech.parents]]
    p = mech.probability(parents)
    assert p.min() > 0 and len(np.unique(p)) > 1
    noise[:, uy] = p
    assert (env.pull(1, None, arms, noise)[0] == 0).all()
    noise[:, uy] = np.nextafter(p, 0.0)
    assert (env.pull(1, None, arms, noise)[0] == 1).all()


# -- profiles and bad input ----------------------------------------------------------------------


def test_profiles_select_the_constants_of_the_spec_table():
    instance = F.bglm(3)
    theory = CCPEBGLM(
        instance.policy_arms(), instance.bglm_structure(), kappa=instance.kappa, eta=instance.eta, profile="theory"
    )
    c = bglm_constants(instance)
    assert theory.alpha_O == BGLM_ALPHA_O["theory"] == pytest.approx(6 * np.sqrt(2))
    assert pytest.approx(c.M1 * c.D**1.5 / (c.kappa * np.sqrt(c.eta))) == theory.K
    assert theory.alpha_I == 2.0 and theory.delta_internal == pytest.approx(0.025)
    practical = CCPEGeneral(instance.policy_arms(), instance.policy_sequences())
    assert (practical.alpha_O, practical.alpha_I, practical.delta_internal) == (1.0, 1.0, pytest.approx(0.01))
    assert CCPEGeneral(instance.policy_arms(), instance.policy_sequences(), profile="theory").alpha_O == 8.0


def _one_line_error(fn, *fragments):
    with pytest.raises(ConfigError) as excinfo:
        fn()
    message = str(excinfo.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: LUCB(**kw),
        lambda **kw: SuccessiveElimination(**kw),
        lambda **kw: CCPEGeneral(chain().policy_arms(), chain().policy_sequences(), **kw),
        lambda **kw: NaiveCCPE(chain().policy_arms(), **kw),
        lambda **kw: CCPEBGLM(F.bglm(2).policy_arms(), F.bglm(2).bglm_structure(), **kw),
    ],
)
def test_bad_settings_are_one_line_errors(make):
    _one_line_error(lambda: make(delta=1.5), "delta = 1.5", "(0, 1)")
    _one_line_error(lambda: make(delta=0.0), "delta = 0.0")
    _one_line_error(lambda: make(epsilon=-0.1), "epsilon = -0.1")
    _one_line_error(lambda: make(profile="fast"), "profile = 'fast'", "practical")


def test_a_sample_cap_below_the_number_of_arms_is_a_one_line_error():
    _one_line_error(lambda: check_sample_cap(50, 99), "T_max = 50", "at least 99")
    assert check_sample_cap(99, 99) == 99


# -- recorders ------------------------------------------------------------------------------------


def test_recommendation_trace_freezes_at_stopping_and_ends_with_the_output():
    instance = confounded_pair()
    grid = checkpoints(20_000, first=500)
    assert grid[:3].tolist() == [500, 708, 1000] and grid[-1] == 20_000
    result = run_to_stop(
        LUCB(), CPEEnvironment(instance), seeds=range(6), horizon=20_000, recorders=[RecommendationTrace(grid)]
    )
    run_trace = RecommendationTrace(grid)
    run = simulate(LUCB(), CPEEnvironment(instance), Streams("cpe", "test", np.arange(6)), 20_000, [run_trace])
    assert np.array_equal(run.summary["recommended"], result.recommended)
    rec = np.stack([run.summary[f"cpe_rec_{c}"] for c in grid], axis=1)
    assert rec[:, -1].tolist() == result.recommended.tolist()
    for i, stop in enumerate(result.samples):
        after = grid >= stop
        assert (rec[i, after] == result.recommended[i]).all()


def test_interval_coverage_is_clean_with_valid_radii_and_fires_with_tiny_ones():
    instance = confounded_pair()
    ok = run_to_stop(
        CCPEGeneral(instance.policy_arms(), instance.policy_sequences()),
        CPEEnvironment(instance),
        seeds=range(20),
        horizon=2_000_000,
        recorders=[IntervalCoverage()],
    )
    assert ok.summary["cpe_ci_violation"].mean() <= 0.1
    bad = run_to_stop(
        CCPEGeneral(instance.policy_arms(), instance.policy_sequences(), alpha_O=0.02, alpha_I=0.02),
        CPEEnvironment(instance),
        seeds=range(20),
        horizon=3000,
        recorders=[IntervalCoverage()],
    )
    assert bad.summary["cpe_ci_violation"].mean() >= 0.9


class _EveryRound(IntervalCoverage):
    """IntervalCoverage that checks the intervals in every round, recomputed or not."""

    def record(self, step):
        self._checked = -1
        super().record(step)


@pytest.mark.parametrize("policy", ["ccpe", "lucb"])
def test_interval_coverage_checks_only_new_intervals_with_the_same_flags(policy):
    """Skipping the rounds whose intervals the policy did not recompute gives the flags of a check in every round (tiny
    radii, so that many seeds are flagged, at different rounds)."""
    instance = confounded_pair()
    flags = []
    for recorder in (IntervalCoverage(), _EveryRound()):
        if policy == "ccpe":
            algorithm = CCPEGeneral(instance.policy_arms(), instance.policy_sequences(), alpha_O=0.3, alpha_I=0.3)
        else:
            algorithm = LUCB(alpha_I=0.3)
        run = run_to_stop(algorithm, CPEEnvironment(instance), seeds=range(40), horizon=3000, recorders=[recorder])
        flags.append(run.summary["cpe_ci_violation"])
    assert 0 < flags[0].sum() < flags[0].size
    assert flags[0].tolist() == flags[1].tolist()


def test_the_theory_profile_of_ccpe_bglm_needs_kappa_and_eta():
    instance = F.bglm(2)
    _one_line_error(
        lambda: CCPEBGLM(instance.policy_arms(), instance.bglm_structure(), profile="theory"), "kappa and eta"
    )


@pytest.mark.parametrize("algorithm", sorted(registry("cpe")))
def test_the_run_registry_builds_every_algorithm(algorithm):
    instance = F.bglm(2)
    job = Job(
        "E4",
        "k2",
        "T1000" if algorithm == "pb" else "theory",
        algorithm,
        2,
        "theory",
        budget=1000 if algorithm == "pb" else None,
    )
    policy = run_policy(job, instance, delta=0.05, epsilon=0.0)
    assert type(policy).__name__ in registry("cpe")[algorithm].path
    if algorithm == "lucb1":
        assert policy.radius == "kk12"


def test_tables_and_claims_list_algorithms_by_label_and_print_labels():
    """Keys are ids (``se``, ``naive``, ``pb``); readers see labels, in the labels' order (SE before naive,
    although ``naive`` sorts before ``se``), whatever order the runs come in."""
    import pandas as pd

    from causal_bandits import algorithms
    from causal_bandits.papers.cpe import aggregate, claims, tables

    keys = ["naive", "se", "pb", "ccpe_general"]
    frame = pd.DataFrame(
        [
            {
                "key": "E3-rho0.8",
                "strategy": "T1000" if a == "pb" else "practical",
                "algorithm": a,
                "recommended": 1,
                "censored": False,
                "stopped_at": 100 + s,
            }
            for a in keys
            for s in range(3)
        ]
    )
    summary = {"n_arms": 2, "H": 8.0, "H_m_G": 4.0, "H_m_L": 6.0, "LB_thm3": 1.0, "UB": 9.0}
    instances = {"E3-rho0.8": {"mu": [0.2, 0.5], "epsilon": 0.0, "config": "rho0.8", "params": {}, "summary": summary}}
    stopping = aggregate.stopping_table(frame, instances, delta=0.05)
    assert list(stopping["algorithm"]) == ["pb", "ccpe_general", "se", "naive"]  # by (strategy, label)
    assert algorithms.by_label("cpe", keys) == ["ccpe_general", "pb", "se", "naive"]
    printed = tables.printed(tables.pac_table({"E3": stopping}))
    assert list(printed["algorithm"]) == ["CCPE-General", "SE", "naive"]
    assert (stopping["correct_rate"] == 1.0).all()
    ids = [c.id for c in claims.claims({"E3": keys})]
    assert [i for i in ids if i.startswith("pac-")] == ["pac-E3-CCPE-General", "pac-E3-SE"]


@pytest.mark.parametrize("paper", ["cpe", "unknown_graph"])
def test_algorithm_keys_are_lower_snake_case(paper):
    """Keys are ids in one style across papers (valid identifiers, safe in run paths and wildcard patterns);
    what readers see is the label."""
    import re

    for key in registry(paper):
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", key), key
