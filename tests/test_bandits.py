"""Bandit layer: Beta sampler, kl-UCB index, engine invariances, keyed streams, run store."""

import dataclasses
import hashlib
import importlib.util
import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from engine_helpers import Trace, simulate_trace
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.optimize import brentq
from scipy.special import xlogy

import causal_bandits
from causal_bandits import kernels, store
from causal_bandits.bandits.beta import BetaShapes
from causal_bandits.bandits.engine import Feedback, linear_grid
from causal_bandits.bandits.environments import BernoulliArms
from causal_bandits.bandits.klucb import KLUCB, bernoulli_kl, exploration, index_slope, klucb_index
from causal_bandits.bandits.klucb_candidates import SLACK
from causal_bandits.bandits.thompson import ThompsonSampling
from causal_bandits.rng import SeedStreams, generator

PAPER = "test"
ALGOS = {"ts": ThompsonSampling, "kl_ucb": KLUCB}


def run(policy, means, seeds, horizon, *, experiment="bandits", grid=None, block=4096):
    env = BernoulliArms(np.asarray(means, dtype=float))
    grid = linear_grid(horizon, horizon) if grid is None else grid  # every round by default
    return simulate_trace(policy, env, seeds, horizon, grid, paper=PAPER, experiment=experiment, block=block)[1]


def trace_fields(trace: Trace) -> dict[str, np.ndarray]:
    return {f.name: getattr(trace, f.name) for f in dataclasses.fields(Trace)}


def assert_same_trace(a: Trace, b: Trace) -> None:
    fa, fb = trace_fields(a), trace_fields(b)
    for name in fa:
        assert fa[name].dtype == fb[name].dtype, name
        assert np.array_equal(fa[name], fb[name]), name


def concat(traces: list[Trace]) -> Trace:
    """Traces of disjoint seed chunks (same grid) glued back along the seed axis."""
    fields = {}
    for f in dataclasses.fields(Trace):
        parts = [getattr(t, f.name) for t in traces]
        fields[f.name] = parts[0] if f.name == "rounds" else np.concatenate(parts, axis=0)
    return Trace(**fields)


# Hypothesis inputs shared by the engine properties: 3-8 arms (ties and the extremes 0 / 1
# included on purpose) and a short horizon.
arm_means = st.lists(
    st.one_of(st.floats(0.0, 1.0, allow_subnormal=False), st.sampled_from([0.0, 0.5, 1.0])),
    min_size=3,
    max_size=8,
)
horizons = st.integers(1, 60)
ENGINE_SETTINGS = settings(max_examples=20, deadline=None)


# ------------------------------------------------------------------------------- Beta sampler
SHAPES = [(1, 1), (1, 7), (5, 1), (2, 2), (50, 80), (3, 400), (1.5, 1.2), (7, 3)]
N_DRAWS = 20_000
_BETA_SEEDS, _BETA_REPEAT, _BETA_ROUNDS = 20, 50, 20  # 20 seeds x 50 cells x 20 rounds per shape


@pytest.fixture(scope="module", params=["constructor", "add"])
def beta_draws(request) -> dict[tuple, np.ndarray]:
    """All shapes side by side in one BetaShapes (so rejected cells of different shapes share
    the retry stream), built either directly or by ``add`` from Beta(1, 1);
    ``N_DRAWS`` variates per shape."""
    a = np.tile(np.repeat([s[0] for s in SHAPES], _BETA_REPEAT), (_BETA_SEEDS, 1)).astype(float)
    b = np.tile(np.repeat([s[1] for s in SHAPES], _BETA_REPEAT), (_BETA_SEEDS, 1)).astype(float)
    if request.param == "constructor":
        shapes = BetaShapes(a, b)
    else:
        shapes = BetaShapes(np.ones_like(a), np.ones_like(b))
        rows = np.arange(_BETA_SEEDS)
        for j in range(a.shape[1]):
            shapes.add(rows, np.full(_BETA_SEEDS, j), a[:, j] - 1, b[:, j] - 1)
        assert np.array_equal(shapes.a, a) and np.array_equal(shapes.b, b)
    seeds = range(_BETA_SEEDS)
    draws = SeedStreams(PAPER, f"beta-{request.param}", seeds, "draws", block=1000)
    retries = SeedStreams(PAPER, f"beta-{request.param}", seeds, "retries", block=64)
    x = np.stack([shapes.sample(draws, retries) for _ in range(_BETA_ROUNDS)])
    x = x.reshape(_BETA_ROUNDS, _BETA_SEEDS, len(SHAPES), _BETA_REPEAT)
    return {s: x[:, :, i, :].ravel() for i, s in enumerate(SHAPES)}


