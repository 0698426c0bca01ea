"""cpe instances and complexity quantities: closed forms against brute force, our reference
(docs/papers/cpe.md#cpe-experiments) tables, the paper's §3 worked example, Lemma 1, admissible sequences, documents and
bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causal_bandits.bandits.ccpe_bglm import bglm_observability
from causal_bandits.bandits.parallel_bandit import observation_threshold
from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe import families as F
from causal_bandits.papers.cpe.actions import Action, all_actions, atomic_actions, canonical
from causal_bandits.papers.cpe.admissible import adjustment_sequence, eq10_mean, is_admissible, parent_sequence
from causal_bandits.papers.cpe.assumptions import eta, kappa
from causal_bandits.papers.cpe.complexity import (
    H_prefix,
    effective_gaps,
    gap_dependent_threshold,
    gaps,
    lower_bound_thm3,
)
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.quantities import Quantities, quantities
from causal_bandits.papers.cpe.scm import BinarySCM, Mechanism, bernoulli

SMALL = {
    "parallel n=4": lambda: F.parallel(4),
    "rare n=6 r=0": lambda: F.rare(0, 0.5, n=6),
    "rare n=6 r=3 d=0.4": lambda: F.rare(3, 0.4, n=6, p_rare=0.1),
    "confounded rho=0": lambda: F.confounded(0.0),
    "confounded rho=0.5": lambda: F.confounded(0.5),
    "confounded rho=0.95": lambda: F.confounded(0.95, rho_Y=0.6),
    "bglm k=1": lambda: F.bglm(1),
    "bglm k=3": lambda: F.bglm(3),
    "bglm k=4": lambda: F.bglm(4),
    "parallel_max n=3 p=0.5": lambda: F.parallel_max(3, 0.5),
    "parallel_max n=5 p=0.05": lambda: F.parallel_max(5, 0.05),
}


def _brute_force(instance: CPEInstance):
    """μ_a, E[Y | S = s] and q^(G)_a from one enumeration of the whole SCM (hidden nodes included)."""
    scm = instance.scm
    names, configs, prob = scm.joint()
    col = {v: i for i, v in enumerate(names)}
    y = configs[:, col[scm.reward]]
    mu, naive, q = [], [], []
    for a, seq in zip(instance.actions, instance.sequences):
        mu.append(scm.interventional_mean(a.as_dict()))
        match = np.ones(len(prob), dtype=bool)
        for v, x in a.assignment:
            match &= configs[:, col[v]] == x
        naive.append(prob[match] @ y[match] / prob[match].sum())
        if not a.S:
            q.append(1.0)
        elif seq is None:
            q.append(0.0)
        else:
            cells = [
                prob[match & (configs[:, [col[z] for z in seq.Z]] == z).all(axis=1)].sum()
                for z in np.ndindex(*(2,) * len(seq.Z))
            ]
            q.append(min(cells))
    return np.array(mu), np.array(naive), np.array(q)


@pytest.mark.parametrize("name", list(SMALL))
def test_closed_forms_match_enumeration_of_the_whole_scm(name):
    instance = SMALL[name]()
    mu, naive, q = _brute_force(instance)
    np.testing.assert_allclose(instance.mu, mu, rtol=0, atol=1e-12)
    np.testing.assert_allclose(instance.naive_mu, naive, rtol=0, atol=1e-12)
    np.testing.assert_allclose(instance.q_general(), q, rtol=0, atol=1e-12)


def test_confounding_makes_naive_means_differ_and_parallel_ones_agree():
    conf = F.confounded(0.8)
    assert np.abs(conf.naive_mu - conf.mu).max() > 0.05
    # docs/papers/cpe.md#cpe-e3: the naive argmax is do(X3=1,X6=1), whose true gap is 0.05.
    assert conf.labels[int(conf.naive_mu.argmax())] == "do(X3=1,X6=1)"
    assert conf.mu.max() - conf.mu[int(conf.naive_mu.argmax())] == pytest.approx(0.05, abs=1e-12)
    assert np.array_equal(F.parallel(4).naive_mu, F.parallel(4).mu)


@pytest.mark.parametrize("name", ["confounded rho=0.5", "confounded rho=0.95", "bglm k=3", "parallel n=4"])
def test_emitted_admissible_sequences_are_valid(name):
    """Each emitted sequence satisfies Definition 3 (d-separation with hidden nodes) and Eq. (10)
    on the exact observational joint equals the exact do-mean."""
    instance = SMALL[name]()
    checked = 0
    for a, seq, mu in zip(instance.actions, instance.sequences, instance.mu):
        if seq is None:
            continue
        assert is_admissible(instance.scm, seq), a.label
        assert abs(eq10_mean(instance.scm, seq, a.as_dict()) - mu) < 1e-12, a.label
        checked += 1
    assert checked == sum(seq is not None for seq in instance.sequences) > 0


def test_admissibility_check_rejects_what_confounding_breaks():
    conf = F.confounded(0.8)
    # do(X1=1): X1 <- U1 -> X2 -> Y is open without X2; do(X7=1): U_Y is hidden, nothing blocks it.
    assert not is_admissible(conf.scm, adjustment_sequence(("X1",), ()))
    assert not is_admissible(conf.scm, adjustment_sequence(("X7",), ()))
    assert not is_admissible(conf.scm, adjustment_sequence(("X1",), ("Y",)))
    assert is_admissible(conf.scm, adjustment_sequence(("X1",), ("X2",)))
    assert all(seq is None for a, seq in zip(conf.actions, conf.sequences) if "X7" in a.S)
    assert sum(seq is None for seq in conf.sequences) == 1 + 26  # do() has none by convention


def test_parent_sequence_on_a_chain_gives_a_valid_non_trivial_sequence():
    """Theorem 4's construction on a graph without hidden nodes where Z_2 is not empty."""
    mechanisms = {
        "X1": bernoulli(0.3),
        "X2": Mechanism("linear", ("X1",), (0.5,), intercept=0.2),
        "X3": Mechanism("linear", ("X1", "X2"), (0.3, 0.4), intercept=0.1),
        "X4": Mechanism("linear", ("X3",), (0.6,), intercept=0.2),
        "Y": Mechanism("linear", ("X1", "X2", "X3", "X4"), (0.2, 0.1, 0.3, 0.2), intercept=0.1),
    }
    scm = BinarySCM(("X1", "X2", "X3", "X4", "Y"), mechanisms)
    seq = parent_sequence(scm, ("X4", "X2"))
    assert seq.order == ("X2", "X4") and seq.blocks == (("X1",), ("X3",))
    assert is_admissible(scm, seq)
    for s in [(0, 0), (0, 1), (1, 0), (1, 1)]:
        values = {"X2": s[0], "X4": s[1]}
        assert abs(eq10_mean(scm, seq, values) - scm.interventional_mean(values)) < 1e-12


