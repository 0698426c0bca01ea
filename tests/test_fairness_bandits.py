"""UCB, C-UCB, D-UCB, F-UCB, Fair-LinUCB and the fairness auditor on the Email instance."""

import numpy as np
import pytest
from engine_helpers import FairnessRounds

from causal_bandits.bandits.audit import FairnessAuditor
from causal_bandits.bandits.causal_environment import CausalEnvironment
from causal_bandits.bandits.cells import CellEstimator, CellModel
from causal_bandits.bandits.certificate import discrepancy_estimate, radius_floor
from causal_bandits.bandits.engine import Feedback, Streams, simulate
from causal_bandits.bandits.fair_linucb import FairLinUCB
from causal_bandits.bandits.fucb import FUCB
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.papers.fairness import email as fe
from causal_bandits.papers.fairness import runs as fr
from causal_bandits.rng import SeedStreams

EMAIL = {"sensitive": "X1", "s_plus": 2, "s_minus": 1, "p_x_equals_2": {"X1": 0.5, "X2": 0.5, "X3": 0.5}, "sigma": 0.1}
RUN = {
    "horizon": 400,
    "ucb": {"per_context": False},
    "fairlinucb": {"alpha": 1.0, "lambda": 1.0, "gamma": 1.0},
    "fucb": {"alpha_r": 1.0, "alpha_c": 1.0, "fallback": "unconstrained", "safe_arm": {}},
}


@pytest.fixture(scope="module")
def doc():
    return fe.instance_document(EMAIL)


def run(doc, name, seeds, config=RUN):
    """Every round of ``name`` on the Email instance (a FairnessRounds recorder)."""
    env = CausalEnvironment.from_document(doc)
    rounds = FairnessRounds(
        FairnessAuditor(CellModel.from_document(doc["models"]["ducb"]), [1.0], config["fucb"]["alpha_c"])
    )
    simulate(
        fr.build_policy(name, doc, config),
        env,
        Streams("fairness", "email", np.asarray(seeds)),
        config["horizon"],
        [rounds],
    )
    return rounds


@pytest.mark.parametrize("name", ["ucb", "cucb", "fucb_tau0.5"])
def test_results_do_not_depend_on_which_seeds_share_a_job(doc, name):
    together = run(doc, name, [0, 1, 2])
    for i, seed in enumerate([0, 1, 2]):
        alone = run(doc, name, [seed])
        np.testing.assert_array_equal(together.arms[i], alone.arms[0])
        np.testing.assert_array_equal(together.rewards[i], alone.rewards[0])
        np.testing.assert_array_equal(together.ucb_delta[i], alone.ucb_delta[0])


def test_regret_ordering_ucb_cucb_ducb_at_a_short_horizon(doc):
    cfg = {**RUN, "horizon": 1500}
    regret = {n: run(doc, n, [0, 1, 2], cfg).regret.sum(axis=1).mean() for n in ("ucb", "cucb", "ducb")}
    assert regret["ucb"] > regret["cucb"] > regret["ducb"]


def test_uncertified_fucb_plays_ducbs_arms(doc):
    floor = radius_floor(CellModel.from_document(doc["models"]["ducb"]), RUN["horizon"])
    assert floor > 0.5
    fucb, ducb = run(doc, "fucb_tau0.5", [0, 1]), run(doc, "ducb", [0, 1])
    np.testing.assert_array_equal(fucb.arms, ducb.arms)
    assert fucb.certified[:, 0].all() and not fucb.certified[:, 1:].any()


def test_auditor_counts_equal_fucb_uncertified_rounds(doc):
    rec = run(doc, "fucb_tau1", [0, 1, 2])
    uncertified = (~rec.certified).sum(axis=1)
    assert uncertified.min() > 0 and uncertified.max() < RUN["horizon"]
    np.testing.assert_array_equal((rec.ucb_delta > 1.0).sum(axis=1), uncertified)
    assert (rec.ucb_delta[rec.certified] <= 1.0).all()


def test_radius_floor_bounds_every_recorded_certificate(doc):
    model = CellModel.from_document(doc["models"]["ducb"])
    for name in ("ucb", "ducb"):
        rec = run(doc, name, [0, 1])
        assert (rec.min_ucb_delta[:, 1:] >= radius_floor(model, RUN["horizon"]) - 1e-12).all()


def test_min_ucb_delta_fallback_and_safe_arm(doc):
    cfg = {**RUN, "fucb": {**RUN["fucb"], "fallback": "safe_arm", "safe_arm": {"email": 7}}}
    rec = run(doc, "fucb_tau0.1", [0], cfg)
    assert (rec.arms[0, 1:] == 7).all()
    cfg = {**RUN, "fucb": {**RUN["fucb"], "fallback": "min_ucb_delta"}}
    rec = run(doc, "fucb_tau0.1", [0], cfg)
    np.testing.assert_allclose(rec.ucb_delta[0, 1:], rec.min_ucb_delta[0, 1:])


def test_fucb_rejects_a_tau_outside_the_unit_interval(doc):
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        FUCB(CellModel.from_document(doc["models"]["ducb"]), 1.5)


def test_bounds_mode_discrepancy_on_a_hand_example():
    # One user feature S (2 values) and one descendant B (2 values): 4 contexts (S, B); 1 arm; W = {B}.
    contexts = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    cf = np.array([[[0, 1], [2, 3]]] * 4)  # S := s+ (0) or s- (1), B := b
    model = CellModel(("B",), (1,), (2,), (), contexts[:, 1].reshape(4, 1, 1), np.ones((4, 1, 1)), cf, "bounds")
    est = CellEstimator(1, 2)
    est.update(np.array([0]), np.array([0.2]))
    est.update(np.array([1]), np.array([0.7]))
    # mu_hat(B=0) = 0.2, mu_hat(B=1) = 0.7 for both values of S: Lo = 0.2, Hi = 0.7 -> Delta_hat = 0.5
    assert discrepancy_estimate(model, est, np.array([0]))[0, 0] == pytest.approx(0.5)
    ident = CellModel(("B",), (1,), (2,), (), model.cells, model.weights, cf[:, :, :1], "identifiable")
    assert discrepancy_estimate(ident, est, np.array([1]))[0, 0] == pytest.approx(0.0)


def test_fair_linucb_keeps_the_exact_inverse():
    rng = np.random.default_rng(0)
    features = rng.integers(0, 2, (4, 3, 5)).astype(float)
    policy = FairLinUCB(features, np.array([0, 1, 0, 1]), lam=2.0)
    policy.reset(2, 3, lambda name: SeedStreams("fairness", "test", [0, 1], name))
    gram = np.tile(2.0 * np.eye(5), (2, 1, 1))
    for t in range(1, 30):
        ctx = rng.integers(0, 4, 2)
        arms = policy.select(t, ctx)
        phi = features[ctx, arms]
        gram += phi[:, :, None] * phi[:, None, :]
        policy.update(Feedback(arms, rng.random(2), ctx))
    np.testing.assert_allclose(policy._a_inv, np.linalg.inv(gram), atol=1e-10)


def test_random_argmax_is_uniform_among_maxima_only():
    streams = SeedStreams("fairness", "test", range(4000), "ties")
    scores = np.tile([1.0, 3.0, 3.0, 2.0], (4000, 1))
    picks = random_argmax(scores, streams)
    assert set(picks) == {1, 2} and abs((picks == 1).mean() - 0.5) < 0.03
    allowed = np.tile([True, False, False, True], (4000, 1))
    assert set(random_argmax(scores, streams, allowed)) == {3}