@pytest.mark.parametrize("shape", SHAPES, ids=[f"a={a}-b={b}" for a, b in SHAPES])
def test_beta_sampler_matches_scipy(beta_draws, shape):
    x = beta_draws[shape]
    assert x.size >= N_DRAWS
    assert np.isfinite(x).all() and (x >= 0).all() and (x <= 1).all()
    result = stats.kstest(x, stats.beta(*shape).cdf)
    assert result.pvalue > 1e-3, (shape, result)


def test_beta_shapes_rejects_shapes_below_one():
    with pytest.raises(ValueError):
        BetaShapes(np.array([[0.5]]), np.array([[1.0]]))


def _thompson_like(sample, n_seeds=9, n_arms=13, rounds=40) -> np.ndarray:
    """Variates of ``sample(a, b, draws, retries)`` on shapes that grow as in Thompson sampling (closed-form,
    accepted and rejected cells side by side), and the next retry uniform (so the stream use is pinned)."""
    rng = np.random.default_rng(11)
    a, b = np.ones((n_seeds, n_arms)), np.ones((n_seeds, n_arms))
    draws = SeedStreams(PAPER, "beta-blocks", range(n_seeds), "draws", block=64)
    retries = SeedStreams(PAPER, "beta-blocks", range(n_seeds), "retries", block=16)
    rows, out = np.arange(n_seeds), []
    for _ in range(rounds):
        out.append(sample(a, b, draws, retries))
        arms = rng.integers(0, n_arms, n_seeds)
        wins = rng.integers(0, 4, n_seeds).astype(float) * (rng.random(n_seeds) < 0.5)
        a[rows, arms] += wins
        b[rows, arms] += rng.integers(0, 4, n_seeds) * (wins == 0)
    return np.concatenate([np.stack(out).ravel(), retries.uniform(1).ravel()])


def _reference_attempt(a: float, b: float, u1: float, u2: float) -> tuple[float, bool]:
    """One attempt as the module docstring states it (closed form, else Cheng's BB steps 4-5), in plain Python."""
    if a == 1.0:
        return -math.expm1(math.log1p(-u1) / b), True
    if b == 1.0:
        return u1 ** (1.0 / a), True
    lo, hi = min(a, b), max(a, b)
    alpha = lo + hi
    beta = math.sqrt((alpha - 2.0) / (2.0 * lo * hi - alpha))
    v = beta * math.log(u1 / (1.0 - u1))
    w = lo * math.exp(v)
    z = u1 * u1 * u2
    r = (lo + 1.0 / beta) * v - math.log(4.0)
    s = lo + r - w
    t = math.log(z) if z > 0 else -math.inf  # Python's log refuses 0; the C library's gives -inf
    ok = s + (1.0 + math.log(5.0)) >= 5.0 * z or s > t or r + alpha * math.log(alpha / (hi + w)) >= t
    return (w if a <= b else hi) / (hi + w), ok


def _reference_sample(a, b, draws, retries) -> np.ndarray:
    """Beta variates with the documented stream use: two uniforms per cell and round, then for each seed one retry
    pair per still-rejected cell in arm order, attempt after attempt."""
    n, k = a.shape
    u, out, pending = draws.uniform(2 * k), np.empty((n, k)), []
    for i, j in itertools.product(range(n), range(k)):
        out[i, j], ok = _reference_attempt(a[i, j], b[i, j], u[i, 2 * j], u[i, 2 * j + 1])
        pending += [] if ok else [(i, j)]
    while pending:
        pairs = iter(retries.take(np.bincount([i for i, _ in pending], minlength=n) * 2))
        left = []
        for i, j in pending:
            x, ok = _reference_attempt(a[i, j], b[i, j], next(pairs), next(pairs))
            out[i, j] = x if ok else out[i, j]
            left += [] if ok else [(i, j)]
        pending = left
    return out