# -- reference values of docs/papers/cpe.md#cpe-experiments (printed rounding) -----------------------------------------


def _complexity(instance, epsilon=0.0):
    q = instance.q_general()
    g = effective_gaps(instance.mu, epsilon)
    H = H_prefix(q, g)
    m_eps = gap_dependent_threshold(q, g)
    return q, g, H, int(observation_threshold(q)[0]), m_eps


@pytest.mark.parametrize("n", [4, 8, 16, 32, 64])
def test_e1_reference_values(n):
    q, _g, H, m, m_eps = _complexity(F.parallel(n))
    assert H[-1] == pytest.approx(200 * n + 25, abs=1e-9)
    assert (m, m_eps) == (2, 2)
    assert H[m_eps - 1] == pytest.approx(200, abs=1e-9)
    assert set(np.round(q[1:], 12)) == {0.5}


E2 = [  # (r, d): (Δ_min, H, m, m_eps, H_m, m/Δ_min²)
    ((1, 0.5), (0.0940, 6484, 2, 3, 224, 226)),
    ((2, 0.5), (0.0931, 6532, 2, 4, 237, 231)),
    ((4, 0.5), (0.0912, 6625, 4, 6, 264, 481)),
    ((8, 0.5), (0.0876, 6800, 8, 10, 326, 1042)),
    ((16, 0.5), (0.0808, 7094, 16, 17, 336, 2448)),
    ((8, 0.05), (0.0987, 6249, 8, 8, 524, 821)),
    ((8, 0.1), (0.0974, 6199, 8, 8, 372, 843)),
    ((8, 0.2), (0.0949, 6254, 8, 9, 328, 888)),
    ((8, 0.4), (0.0900, 6587, 8, 10, 340, 988)),
    ((8, 0.8), (0.0807, 7538, 8, 10, 325, 1227)),
]


