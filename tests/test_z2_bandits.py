"""z²-TS and z²-KL-UCB (AAAI-19 Alg. 3) and the bMVWA estimates they share, run on the one engine."""

import numpy as np
import pytest
from engine_helpers import simulate_trace

from causal_bandits.bandits.environments import InterventionArms
from causal_bandits.bandits.klucb import KLUCB, exploration, klucb_index
from causal_bandits.bandits.thompson import ThompsonSampling
from causal_bandits.bandits.z2_estimates import Z2Estimates
from causal_bandits.bandits.z2_klucb import Z2KLUCB, exploration_at
from causal_bandits.bandits.z2_settings import Z2Settings
from causal_bandits.bandits.z2_thompson import Z2ThompsonSampling
from causal_bandits.causal.estimators import pomis_plus_estimators
from causal_bandits.causal.mvwa import bootstrap_covariance
from causal_bandits.errors import ConfigError
from causal_bandits.papers.nonmanip.graphs import GRAPHS
from causal_bandits.rng import SeedStreams
from causal_bandits.scm.confounded_cpt import ConfoundedCPT
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

PAPER, EXPERIMENT = "test", "z2"
FIG5B = (
    {"U_A": 0.16, "U_B": 0.18, "U_C": 0.17, "U_Y": 0.24, "U_AB": 0.21, "U_BY": 0.45},
    {"A": 0, "B": 1, "C": 0, "Y": 0},
)


class ActiveEstimators:
    """Test recorder: whether any arm of a seed had a usable estimator at each round's selection."""

    def start(self, seeds, horizon, env, policy):
        self.policy, self.rows = policy, []

    def record(self, step):
        self.rows.append(self.policy.n_active.sum(axis=1) > 0)

    def finish(self):
        self.active = np.stack(self.rows, axis=1)
        return None, {}, {}


def pulls(policy, env, seeds, horizon, recorders=()):
    """Arms pulled on the engine, shape (n_seeds, horizon)."""
    _, trace = simulate_trace(
        policy, env, list(seeds), horizon, paper=PAPER, experiment=EXPERIMENT, recorders=recorders
    )
    return trace.arm


def fig5b(n_min=20):
    G = GRAPHS["fig2a"]
    est = pomis_plus_estimators(G, "Y", ("A",), n_min=n_min)
    env = InterventionArms.exact(
        XorBernoulliSCM(G, *FIG5B), "Y", [est.layout.arm_values(a) for a in range(len(est.layout.arms))]
    )
    return est, InterventionArms(env.scm, env.target, env.arms, env.means, observe=True)


Z2 = {"ts": (Z2ThompsonSampling, ThompsonSampling), "kl_ucb": (Z2KLUCB, KLUCB)}


# ------------------------------------------------------------------------------ reductions
def variables(env):
    return env.scm.diagram.nodes


@pytest.mark.parametrize("algo", sorted(Z2))
def test_without_active_expressions_reduces_to_base_bit_for_bit(algo):
    z2, base = Z2[algo]
    est, env = fig5b(n_min=10**9)  # no instance can ever have enough samples
    ours = pulls(z2(est, variables(env), Z2Settings(bootstrap=20)), env, range(12), 400)
    theirs = pulls(base(), env, range(12), 400)
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("algo", sorted(Z2))
def test_identical_to_base_until_an_expression_is_used(algo):
    """Per seed: the same pulls as the base algorithm up to the first round with a usable estimator;
    some seeds do use one within the horizon (so the check is not vacuous) and then deviate."""
    z2, base = Z2[algo]
    est, env = fig5b()
    watch = ActiveEstimators()
    ours = pulls(z2(est, variables(env), Z2Settings(bootstrap=30)), env, range(10), 300, [watch])
    theirs = pulls(base(), env, range(10), 300)
    active = watch.active
    assert active.any(axis=1).sum() >= 5
    first = np.where(active.any(axis=1), active.argmax(axis=1), 300)
    for s in range(10):
        assert np.array_equal(ours[s, : first[s]], theirs[s, : first[s]])
    assert not np.array_equal(ours, theirs)