def test_beta_variates_are_the_documented_sampler_bit_for_bit():
    """The compiled sampler gives, bit for bit, a plain-Python evaluation of the documented attempts and stream use
    (Python's ``math`` calls the C library, as the compiled code does)."""
    reference = _thompson_like(_reference_sample)
    compiled = _thompson_like(lambda a, b, draws, retries: BetaShapes(a, b).sample(draws, retries))
    assert np.array_equal(compiled.view(np.int64), reference.view(np.int64))


#: numpy's elementwise functions of the Beta sampler against Python's ``math``, bit for bit: prints the mismatches.
LIBM = """
import math, numpy as np
rng = np.random.default_rng(5)
u = rng.random(100_000)
v = np.log(u / (1 - u)) * rng.exponential(2, u.size)
e = 1.0 / (1.0 + rng.exponential(5, u.size))
cases = [(np.log, math.log, u * 1e3), (np.exp, math.exp, v), (np.log1p, math.log1p, -u), (np.expm1, math.expm1, -u * e)]
bad = [int((f(x).view(np.int64) != np.array([g(t) for t in x]).view(np.int64)).sum()) for f, g, x in cases]
bad.append(int((np.power(u, e).view(np.int64) != np.array([s**t for s, t in zip(u, e)]).view(np.int64)).sum()))
print(bad)
"""


def test_pinned_numpy_calls_the_c_library_as_the_compiled_beta_sampler_does():
    """Under the workflow's kernel pin numpy's log, exp, log1p, expm1 and power are the C library's, which the compiled
    sampler calls: so it draws what the numpy sampler it replaced drew in every job."""
    env = {**os.environ, **kernels.pinned()}
    done = subprocess.run([sys.executable, "-c", LIBM], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0, 0, 0, 0, 0]"


# ------------------------------------------------------------------------------- kl-UCB index
KL_P = [0.0, 0.01, 0.3, 0.5, 0.9, 0.999, 1.0]
KL_N = [1, 3, 100, 10_000]
KL_LEVEL = [1.0, 2.5, 20.0]
_BELOW_ONE = np.nextafter(1.0, 0.0)


def reference_root(p: float, n: float, level: float) -> float:
    """sup{q in [p, 1] : n kl(p, q) <= level} by brentq (1.0 when p = 1 or the root is within
    one ulp of 1, where no double below 1 brackets it)."""
    if p >= 1.0:
        return 1.0

    def g(q):
        return n * float(bernoulli_kl(p, q)) - level

    if g(_BELOW_ONE) <= 0.0:
        return 1.0
    return brentq(g, p, _BELOW_ONE, xtol=1e-15, rtol=1e-15, maxiter=500)


# Includes cases whose root rounds to 1.0 (e.g. p=0.5, n=1, level=20), where the Newton start
# used to be exactly 1.0 and the first step inf/inf = NaN.
KL_CASES = [
    pytest.param(_p, _n, _level, id=f"p={_p}-n={_n}-f={_level}")
    for _p, _n, _level in itertools.product(KL_P, KL_N, KL_LEVEL)
]


@pytest.mark.parametrize(("p", "n", "level"), KL_CASES)
def test_klucb_index_matches_brentq(p, n, level):
    q = float(klucb_index(np.array([p]), np.array([float(n)]), level)[0])
    expected = reference_root(p, n, level)
    assert abs(q - expected) <= 1e-9, (q, expected)
    assert p <= q <= 1.0
    # Feasibility: n kl(p, q) <= level + 1e-8. Near the pole q -> 1, n kl changes by far more than
    # 1e-8 per ulp of q (about 5e-8 per ulp at p=0, n=1, level=20 and 2e-5 per ulp at p=0.9, n=1,
    # level=2.5), so a Newton iterate that stops one ulp above the root cannot meet the bound;
    # allow q to overshoot the feasible set by at most two ulps.
    slack = level + 1e-8
    feasible = n * bernoulli_kl(p, q) <= slack
    within_ulps = n * bernoulli_kl(p, q - 2 * np.spacing(q)) <= slack
    assert feasible or within_ulps, (q, n * bernoulli_kl(p, q) - level)


def test_klucb_index_vectorised_equals_elementwise():
    """Every cell is inverted independently of the others in the same call."""
    grid = [(p, n) for p, n in itertools.product(KL_P, KL_N) if reference_root(p, n, 2.5) < 1]
    assert len(grid) % 2 == 0
    p = np.array([g[0] for g in grid]).reshape(2, -1)[:, ::-1]  # 2-D, non-contiguous
    n = np.array([g[1] for g in grid], dtype=float).reshape(2, -1)[:, ::-1]
    together = klucb_index(p, n, 2.5)
    assert together.shape == p.shape
    for i, j in np.ndindex(p.shape):
        alone = klucb_index(np.array([p[i, j]]), np.array([n[i, j]]), 2.5)[0]
        assert together[i, j] == alone