@pytest.mark.parametrize("args,expected", E2)
def test_e2_reference_values(args, expected):
    instance = F.rare(*args)
    _q, _g, H, m, m_eps = _complexity(instance)
    d_min = gaps(instance.mu).min()
    assert round(d_min, 4) == expected[0]
    assert round(H[-1]) == expected[1]
    assert (m, m_eps) == expected[2:4]
    assert round(H[m_eps - 1]) == expected[4]
    assert round(m / d_min**2) == expected[5]


@pytest.mark.parametrize(
    "rho,expected",
    [
        (0.0, (26, 29, 1663, 0.44)),
        (0.5, (29, 33, 2063, 0.55)),
        (0.8, (74, 46, 2578, 0.68)),
        (0.95, (74, 75, 2968, 0.79)),
    ],
)
def test_e3_reference_values(rho, expected):
    instance = F.confounded(rho)
    q, _g, H, m, m_eps = _complexity(instance)
    assert instance.mu.max() == pytest.approx(0.725, abs=1e-12)
    assert instance.labels[int(instance.mu.argmax())] == "do(X3=1,X4=1)"
    assert gaps(instance.mu).min() == pytest.approx(0.05, abs=1e-12)
    assert round(H[-1], 1) == 3767.4
    assert (m, m_eps, round(H[m_eps - 1])) == expected[:3]
    assert round(H[m_eps - 1] / H[-1], 2) == expected[3]
    assert (q == 0).sum() == 26


E4B = {
    2: (0.1341, 216, 111, 0.914),
    3: (0.1126, 458, 221, 0.952),
    4: (0.1002, 880, 420, 0.951),
    5: (0.0747, 2092, 855, 0.935),
    6: (0.0638, 4339, 1249, 0.910),
    7: (0.0448, 11183, 2602, 0.852),
    8: (0.0362, 2.61e4, 4.54e3, 0.766),
}


@pytest.mark.parametrize("k", sorted(E4B))
def test_e4b_reference_values(k):
    """E4b table (k <= 8 here; 10 and 12 take a minute and run in the workflow)."""
    instance = F.bglm(k)
    q, g, H, _m, m_eps = _complexity(instance)
    q_L = bglm_observability(instance.bglm_structure(), instance.policy_arms())
    q_L[0] = 1.0
    H_L = H_prefix(q_L, g)[gap_dependent_threshold(q_L, g) - 1]
    d_min, H_all, H_m, ratio = E4B[k]
    assert round(gaps(instance.mu).min(), 4) == d_min
    assert float(f"{H[-1]:.3g}") == float(f"{H_all:.3g}")
    assert float(f"{H[m_eps - 1]:.3g}") == float(f"{H_m:.3g}")
    assert round(H_L / H[-1], 3) == ratio
    assert H[m_eps - 1] < H_L < H[-1]  # docs/papers/cpe.md#cpe-results
    np.testing.assert_allclose(q[1:], [2.0 ** -len(a.S) for a in instance.actions[1:]], atol=1e-15)


E5 = {
    (4, 0.5): (800, -947),
    (4, 0.2): (625, 731),
    (4, 0.05): (443, 568),
    (8, 0.5): (800, -1180),
    (8, 0.2): (781, 1084),
    (8, 0.05): (886, 1877),
    (16, 0.5): (800, -1198),
    (16, 0.2): (781, 967),
    (16, 0.05): (1773, 4492),
    (32, 0.5): (800, -1198),
    (32, 0.2): (781, 937),
    (32, 0.05): (2216, 5746),
}


@pytest.mark.parametrize("n,p", sorted(E5))
def test_e5_reference_values_and_theorem3_class(n, p):
    instance = F.parallel_max(n, p)
    q, g, H, _m, m_eps = _complexity(instance)
    assert round(H[m_eps - 1]) == E5[n, p][0]
    assert round(lower_bound_thm3(q, g, 0.05)) == E5[n, p][1]
    assert quantities(instance, 0.0, 0.05).summary["in_thm3_class"]


