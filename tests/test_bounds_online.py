"""Huang & Wu online stage: contextual runs on the engine, LinUCB / LinUCB-PCB / warm starts (Algorithm 4),
UCB-PCB (Algorithm 6), OAM-PCB's allocation (Algorithm 5), and the run / aggregate helpers."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from engine_helpers import simulate_trace

from causal_bandits.bandits.environments import BernoulliArms, ContextualBernoulli
from causal_bandits.bandits.linucb import LinUCB
from causal_bandits.bandits.oam_pcb import OAMPCB, allocation
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.bandits.ucb_pcb import UCBPCB
from causal_bandits.papers.bounds import runs as bounds_online
from causal_bandits.papers.bounds import tables as bounds_tables
from causal_bandits.papers.bounds.features import feature_map
from causal_bandits.rng import SeedStreams

# Figure 2's exact environment (docs/papers/bounds.md#bounds-model): mu = 0.1 + (0.925 + 0.25 x1 + u1 + x2) / 6.
U1 = np.array([0, 0, 1, 1])
X1, X2 = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
MU = 0.1 + (0.925 + 0.25 * X1[None, :] + U1[:, None] + X2[None, :]) / 6
P_CONTEXT = np.array([0.24, 0.36, 0.16, 0.24])
ENV = ContextualBernoulli(P_CONTEXT, MU)
F4 = feature_map("paper4", 2, 2)


def run(policy, seeds=range(4), horizon=300, env=ENV, experiment="test"):
    return simulate_trace(policy, env, seeds, horizon, experiment=experiment)[1]


def test_feature_maps():
    assert F4.shape == (4, 4, 4)
    assert F4[2, 1].tolist() == [1, 0, 0, 1]  # context (u1, u2) = (1, 0), arm (x1, x2) = (0, 1)
    bias = feature_map("bias5", 2, 2)
    assert bias[3, 3].tolist() == [1, 1, 1, 1, 1]
    with pytest.raises(ValueError, match="unknown feature map"):
        feature_map("paper5", 2, 2)


class Recording(LinUCB):
    """LinUCB that records the contexts it is shown."""

    def select(self, t, contexts):
        self.seen = [*getattr(self, "seen", []), contexts.copy()]
        return super().select(t, contexts)


def test_environment_draws_follow_the_context_distribution():
    streams = SeedStreams("test", "crn", [0, 1, 2], "environment")
    noise = streams.uniform(ENV.noise_width)
    contexts = ENV.contexts(1, noise, np.arange(3))
    assert contexts.tolist() == np.searchsorted(np.cumsum(P_CONTEXT), noise[:, 0], side="right").tolist()
    for arm in range(4):
        rewards, _ = ENV.pull(1, contexts, np.full(3, arm), noise)
        assert (rewards == (noise[:, 1 + arm] < MU[contexts, arm])).all()
    many = SeedStreams("test", "crn", [0], "environment").uniform(5 * 20_000).reshape(-1, 5)
    assert np.bincount(ENV.contexts(1, many, np.arange(20_000)), minlength=4) / 20_000 == pytest.approx(
        P_CONTEXT, abs=0.015
    )


def test_fixed_contexts_are_shown_to_every_seed():
    """context_source: offline_rows — the first T generated rows' contexts, the same in every run."""
    rows = np.array([[0, 1], [1, 1], [1, 0], [0, 0], [1, 1]])
    fixed = bounds_online.context_index(rows)
    assert fixed.tolist() == [1, 3, 2, 0, 3]
    policy = Recording(F4)
    run(policy, horizon=5, env=ContextualBernoulli(P_CONTEXT, MU, fixed))
    assert np.array(policy.seen).tolist() == [[c] * 4 for c in fixed]


def test_every_algorithm_meets_the_same_contexts():
    """Common random numbers: the context sequence depends on the seed, not on the algorithm."""
    plain, truncated = Recording(F4), Recording(F4, upper=MU)
    a, b = run(plain, horizon=200), run(truncated, horizon=200)
    assert np.array_equal(np.array(plain.seen), np.array(truncated.seen))
    assert not np.array_equal(a.arm, b.arm)