def test_klucb_index_per_cell_levels_equal_scalar_levels():
    rng = np.random.default_rng(3)
    n = np.floor(np.exp(rng.uniform(0, 9, 200)))
    p = rng.binomial(n.astype(np.int64), rng.choice([0.0, 0.2, 0.9, 1.0], 200)) / n
    levels = rng.uniform(0.5, 30.0, 200)
    together = klucb_index(p, n, levels)
    alone = [klucb_index(p[i : i + 1], n[i : i + 1], float(levels[i]))[0] for i in range(200)]
    assert np.array_equal(together, np.array(alone))


def precise_root(p: float, n: float, level: float) -> float:
    """The index solved for y = ln(1 - q) by brentq, which gives 1 - q to about 1e-15 relative: the index to about
    1e-16 even next to q = 1, where solving for q itself leaves an error of order the tolerance."""
    if p >= 1.0:
        return 1.0

    def g(y):  # n kl(p, 1 - e^y) - level
        return n * (xlogy(p, p) - xlogy(p, -np.expm1(y)) + xlogy(1 - p, 1 - p) - (1 - p) * y) - level

    low = -700.0
    if g(low) <= 0.0:
        return 1.0
    return float(-np.expm1(brentq(g, low, np.log1p(-p), xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)))


def index_cases(size: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(p, n, level) as kl-UCB meets them: n up to 10^5 pulls, levels f(t) up to t = 10^10, and many arms with
    one or two losses, whose indices lie within 1e-6 of 1 (their inversion starts next to the pole)."""
    rng = np.random.default_rng(seed)
    n = np.floor(np.exp(rng.uniform(0, np.log(1e5), size)))
    losses = np.where(rng.random(size) < 0.5, rng.integers(0, 3, size), rng.integers(0, n + 1))
    wins = n - np.minimum(losses, n)
    return wins / n, n, rng.uniform(1.0, 30.0, size)


def test_klucb_index_error_far_below_the_slack():
    """The lazy inversion compares indices with SLACK, which must exceed twice an index's error: it is checked
    here against 5e-12 (errors are about 1e-14)."""
    p, n, level = index_cases(2000, 11)
    q = klucb_index(p, n, level)
    exact = np.array([precise_root(*case) for case in zip(p, n, level, strict=True)])
    assert np.abs(q - exact).max() <= SLACK / 20


def test_index_tangent_bounds_the_index_at_higher_levels():
    """index_slope gives a tangent that bounds the index from above at every higher level (the index is concave
    in the level), to within the index's error."""
    p, n, level = index_cases(400, 12)
    q = klucb_index(p, n, level)
    slope = index_slope(p, n, q, SLACK / 2)
    for rise in (1e-6, 0.01, 0.3, 3.0):
        exact = np.array([precise_root(*case) for case in zip(p, n, level + rise, strict=True)])
        assert (exact <= q + slope * rise + SLACK / 2).all()


class EagerKLUCB(KLUCB):
    """kl-UCB by its definition: every arm inverted every round (a test reference)."""

    def select(self, t, contexts=None):
        n_arms = self._pulls.shape[1]
        if t <= n_arms:
            return super().select(t, contexts)
        ties = self._ties.uniform(n_arms)
        index = klucb_index(self._wins / self._pulls, self._pulls, exploration(t - 1))
        return np.where(index >= index.max(axis=1, keepdims=True), ties, -1.0).argmax(axis=1)


@settings(max_examples=12, deadline=None)
@given(
    means=st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.52, 0.9, 1.0]), min_size=2, max_size=20),
    horizon=st.integers(1, 400),
)
def test_lazy_klucb_pulls_what_inverting_every_arm_pulls(means, horizon):
    """Skipping arms whose look-ahead bound is below the floor changes no pull, ties included
    (repeated means give arms with equal counts, hence equal indices)."""
    lazy = run(KLUCB(), means, range(6), horizon, experiment="lazy")
    eager = run(EagerKLUCB(), means, range(6), horizon, experiment="lazy")
    assert_same_trace(lazy, eager)