def test_theorem3_class_excludes_other_families():
    assert not quantities(F.parallel(4), 0.0, 0.05).summary["in_thm3_class"]  # p_max + 2Δ_max = 1.0 > 0.9
    assert not quantities(F.confounded(0.5), 0.0, 0.05).summary["in_thm3_class"]


# -- the paper's §3 worked example, Lemma 1, Theorem 2 vs LUCB ---------------------------------


def test_worked_example_of_section_3():
    """|A| = 21, q = 1/10 except q_do() = 1, the best and the runner-up with Δ = 0.1, the rest 0.5,
    ε = 0.05: m = 10, m_{ε,Δ} = 2, H_2 = 200."""
    mu = np.full(21, 0.1)
    mu[3], mu[7] = 0.6, 0.5
    q = np.full(21, 0.1)
    q[0] = 1.0
    g = effective_gaps(mu, 0.05)
    assert np.allclose(sorted(g), [0.1, 0.1] + [0.5] * 19)
    assert observation_threshold(q)[0] == 10
    assert gap_dependent_threshold(q, g) == 2
    assert H_prefix(q, g)[1] == pytest.approx(200.0)


def _definition1(q):
    return min(t for t in range(1, len(q) + 1) if sum(x * t < 1 - 1e-12 for x in q) <= t)


def _definition2(q, g):
    H = H_prefix(q, g)
    return min(t for t in range(1, len(q) + 1) if sum(x * y**2 * H[t - 1] < 1 - 1e-12 for x, y in zip(q, g)) <= t)


instances = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n),
        st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n),
        st.sampled_from([0.0, 0.01, 0.05, 0.2]),
    )
)


@settings(max_examples=300, deadline=None)
@given(instances)
def test_lemma1_and_the_thresholds_on_random_instances(case):
    """Lemma 1 (m_{ε,Δ} <= 2m), H_{m_{ε,Δ}} <= H (Theorem 2 vs LUCB), and both thresholds equal
    their literal definitions."""
    q, mu, epsilon = case
    q = np.array(q)
    q[0] = 1.0
    mu = np.array(mu)
    try:
        g = effective_gaps(mu, epsilon)
    except ConfigError:  # ε = 0 with a tied best arm: not a valid instance
        return
    m = int(observation_threshold(q)[0])
    m_eps = gap_dependent_threshold(q, g)
    assert m == _definition1(q)
    assert m_eps == _definition2(q, g)
    assert m_eps <= 2 * m
    assert H_prefix(q, g)[m_eps - 1] <= H_prefix(q, g)[-1]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from([0.0, 0.01, 0.1, 0.25, 0.3, 0.5, 1.0]), min_size=6, max_size=6), min_size=1, max_size=5
    )
)
def test_observation_threshold_is_vectorised_row_by_row(rows):
    q = np.array(rows)
    assert observation_threshold(q).tolist() == [_definition1(row) for row in q]


def test_gaps_need_a_unique_best_arm_when_epsilon_is_zero():
    with pytest.raises(ConfigError, match="not unique"):
        gaps(np.array([0.5, 0.7, 0.7]), 0.0)
    assert effective_gaps(np.array([0.5, 0.7, 0.7]), 0.1).min() == pytest.approx(0.05)


# -- BGLM constants -------------------------------------------------------------------------


def test_bglm_constants_of_e4():
    instance = F.bglm(3)
    assert eta(instance.scm, "X1") == instance.eta == pytest.approx(0.5)
    theta = np.array(F.bglm_weights(3))
    vertices = np.array(np.meshgrid(*[[0, 1]] * 4)).reshape(4, -1).T
    z = np.abs(vertices @ theta) + np.sqrt(vertices.sum(axis=1))
    p = 1 / (1 + np.exp(-z))
    root = 1 / (1 + np.exp(-1.0))  # a root's θ = (0): worst vertex v = (1), z = 0 + ‖v‖ = 1
    assert (
        instance.kappa
        == kappa(instance.scm, "X1", "logistic")
        == pytest.approx(min((p * (1 - p)).min(), root * (1 - root)), rel=1e-12)
    )
    summary = quantities(instance, 0.0, 0.05).summary
    assert summary["D"] == 4 and summary["theory_burnin"] > 1e11  # docs/papers/cpe.md#cpe-conventions: ≈ 8·10^11
    # iterations