@pytest.mark.parametrize("algo", sorted(Z2))
def test_results_do_not_depend_on_seed_chunking(algo):
    z2, _ = Z2[algo]
    est, env = fig5b()
    whole = pulls(z2(est, variables(env), Z2Settings(bootstrap=20)), env, range(6), 250)
    parts = [
        pulls(z2(est, variables(env), Z2Settings(bootstrap=20)), env, chunk, 250) for chunk in ([0, 1, 2], [3, 4, 5])
    ]
    assert np.array_equal(whole, np.concatenate(parts))


def test_adaptive_equals_every_round_during_warmup():
    est, env = fig5b()
    adaptive = pulls(Z2ThompsonSampling(est, variables(env), Z2Settings(bootstrap=20, warmup=150)), env, range(4), 150)
    every = pulls(
        Z2ThompsonSampling(est, variables(env), Z2Settings(bootstrap=20, refresh="every_round")), env, range(4), 150
    )
    assert np.array_equal(adaptive, every)


def test_no_expression_beta_leaves_the_klucb_reduction():
    """Arms with no expression: with ``klucb`` z²-KL-UCB pulls what kl-UCB pulls (above); with the paper's
    Beta(α+1, β+1) moments it does not, and each round's pull is the arm of largest index
    sup{q : (n+3)·kl((α+1)/(n+2), q) ≤ f(Σ(n+3))}, computed here from the pull counts alone."""
    est, env = fig5b(n_min=10**9)  # no instance can ever have enough samples
    policy = Z2KLUCB(est, variables(env), Z2Settings(bootstrap=20, no_expression="beta"))
    ours = pulls(policy, env, range(12), 400)
    assert not np.array_equal(ours, pulls(KLUCB(), env, range(12), 400))
    wins, n = policy._wins, policy._pulls
    mean, count = (wins + 1) / (n + 2), n + 3
    level = exploration_at(count.sum(axis=1))
    index = np.stack(
        [
            [float(klucb_index(mean[s, a : a + 1], count[s, a : a + 1] / level[s], 1.0)[0]) for a in range(n.shape[1])]
            for s in range(n.shape[0])
        ]
    )
    assert np.array_equal(policy.select(401), index.argmax(axis=1))


def test_no_expression_rejects_an_unknown_statistic():
    est, env = fig5b()
    with pytest.raises(ConfigError, match=r"no_expression 'posterior' is not one of \['klucb', 'beta'\]"):
        Z2KLUCB(est, variables(env), Z2Settings(no_expression="posterior"))


def test_exploration_at_matches_klucb():
    t = np.arange(1, 200)
    assert np.array_equal(exploration_at(t.astype(float)), np.array([exploration(int(s)) for s in t]))


# ------------------------------------------------------------------------------ estimates
def test_estimates_combine_towards_the_truth_with_less_variance():
    """With much data from every arm, θ̂ of the arms with expressions is near the exact mean, and
    bMVWA's variance is below the arm's own Beta posterior variance."""
    G = GRAPHS["fig2a"]
    est = pomis_plus_estimators(G, "Y", ("A",))
    model = ConfoundedCPT.from_xor_bernoulli(XorBernoulliSCM(G, *FIG5B))
    rng = np.random.default_rng(0)
    n = np.array([4000, 200, 200, 200, 200])
    counts = np.stack(
        [rng.multinomial(n[a], model.joint(est.layout.arm_values(a)).reshape(-1)) for a in range(len(est.layout.arms))]
    ).astype(float)
    z2 = Z2Estimates(est, Z2Settings(bootstrap=200))
    z2.reset(1, SeedStreams(PAPER, EXPERIMENT, [0], "policy/bootstrap"))
    for a, table in enumerate(counts.astype(int)):
        for cell in np.repeat(np.arange(table.size), table):
            z2.add(np.array([a]), np.array([cell]))
    assert np.array_equal(z2.counts[0], counts)
    theta, var, has = z2.estimates(1000)
    assert has[0].tolist() == [True, True, True, True, True]
    truth = np.array([model.interventional_mean("Y", est.layout.arm_values(a)) for a in range(5)])
    wins = counts[:, z2._y1].sum(axis=1)
    own = (wins + 1) * (n - wins + 1) / ((n + 2) ** 2 * (n + 3))
    assert (var[0, 1:] < own[1:]).all()
    assert (np.abs(theta[0] - truth) < 4 * np.sqrt(var[0])).all()