def markovian_means() -> np.ndarray:
    """The 81 arm means of Lee & Bareinboim's NeurIPS-18 Markovian experiment (benchmarks/neurips18_markovian.py):
    nine arms of mean exactly 1 whose indices tie at 1 for ever, and dozens of arms whose indices stay within
    1e-7 of them once they have lost once."""
    path = Path(__file__).parents[1] / "benchmarks" / "neurips18_markovian.py"
    spec = importlib.util.spec_from_file_location("neurips18_markovian", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.means()


def test_lazy_klucb_with_many_arms_close_to_the_leader():
    """At the paper's horizon, where the arms close to the leader come closest (f(t) grows)."""
    means = markovian_means()
    lazy = run(KLUCB(), means, range(3), 10_000, experiment="close-arms-long", grid=linear_grid(10_000, 10_000))
    eager = run(EagerKLUCB(), means, range(3), 10_000, experiment="close-arms-long", grid=linear_grid(10_000, 10_000))
    assert_same_trace(lazy, eager)


def test_lazy_klucb_with_many_arms_of_repeated_means():
    """60 arms of five means (1 among them): many equal indices, seeds whose candidate rows are rebuilt alone, and
    tables of every arm, at a horizon over many renewals of the bounds."""
    means = np.random.default_rng(5).choice([0.2, 0.5, 0.8, 0.9, 1.0], 60)
    lazy = run(KLUCB(), means, range(8), 3000, experiment="lazy-many", grid=linear_grid(3000, 3000))
    eager = run(EagerKLUCB(), means, range(8), 3000, experiment="lazy-many", grid=linear_grid(3000, 3000))
    assert_same_trace(lazy, eager)


def test_lazy_klucb_over_many_lookahead_rounds():
    means = np.random.default_rng(4).uniform(0.1, 0.9, 24).round(2)
    lazy = run(KLUCB(), means, range(10), 2500, experiment="lazy-long", grid=linear_grid(2500, 2500))
    eager = run(EagerKLUCB(), means, range(10), 2500, experiment="lazy-long", grid=linear_grid(2500, 2500))
    assert_same_trace(lazy, eager)


# ------------------------------------------------------------------------ engine invariances
@pytest.mark.parametrize("algo", ALGOS)
@ENGINE_SETTINGS
@given(means=arm_means, horizon=horizons)
def test_trace_independent_of_chunking(algo, means, horizon):
    seeds = list(range(14))
    whole = run(ALGOS[algo](), means, seeds, horizon)
    for chunk in (1, 7):
        starts = range(0, len(seeds), chunk)
        parts = [run(ALGOS[algo](), means, seeds[i : i + chunk], horizon) for i in starts]
        assert_same_trace(whole, concat(parts))


@pytest.mark.parametrize("algo", ALGOS)
@settings(max_examples=10, deadline=None)
@given(means=arm_means, horizon=horizons, block=st.sampled_from([1, 5, 64]))
def test_trace_independent_of_block_and_seed_order(algo, means, horizon, block):
    seeds = [3, 0, 11, 5]
    reference = run(ALGOS[algo](), means, sorted(seeds), horizon)
    other = run(ALGOS[algo](), means, seeds, horizon, block=block)
    order = np.argsort(seeds)
    for name, value in trace_fields(other).items():
        if name != "rounds":
            assert np.array_equal(value[order], getattr(reference, name)), name


@pytest.mark.parametrize("algo", ALGOS)
@ENGINE_SETTINGS
@given(means=arm_means, horizon=horizons)
def test_regret_nondecreasing_and_consistent(algo, means, horizon):
    trace = run(ALGOS[algo](), means, range(6), horizon)
    mu = np.asarray(means)
    assert np.array_equal(trace.rounds, np.arange(1, horizon + 1))
    assert (np.diff(trace.cum_regret, axis=1) >= 0).all()
    assert (trace.cum_regret >= 0).all()
    # With the full grid every increment is the gap of the arm pulled that round.
    gaps = mu.max() - mu[trace.arm]
    assert np.allclose(np.diff(trace.cum_regret, axis=1, prepend=0.0), gaps, rtol=0, atol=1e-12)
    assert np.array_equal(trace.optimal, np.isclose(mu[trace.arm], mu.max(), rtol=0, atol=1e-12))
    assert np.allclose(trace.optimal_fraction, trace.optimal.mean(axis=1))
    assert ((trace.arm >= 0) & (trace.arm < mu.size)).all()


def test_klucb_initial_sweep_pulls_every_arm_once():
    trace = run(KLUCB(), [0.2, 0.9, 0.5, 0.4, 0.7], range(10), 5)
    assert (np.sort(trace.arm, axis=1) == np.arange(5)).all()
    assert len({tuple(row) for row in trace.arm}) > 1  # the sweep order is random per seed


def test_klucb_pulls_an_arm_of_largest_index():
    """After the sweep, kl-UCB pulls argmax_a U_a(t) with f(t-1), ties broken among maxima only."""
    n_seeds, means = 16, np.array([0.2, 0.5, 0.55, 0.8, 0.8])
    policy = KLUCB()
    seeds = range(n_seeds)
    policy.reset(n_seeds, means.size, lambda name: SeedStreams(PAPER, "klucb-max", seeds, name))
    rng = np.random.default_rng(7)
    rows = np.arange(n_seeds)
    for t in range(1, 301):
        wins, pulls = policy._wins.copy(), policy._pulls.copy()
        arms = policy.select(t)
        if t > means.size:
            index = klucb_index(wins / pulls, pulls, exploration(t - 1))
            assert np.array_equal(index[rows, arms], index.max(axis=1))
        policy.update(Feedback(arms, (rng.random(n_seeds) < means[arms]).astype(np.int8)))
    assert (policy._pulls.sum(axis=1) == 300).all()


# Arm sequences of TS and kl-UCB recorded (sha256 of the (20 seeds x 500 rounds) int64 array)
# before the samplers were sped up: a faster sampler or index must not change a single pull.
REGRESSION_ARMS_SHA256 = {
    "ts": "4caa39c2a2a09cccf3ca4c2bae4469a4aab6dfa2ffcf8d4a1fbec68c58577978",
    "kl_ucb": "af80d3b1957297449839eb6bc65cccf1b551c10597a169aedebabb996e348ae0",
}


@pytest.mark.parametrize("algo", ALGOS)
def test_trajectories_unchanged_by_speed_work(algo):
    # Means rounded to one decimal: several arms tie, so kl-UCB's random tie-breaking is exercised.
    means = np.round(np.random.default_rng(0).uniform(0.1, 0.9, 16), 1)
    trace = run(ALGOS[algo](), means, range(20), 500, experiment="regression")
    arms = np.ascontiguousarray(trace.arm, dtype=np.int64)
    assert arms.shape == (20, 500)
    assert hashlib.sha256(arms.tobytes()).hexdigest() == REGRESSION_ARMS_SHA256[algo]


def test_klucb_trajectories_on_close_arms_unchanged_by_speed_work():
    """kl-UCB's arm sequences (20 seeds x 2,000 rounds) on the NeurIPS-18 Markovian instance, recorded before its
    lazy inversion was sped up for arms close to the leader."""
    trace = run(KLUCB(), markovian_means(), range(20), 2000, experiment="close-arms")
    arms = np.ascontiguousarray(trace.arm, dtype=np.int64)
    assert arms.shape == (20, 2000)
    assert hashlib.sha256(arms.tobytes()).hexdigest() == CLOSE_ARMS_SHA256


CLOSE_ARMS_SHA256 = "94abf32ac0829e521f6bc6bc38ae71d1b34399efa96cfb8464905c97ddae4cf3"


def test_summary_rounds_on_coarse_grid():
    grid = linear_grid(1000, 50)
    assert grid[0] == 1 and grid[-1] == 1000 and (np.diff(grid) > 0).all()
    fine = run(ThompsonSampling(), [0.3, 0.5, 0.6], range(4), 1000)
    coarse = run(ThompsonSampling(), [0.3, 0.5, 0.6], range(4), 1000, grid=grid)
    for name in ("cum_regret", "cum_realized_regret", "arm", "optimal"):
        assert np.array_equal(getattr(coarse, name), getattr(fine, name)[:, grid - 1]), name
    assert np.array_equal(coarse.optimal_fraction, fine.optimal_fraction)


# -------------------------------------------------------------------------------- keyed streams
def test_different_seeds_give_different_runs():
    seeds = range(8)
    firsts = [tuple(generator("nonmanip", "fig5a", s, "environment").random(8)) for s in seeds]
    assert len(set(firsts)) == len(firsts)
    trace = run(ThompsonSampling(), [0.4, 0.45, 0.5, 0.55, 0.6], seeds, 200)
    assert len({row.tobytes() for row in trace.arm}) == len(seeds)
    assert len({row.tobytes() for row in trace.cum_realized_regret}) == len(seeds)


def test_same_seed_different_key_gives_different_streams():
    base = generator("nonmanip", "fig5a", 3, "environment").random(8)
    for key in [
        ("nonmanip", "fig5b", 3, "environment"),
        ("other", "fig5a", 3, "environment"),
        ("nonmanip", "fig5a", 3, "policy/beta"),
    ]:
        assert not np.array_equal(base, generator(*key).random(8)), key
    means = [0.4, 0.45, 0.5, 0.55, 0.6]
    one = run(ThompsonSampling(), means, [3], 200, experiment="fig5a")
    two = run(ThompsonSampling(), means, [3], 200, experiment="fig5b")
    assert not np.array_equal(one.arm, two.arm)


def test_seed_sequence_stable_across_processes():
    code = (
        "import json; from causal_bandits.rng import generator; "
        "print(json.dumps(generator('nonmanip', 'fig5a', 3, 'environment').random(6).tolist()))"
    )
    here = generator("nonmanip", "fig5a", 3, "environment").random(6).tolist()
    for hash_seed in ("1", "2"):  # differently salted str hashes must not matter
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert json.loads(out.stdout.strip().splitlines()[-1]) == here


# ------------------------------------------------------------------------ common random numbers
class RecordingArms(BernoulliArms):
    """Bernoulli arms that keep a copy of every round's uniforms."""

    def __init__(self, means):
        super().__init__(np.asarray(means, dtype=float))
        object.__setattr__(self, "seen", [])

    def pull(self, t, contexts, arms, noise, observe=None):
        self.seen.append(np.array(noise, copy=True))
        return super().pull(t, contexts, arms, noise)


class UniformPlay:
    """Pull an arm uniformly at random every round (a baseline, not a library policy)."""

    name = "uniform"

    def reset(self, n_seeds, n_arms, stream):
        self._u, self._k = stream("uniform"), n_arms

    def select(self, t, contexts=None):
        return np.minimum((self._u.uniform(1)[:, 0] * self._k).astype(np.int64), self._k - 1)

    def update(self, feedback):
        pass


def test_same_arm_set_and_algorithm_give_identical_runs():
    means = [0.3, 0.5, 0.45, 0.6]
    for algo in ALGOS.values():
        assert_same_trace(run(algo(), means, range(12), 300), run(algo(), means, range(12), 300))


def test_algorithms_meet_the_same_environment_draws():
    seen = {}
    for name, algo in ALGOS.items():
        env = RecordingArms([0.3, 0.5, 0.45, 0.6])
        simulate_trace(algo(), env, range(5), 50, linear_grid(50, 10), paper=PAPER, experiment="crn")
        seen[name] = np.stack(env.seen)
    assert np.array_equal(seen["ts"], seen["kl_ucb"])


def test_thompson_beats_uniform_play():
    means, seeds, horizon = [0.3, 0.7], range(200), 500
    grid = linear_grid(horizon, 20)
    ts = run(ThompsonSampling(), means, seeds, horizon, grid=grid)
    uniform = run(UniformPlay(), means, seeds, horizon, grid=grid)
    assert ts.cum_regret[:, -1].mean() < 0.5 * uniform.cum_regret[:, -1].mean()
    assert ts.cum_realized_regret[:, -1].mean() < uniform.cum_realized_regret[:, -1].mean()
    assert abs(uniform.cum_regret[:, -1].mean() - 0.5 * 0.4 * horizon) < 5


# ------------------------------------------------------------------------------------ run store
CONFIG = {"paper": "nonmanip", "experiment": "fig5a", "algorithm": "ts", "horizon": 40}


@pytest.fixture(scope="module")
def small_run():
    env = BernoulliArms(np.array([0.2, 0.5, 0.7]))
    return simulate_trace(ThompsonSampling(), env, [5, 2, 9, 0], 40, linear_grid(40, 7), paper=PAPER)


@pytest.mark.parametrize("kind", ["trace", "summary"])
def test_tables_round_trip_with_provenance(tmp_path, small_run, kind):
    raw, small_trace = small_run
    table = store.trace_table(raw) if kind == "trace" else store.summary_table(raw)
    fields = store.TRACE_FIELDS if kind == "trace" else store.SUMMARY_FIELDS
    names = (
        ["seed", "round", "cum_regret", "cum_realized_regret", "arm", "optimal"]
        if kind == "trace"
        else ["seed", "final_regret", "final_realized_regret", "optimal_fraction"]
    )
    schema = pa.schema([f for f in fields if f.name in names])
    meta = store.provenance(CONFIG)
    path = tmp_path / "out" / f"{kind}.parquet"
    store.write_table(path, table, meta)

    back = pq.read_table(path)
    assert back.schema.remove_metadata().equals(schema)
    assert back.equals(table.replace_schema_metadata(back.schema.metadata))
    read = store.read_metadata(path)
    # Library versions sit under "version_<lib>" so that "pandas" stays pandas' own schema key.
    keys = ["config_hash", "causal_bandits"] + [f"version_{lib}" for lib in store._LIBRARIES]
    for key in keys:
        assert key in read, key
    assert read["config_hash"] == store.config_hash(dict(reversed(list(CONFIG.items()))))
    assert read["causal_bandits"] == causal_bandits.__version__
    assert read["version_numpy"] == np.__version__
    assert read["version_pyarrow"] == pa.__version__
    if "pandas" in read:
        json.loads(read["pandas"])
    assert sorted(os.listdir(path.parent)) == [path.name]  # no temporary left behind

    # Values: sorted by seed (then round), and each row is the trace's value for that seed.
    df = back.to_pandas()
    order = np.argsort(small_trace.seeds)
    if kind == "trace":
        n_grid = small_trace.rounds.size
        assert list(df["seed"]) == list(np.repeat(np.sort(small_trace.seeds), n_grid))
        assert list(df["round"]) == list(np.tile(small_trace.rounds, len(order)))
        for name in ("cum_regret", "cum_realized_regret", "arm", "optimal"):
            assert np.array_equal(df[name].to_numpy(), getattr(small_trace, name)[order].ravel())
    else:
        assert list(df["seed"]) == sorted(small_trace.seeds)
        assert np.array_equal(df["final_regret"], small_trace.cum_regret[order, -1])
        realized = small_trace.cum_realized_regret[order, -1]
        assert np.array_equal(df["final_realized_regret"], realized)
        assert np.array_equal(df["optimal_fraction"], small_trace.optimal_fraction[order])


def test_write_atomic_leaves_nothing_when_writer_raises(tmp_path):
    target = tmp_path / "dir" / "file.json"

    def boom(tmp):
        tmp.write_text("half a file")
        raise RuntimeError("writer failed")

    with pytest.raises(RuntimeError, match="writer failed"):
        store.write_atomic(target, boom)
    assert os.listdir(target.parent) == []

    store.write_json(target, {"a": 1})
    with pytest.raises(RuntimeError):
        store.write_atomic(target, boom)
    assert os.listdir(target.parent) == [target.name]  # old file kept, temp removed
    assert store.read_json(target) == {"a": 1}


def test_write_atomic_removes_temporaries_of_a_killed_writer(tmp_path):
    # What SIGKILL leaves mid-write: a hidden temporary of the output; the next write of that output
    # removes it, and leaves other files' temporaries alone.
    (tmp_path / ".file.json.abc123.tmp").write_text("half a fi")
    (tmp_path / ".other.json.abc123.tmp").write_text("half")
    store.write_json(tmp_path / "file.json", {"a": 1})
    assert sorted(os.listdir(tmp_path)) == [".other.json.abc123.tmp", "file.json"]


def test_linear_grid_always_has_both_ends():
    assert linear_grid(10, 1).tolist() == [1, 10]
    assert linear_grid(1, 200).tolist() == [1]
    g = linear_grid(10_000, 200)
    assert g[0] == 1 and g[-1] == 10_000 and len(g) == 200


@pytest.mark.parametrize("grid", [[2, 5], [3, 2], [], [0, 3], [1, 2]])
def test_simulate_rejects_a_grid_that_does_not_end_at_the_horizon(grid):
    with pytest.raises(ValueError, match="grid"):
        simulate_trace(
            ThompsonSampling(), BernoulliArms(np.array([0.2, 0.8])), [0, 1], 3, np.array(grid, dtype=np.int64)
        )