# -- documents ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["confounded rho=0.5", "bglm k=3", "rare n=6 r=3 d=0.4"])
def test_instance_and_quantities_round_trip_through_json(name):
    instance = SMALL[name]()
    doc = json.loads(json.dumps(instance.to_document()))
    again = CPEInstance.from_document(doc)
    assert again.to_document() == instance.to_document()
    assert np.array_equal(again.mu, instance.mu)  # full precision
    Q = quantities(instance, 0.0, 0.05)
    back = Quantities.from_document(json.loads(json.dumps(Q.to_document())))
    assert back == Q


@pytest.mark.parametrize("name", list(SMALL))
def test_the_summary_alone_equals_the_full_summary(name):
    instance = SMALL[name]()
    alone = quantities(instance, 0.0, 0.05, with_arms=False)
    assert alone == Quantities({}, quantities(instance, 0.0, 0.05).summary)


def test_canonical_order_does_not_depend_on_the_given_order():
    xs = ["X1", "X2", "X3"]
    acts = all_actions(xs)
    assert canonical([*reversed(acts), *acts[:5]], xs) == acts
    rank = {v: i for i, v in enumerate(xs)}
    assert list(acts) == sorted(acts, key=lambda a: (len(a.S), [rank[v] for v in a.S], a.s))  # (|S|, S, s)


def test_an_edited_instance_document_is_refused():
    doc = F.parallel(4).to_document()
    doc["mu"][1] += 0.01
    CPEInstance.from_document(doc)  # a valid instance, but not the family's
    with pytest.raises(ConfigError, match="regenerate it"):
        F.check_document(doc)
    assert F.check_document(F.parallel(4).to_document()).family == "parallel"


def _one_line(excinfo):
    message = str(excinfo.value)
    assert "\n" not in message
    return message


def test_an_action_naming_an_unknown_variable_is_one_line():
    doc = F.parallel(4).to_document()
    doc["actions"][1] = {"X9": 1}
    with pytest.raises(ConfigError) as excinfo:
        CPEInstance.from_document(doc)
    assert "unknown variable 'X9'" in _one_line(excinfo) and "X1" in str(excinfo.value)


def test_a_bglm_weight_vector_outside_0_1_is_one_line():
    """A linear-link BGLM whose weights drive P(Y = 1 | parents) above 1."""
    mechanisms = {
        "X1": bernoulli(1.0),
        "X2": Mechanism("linear", ("X1",), (0.5,)),
        "Y": Mechanism("linear", ("X1", "X2"), (0.4, 0.7)),
    }
    with pytest.raises(ConfigError) as excinfo:
        BinarySCM(("X1", "X2", "Y"), mechanisms)
    assert "drive P(Y=1 | parents) to 1.1" in _one_line(excinfo)


def test_actions_on_the_constant_or_the_reward_are_refused():
    scm = F.bglm(2).scm
    base = F.bglm(2)
    with pytest.raises(ConfigError, match="unknown variable 'X1'"):
        CPEInstance(
            "test",
            {},
            scm,
            (Action(), Action((("X1", 1),))),
            (None, None),
            np.zeros(2),
            np.zeros(2),
            link="logistic",
            constant="X1",
        )
    with pytest.raises(ConfigError, match="unknown variable 'Y'"):
        CPEInstance("test", {}, base.scm, (Action(), Action((("Y", 1),))), (None, None), np.zeros(2), np.zeros(2))
    assert atomic_actions(["X2", "X3"])[0] == Action()


def test_nodes_must_be_declared_parents_first():
    mechanisms = {
        "X1": Mechanism("linear", ("X2",), (0.5,), intercept=0.2),
        "X2": bernoulli(0.5),
        "Y": Mechanism("linear", ("X1",), (0.5,), intercept=0.2),
    }
    with pytest.raises(ConfigError) as excinfo:
        BinarySCM(("X1", "X2", "Y"), mechanisms)
    assert "parent 'X2' of X1 is listed after it" in _one_line(excinfo)
    assert BinarySCM(("X2", "X1", "Y"), mechanisms).order == ("X2", "X1", "Y")