@pytest.mark.parametrize(
    ("kw", "named"),
    [({"refresh": "sometimes"}, "refresh"), ({"bootstrap": 1}, "bootstrap"), ({"trivial": "flat"}, "trivial")],
)
def test_bad_settings_are_rejected(kw, named):
    est, _ = fig5b()
    with pytest.raises(ConfigError, match=named):
        Z2Estimates(est, Z2Settings(**kw))


def test_observed_values_hold_the_reward_and_the_intervention():
    """The z² solvers read ``feedback.values`` in ``diagram.nodes`` order: Y's column is the reward and
    an intervened variable holds its set value."""
    _est, env = fig5b()
    nodes = variables(env)
    noise = np.random.default_rng(0).random((500, env.noise_width))
    arms = np.arange(500) % env.n_arms
    rewards, values = env.pull(1, None, arms, noise)
    assert np.array_equal(values[:, nodes.index("Y")], rewards)
    assert values.shape == (500, 4) and set(np.unique(values)) <= {0, 1}
    assert (values[arms == 1, nodes.index("B")] == 0).all() and (values[arms == 2, nodes.index("B")] == 1).all()


@pytest.mark.parametrize("refresh", ["every_round", "adaptive"])
def test_sigma_is_always_the_bootstrap_of_the_current_replicates(refresh):
    """Skipping work never leaves a wrong Σ̂: after every round, each arm none of whose inputs changed
    since its last bootstrap (under ``every_round``: every arm) has the Σ̂ of its instances over the
    seed's stored replicates, and those replicates are resamples of every table they stand for
    (each arm's block of every leaf whose columns are all revealed sums to the arm's sample size at its draw;
    the replicate columns the used instances read are revealed)."""
    est, env = fig5b()
    z2 = Z2Estimates(est, Z2Settings(bootstrap=40, refresh=refresh, warmup=60))
    seeds = np.arange(3)
    z2.reset(seeds.size, SeedStreams(PAPER, EXPERIMENT, seeds, "policy/bootstrap"))
    noise = SeedStreams(PAPER, EXPERIMENT, seeds, "environment")
    rng = np.random.default_rng(3)
    program = est.program
    blocks = [
        (np.arange(offset, offset + 2 ** len(program.leaf_vars(lf))))
        for lf, offset in zip(program.leaves, program.leaf_offsets)
    ]
    checked = blocks_checked = 0
    for t in range(1, 400):
        z2.estimates(t)
        for s in seeds:
            reads = z2._last_active[s][..., None] & z2._uses_slot  # (A, K, A)
            size = (reads.any(axis=1) * z2.n[s]).sum(axis=1)
            current = z2._last_active[s].any(axis=1) & (size == z2._last_size[s])
            if refresh == "every_round":
                assert np.array_equal(current, z2._last_active[s].any(axis=1))
            replicates, revealed = z2._resamples.replicates[s], z2._resamples.revealed[s]
            reps = est.values(np.ascontiguousarray(replicates.T, dtype=float), z2.n[s][None, :])  # kept (L, B)
            for a in np.flatnonzero(current):
                used = z2._slot_ids[a][z2._last_active[s, a] & z2._slot_ok[a]]
                assert revealed[est.reads_cells[used].any(axis=0)].all()
                cov, kept = bootstrap_covariance(reps[:, z2._slot_ids[a]], z2._last_active[s, a] & z2._slot_ok[a])
                np.testing.assert_array_equal(z2._cov[s, a], cov)
                np.testing.assert_array_equal(z2._kept[s, a], kept)
                checked += 1
            for a, (columns, _) in enumerate(program.projections):
                for block in blocks:
                    cells = block[np.isin(block, columns)]
                    if cells.size and revealed[cells].all():
                        assert (replicates[cells].sum(axis=0) == z2._resamples.drawn_at[s, a]).all()
                        blocks_checked += 1
        arms = rng.integers(0, env.n_arms, seeds.size)
        _, values = env.pull(t, None, arms, noise.uniform(env.noise_width))
        z2.add(arms, est.layout.cell_of(values))
    assert checked > 500 and blocks_checked > 500