class TrackingLinUCB(LinUCB):
    """LinUCB that also accumulates A_a = λI + Σ x xᵀ and b_a = Σ r x explicitly."""

    def reset(self, n_seeds, n_arms, stream):
        super().reset(n_seeds, n_arms, stream)
        self.a = np.broadcast_to(self.lam * np.eye(self.features.shape[2]), self._a_inv.shape).copy()
        self.b = np.zeros(self._theta.shape)

    def update(self, feedback):
        contexts, arms, rewards = feedback.contexts, feedback.arms, feedback.rewards
        x, rows = self.features[contexts, arms], np.arange(len(arms))
        self.a[rows, arms] += x[:, :, None] * x[:, None, :]
        self.b[rows, arms] += rewards[:, None] * x
        super().update(feedback)


def test_rank_one_updates_keep_the_exact_ridge_solution():
    policy = TrackingLinUCB(F4, alpha=1.0, warm_rewards=MU, warm_counts=np.full((4, 4), 2.0))
    run(policy, horizon=3000)
    a0, b0 = policy.prior()
    a, b = policy.a - np.eye(4) + a0, policy.b + b0
    assert np.allclose(policy._a_inv, np.linalg.inv(a), rtol=1e-9, atol=1e-12)
    assert np.allclose(policy._theta, np.linalg.solve(a, b[..., None])[..., 0], atol=1e-10)


def _reference_linucb(seed: int, horizon: int, alpha: float, upper=None):
    """Algorithm 4 for one seed, the textbook way (explicit A, b per arm, solve every round)."""
    env = SeedStreams("test", "ref", [seed], "environment")
    ties = SeedStreams("test", "ref", [seed], "policy/ties")
    a = np.stack([np.eye(4)] * 4)
    b = np.zeros((4, 4))
    arms = []
    for _t in range(1, horizon + 1):
        noise = env.uniform(5)
        c = int(np.searchsorted(np.cumsum(P_CONTEXT)[:-1], noise[0, 0], side="right"))
        index = np.empty(4)
        for k in range(4):
            x = F4[c, k]
            a_inv = np.linalg.inv(a[k])
            index[k] = a_inv @ b[k] @ x + alpha * np.sqrt(x @ a_inv @ x)
            if upper is not None:
                index[k] = min(index[k], upper[c, k])
        arm = int(random_argmax(index[None], ties)[0])
        x = F4[c, arm]
        a[arm] += np.outer(x, x)
        b[arm] += float(noise[0, 1 + arm] < MU[c, arm]) * x
        arms.append(arm)
    return arms


@pytest.mark.parametrize("upper", [None, MU + 0.02])
def test_vectorised_linucb_matches_the_per_seed_algorithm(upper):
    horizon = 400
    trace = run(LinUCB(F4, alpha=1.5, upper=upper), seeds=range(3), horizon=horizon, experiment="ref")
    for seed in range(3):
        assert trace.arm[seed].tolist() == _reference_linucb(seed, horizon, 1.5, upper)


def test_results_do_not_depend_on_the_chunking():
    whole = run(LinUCB(F4, upper=MU + 0.05), seeds=range(6))
    parts = [run(LinUCB(F4, upper=MU + 0.05), seeds=s) for s in (range(2), range(2, 6))]
    for field in dataclasses.fields(whole):
        joined = np.concatenate([getattr(p, field.name) for p in parts]) if field.name != "rounds" else parts[0].rounds
        assert np.array_equal(getattr(whole, field.name), joined), field.name


def test_pcb_truncation_follows_the_upper_bounds():
    """Line 10: with U = 0 for all but one arm per context, LinUCB-PCB pulls only that arm."""
    allowed = np.array([2, 0, 3, 1])
    upper = np.zeros((4, 4))
    upper[np.arange(4), allowed] = 1.0
    trace = run(LinUCB(F4, upper=upper), horizon=200)
    optimal_share = trace.optimal.mean()
    assert set(np.unique(trace.arm)) <= set(allowed)
    assert 0 < optimal_share < 1  # only context 2 allows the optimal arm (3)
    # and with the true means as bounds (tight, containing the truth) regret stays far below LinUCB's
    tight = run(LinUCB(F4, upper=MU), horizon=1500).cum_regret[:, -1].mean()
    plain = run(LinUCB(F4), horizon=1500).cum_regret[:, -1].mean()
    assert tight < 0.5 * plain