@pytest.mark.parametrize("refresh", ["every_round", "adaptive"])
def test_estimates_do_not_depend_on_how_refreshing_seeds_are_batched(refresh, monkeypatch):
    """The bootstrap evaluates refreshing seeds in batches grouped by their due arms; one seed per
    batch (the straightforward reference) gives bit for bit the same (θ̂, ŝ², has) every round."""
    import causal_bandits.bandits.z2_estimates as module

    est, env = fig5b()
    seeds = np.arange(6)
    runs = []
    for per_batch in (1, 10**6):
        monkeypatch.setattr(module, "_CELLS_PER_BATCH", 30 * est.program.n_leaf_cells * per_batch)
        z2 = Z2Estimates(est, Z2Settings(bootstrap=30, refresh=refresh, warmup=80))
        z2.reset(seeds.size, SeedStreams(PAPER, EXPERIMENT, seeds, "policy/bootstrap"))
        noise = SeedStreams(PAPER, EXPERIMENT, seeds, "environment")
        rng = np.random.default_rng(5)
        out = []
        for t in range(1, 300):
            out.append(z2.estimates(t))
            arms = rng.integers(0, env.n_arms, seeds.size)
            _, values = env.pull(t, None, arms, noise.uniform(env.noise_width))
            z2.add(arms, est.layout.cell_of(values))
        runs.append(out)
    assert any(has.any() for _, _, has in runs[0])
    for ours, reference in zip(*runs):
        for x, y in zip(ours, reference):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("first", [None, 0, 3])