def test_warm_start_is_pseudo_observations():
    rewards = MU + 0.1
    counts = np.full((4, 4), 3.0)
    counts[0, 0] = 0.0
    policy = LinUCB(F4, lam=2.0, warm_rewards=rewards, warm_counts=counts)
    a, b = policy.prior()
    for arm in range(4):
        x = F4[:, arm]
        assert np.allclose(
            a[arm], 2.0 * np.eye(4) + (counts[:, arm, None, None] * x[:, :, None] * x[:, None, :]).sum(0)
        )
        assert np.allclose(b[arm], (counts[:, arm, None] * rewards[:, arm, None] * x).sum(0))
    nan_cell = rewards.copy()
    nan_cell[1, 1] = np.nan  # an empty cell carries no evidence whatever its weight
    a2, _ = LinUCB(F4, warm_rewards=nan_cell, warm_counts=np.ones((4, 4))).prior()
    a3, _ = LinUCB(F4, warm_rewards=rewards, warm_counts=np.where(np.arange(16).reshape(4, 4) == 5, 0, 1.0)).prior()
    assert np.allclose(a2, a3)
    zero = run(LinUCB(F4, warm_rewards=rewards, warm_counts=np.zeros((4, 4))))
    assert np.array_equal(zero.arm, run(LinUCB(F4)).arm)


def test_ucb_pcb_never_pulls_an_arm_its_bounds_exclude():
    means = np.array([0.3, 0.5, 0.45, 0.2])
    lower, upper = np.array([0.1, 0.48, 0.3, 0.0]), np.array([0.4, 0.7, 0.6, 0.45])  # U_0, U_3 < L_1
    trace = run(UCBPCB(500, lower, upper), seeds=range(5), horizon=500, env=BernoulliArms(means), experiment="ucb")
    assert set(np.unique(trace.arm)) <= {1, 2}
    plain = run(UCBPCB(500), seeds=range(5), horizon=500, env=BernoulliArms(means), experiment="ucb")
    assert set(np.unique(plain.arm)) == {0, 1, 2, 3}
    assert trace.cum_regret[:, -1].mean() < plain.cum_regret[:, -1].mean()


def test_oam_allocation_has_the_closed_form_for_orthogonal_features():
    """With one-hot features the constraints decouple: T_j = f / Δ_j² − λ for suboptimal cells."""
    gaps = np.array([0.0, 0.1, 0.2, 0.05])
    f, lam = 20.0, 1.0
    t = allocation(np.eye(4), gaps, f, lam)
    assert t[1:] == pytest.approx(f / gaps[1:] ** 2 - lam, rel=1e-4)
    assert t[0] == pytest.approx(f / 0.05**2)  # optimal cell: the cap f / Δ²_min
    assert np.isinf(allocation(np.eye(4), np.zeros(4), f, lam)).all()


def test_oam_pcb_runs_and_keeps_its_statistics():
    bias = feature_map("bias5", 2, 2)
    policy = OAMPCB(bias, 400, lower=MU - 0.1, upper=MU + 0.1)
    trace = run(policy, horizon=400)
    assert trace.cum_regret[:, -1].max() < 400 * (MU.max(1) - MU.min(1)).max()
    g = np.linalg.inv(policy._g_inv)
    assert np.allclose(g, np.swapaxes(g, -1, -2), atol=1e-8)
    assert policy._pulls.sum() == 4 * 400 and policy.solves > 0


def test_final_table_ranks_algorithms():
    agg = pd.DataFrame(
        {
            "algorithm": ["linucb", "linucb", "linucb_pcb", "linucb_pcb"],
            "round": [1, 10, 1, 10],
            "n_seeds": 4,
            "mean_cum_regret": [0.1, 5.0, 0.0, 2.0],
            "sd_cum_regret": [0.0, 2.0, 0.0, 1.0],
        }
    )
    table = bounds_tables.final_table(agg, ["linucb_pcb", "linucb"])
    assert table["algorithm"].tolist() == ["LinUCB-PCB", "LinUCB"]
    assert table["rank"].tolist() == [1, 2] and table["se_R_T"].tolist() == [0.5, 1.0]