def test_replicates_are_exact_multinomial_resamples_of_the_table(first):
    """The bootstrap draw is the exact multinomial resample of the current count table (B independent
    replicates, n draws over the cells), also when drawn lazily: the replicate leaf counts of arm 0 of Fig. 5b
    (the observational arm, 16 cells), revealed at once or first only the columns of leaf block ``first``
    (grouped draw) and then all (refinement), have the mean n·p·M and covariance Mᵀ n (diag p − p pᵀ) M of a
    multinomial projected by the arm's 0/1 matrix M, within 6 standard errors of the sample mean and
    of the sample covariance (seeded, so the check is deterministic)."""
    est, _ = fig5b()
    B = 20_000
    z2 = Z2Estimates(est, Z2Settings(bootstrap=B))
    z2.reset(1, SeedStreams(PAPER, EXPERIMENT, np.arange(1), "policy/bootstrap"))
    table = np.array([7, 0, 3, 12, 1, 0, 25, 4, 9, 2, 0, 6, 15, 3, 8, 5], dtype=float)  # n = 100
    z2.counts[0, 0] = table
    z2.n[0, 0] = table.sum()
    columns, matrix = est.program.projections[0]
    resamples = z2._resamples
    if first is not None:
        offset = est.program.leaf_offsets[first]
        block = np.zeros(est.program.n_leaf_cells, dtype=bool)
        block[offset : offset + 2 ** len(est.program.leaf_vars(est.program.leaves[first]))] = True
        assert (block[columns].sum(), (~block[columns]).sum()) > (0, 0)  # a real part of arm 0's columns
        resamples.reveal(np.zeros(1, dtype=np.int64), z2._streams, z2.counts, z2.n, block[None])
        assert np.array_equal(resamples.revealed[0], block)
        before = resamples.replicates[0].copy()
    everything = np.zeros(est.program.n_leaf_cells, dtype=bool)
    everything[columns] = True
    resamples.reveal(np.zeros(1, dtype=np.int64), z2._streams, z2.counts, z2.n, everything[None])
    if first is not None:  # the refinement keeps what was revealed
        np.testing.assert_array_equal(resamples.replicates[0][block], before[block])
    x = resamples.replicates[0][columns].T.astype(float)  # (B, columns)
    n, p = table.sum(), table / table.sum()
    mean = n * p @ matrix
    cov = matrix.T @ (n * (np.diag(p) - np.outer(p, p))) @ matrix
    sd = np.sqrt(np.diag(cov))
    assert np.all(np.abs(x.mean(axis=0) - mean) <= 6 * sd / np.sqrt(B))
    # Var of a sample covariance ≈ (σ_ii σ_jj + σ_ij²) / B (the counts are close to normal at n = 100)
    se = np.sqrt((np.outer(sd**2, sd**2) + cov**2) / B)
    assert np.all(np.abs(np.cov(x, rowvar=False) - cov) <= 6 * se + 1e-9)
    # the replicates differ from one another (independent draws, not one copy)
    assert np.unique(x, axis=0).shape[0] > B // 2


@pytest.mark.parametrize(("graph", "N"), [("frontdoor", ("Z",)), ("fig2a", ("A",)), ("fig5d", ("A", "C"))])
def test_an_instance_reads_only_the_leaf_cells_it_lists(graph, N):
    """An instance's value depends only on the leaf counts of :attr:`InstanceEstimators.reads_cells` (what the
    lazy bootstrap reveals for it): changing every other leaf count leaves it unchanged bit for bit."""
    est = pomis_plus_estimators(GRAPHS[graph], "Y", N)
    rng = np.random.default_rng(11)
    counts = rng.integers(1, 30, (6, est.program.n_leaf_cells)).astype(float)
    totals = rng.integers(200, 400, (6, len(est.layout.arms))).astype(float)
    other = np.where(est.reads_cells[None], 0.0, rng.integers(1, 30, (6, 1, est.program.n_leaf_cells)))
    base = est.values(counts, totals)
    for i in range(est.n_instances):
        changed = np.where(est.reads_cells[i], counts, other[:, i])
        np.testing.assert_array_equal(est.values(changed, totals)[:, i], base[:, i])


@pytest.mark.parametrize(("graph", "N"), [("frontdoor", ("Z",)), ("fig2a", ("A",)), ("fig5d", ("A", "C"))])
def test_batch_last_evaluation_gives_the_same_bits(graph, N):
    """The z² solvers evaluate their catalogue with the batch axes last (numpy's inner loops along the batch):
    every instance value equals the batch-first evaluation bit for bit, nan where undefined, broadcast totals
    included (the bootstrap replicates share their seed's sample sizes)."""
    est = pomis_plus_estimators(GRAPHS[graph], "Y", N)
    rng = np.random.default_rng(7)
    counts = rng.integers(0, 30, (4, 25, est.program.n_leaf_cells)).astype(float)
    totals = rng.integers(30, 300, (4, 1, len(est.layout.arms))).astype(float)
    totals[0, :, :2], counts[0] = 0, 0  # arms without samples: 0/0
    first = est.values(counts, totals)
    last = est.values_last(
        np.ascontiguousarray(counts.transpose(2, 0, 1)), np.ascontiguousarray(totals.transpose(2, 0, 1))
    )
    np.testing.assert_array_equal(first, last.transpose(1, 2, 0))
