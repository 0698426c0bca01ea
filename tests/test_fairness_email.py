"""Email Campaign SCM (AAAI-22 §4.1, App. E.1): pgmpy network, exact truth, counterfactuals, W."""

import networkx as nx
import numpy as np
import pytest

from causal_bandits.bandits.causal_environment import CausalEnvironment
from causal_bandits.causal.counterfactual import counterfactual_table, interventional_table
from causal_bandits.causal.dseparation import is_dseparator
from causal_bandits.papers.fairness import email as fe

CONFIG = {"sensitive": "X1", "s_plus": 2, "s_minus": 1, "p_x_equals_2": {"X1": 0.5, "X2": 0.5, "X3": 0.5}, "sigma": 0.1}


@pytest.fixture(scope="module")
def doc():
    return fe.instance_document(CONFIG)


@pytest.fixture(scope="module")
def bn():
    return fe.email_network(CONFIG)


def e_i4(x):
    """E[I4 | x] from Table 5 (row code = X - 1)."""
    return sum((i + 1) * p for i, p in enumerate(fe.TABLE5[tuple(v - 1 for v in x)]))


def test_arm_means_match_the_closed_form(doc):
    contexts, arms = np.asarray(doc["contexts"]) + 1, np.asarray(doc["arms"]) + 1
    mu = np.asarray(doc["mu"])
    for c, x in enumerate(contexts):
        for a, (a1, a2, a3) in enumerate(arms):
            expected = (5.2 + a3 - 19 / 120 * (a1 + a2) - 7 / 120 * e_i4(x)) / 12
            assert mu[c, a] == pytest.approx(expected, abs=1e-12)


def test_counterfactual_discrepancy_matches_the_closed_form(doc):
    contexts, delta = np.asarray(doc["contexts"]) + 1, np.asarray(doc["delta_true"])
    for c, (_, x2, x3) in enumerate(contexts):
        expected = -7 / 1440 * (e_i4((2, x2, x3)) - e_i4((1, x2, x3)))
        assert delta[c] == pytest.approx(np.full(36, expected), abs=1e-12)
    assert np.abs(delta).max() == pytest.approx(0.00729166, abs=1e-7)


def test_best_arm_is_1_1_3_for_every_user(doc):
    arms = np.asarray(doc["arms"]) + 1
    assert [tuple(arms[o]) for opt in doc["optimal_arms"] for o in opt] == [(1, 1, 3)] * 8
    mu = np.asarray(doc["mu"])
    assert mu.max() - mu.min() == pytest.approx(0.23993, abs=1e-5)


def test_minimum_domain_dseparation_set(doc):
    assert doc["dsep"]["W"] == ["A3", "I1", "I2"] and doc["dsep"]["domain_W"] == 12
    assert doc["dsep"]["Z"] == ["I1", "I2"] and doc["dsep"]["domain_Z"] == 4
    assert doc["pa_R"] == ["A3", "I1", "I2", "I3"]
    assert np.prod([len(fe.DOMAIN[v]) for v in doc["pa_R"]]) == 24


def test_dseparation_agrees_with_pgmpy(bn):
    diagram = fe.email_diagram(bn)
    graph = nx.DiGraph(sorted(diagram.directed))
    observed = [*fe.X_VARS, *fe.A_VARS]
    from pgmpy.base import DAG

    dag = DAG(sorted(diagram.directed))
    for w in (["A3", "I1", "I2"], ["I1", "I2"], ["A3", "I2", "I1", "I3"], ["A3", "I4"]):
        ours = is_dseparator(graph, "R", w, observed)
        theirs = not any(dag.is_dconnected("R", v, observed=w) for v in set(observed) - set(w))
        assert ours == theirs


def test_tables_4_and_5_reemitted_from_the_network(bn):
    t5 = fe.table5_frame(bn)
    for _, row in t5.iterrows():
        code = tuple(int(c) for c in row["(X1,X2,X3)"].strip("()").split(","))
        assert tuple(row[f"i={i}"] for i in range(1, 5)) == pytest.approx(fe.TABLE5[code])
    t4 = fe.table4_frame(bn)
    assert t4["domain_paper"].tolist() == [d for _, d in fe.TABLE4]
    assert t4.set_index("variable").loc[["Subject length (I3)", "User query (I4)"], "same"].tolist() == [False, False]


def test_twin_network_without_evidence_is_the_interventional_query(bn):
    cf = counterfactual_table(bn, ["I1", "I2"], {}, ["A1", "A2"])
    do = interventional_table(bn, ["I1", "I2"], ["A1", "A2"], {})
    assert cf == pytest.approx(do, abs=1e-12)


def test_counterfactual_respects_consistency(bn):
    # Setting X1 to its factual value changes nothing: E[I4_{X1=x1} | X = x] = E[I4 | x].
    x = {"X1": 2, "X2": 1, "X3": 2}
    table = counterfactual_table(bn, ["I4"], x, ["X1"])
    assert table[1] == pytest.approx(np.asarray(fe.TABLE5[(1, 0, 1)]))


def test_environment_draws_match_the_exact_means(doc):
    env = CausalEnvironment.from_document(doc)
    n = 40_000
    u = np.random.default_rng(1).random((n, env.noise_width))
    ctx, arm = np.full(n, 5), np.full(n, 17)
    rewards, values = env.pull(1, ctx, arm, u)
    assert rewards.mean() == pytest.approx(env.mu[5, 17], abs=4 * 0.2 / np.sqrt(n))
    i4 = values[:, [v["name"] for v in doc["variables"]].index("I4")]
    expected = np.asarray(fe.TABLE5[tuple(np.asarray(doc["contexts"][5]))])
    assert np.bincount(i4, minlength=4) / n == pytest.approx(expected, abs=0.01)


def test_cell_model_weights_are_p_of_z_given_x_and_a(doc):
    model = doc["models"]["ducb"]
    w = np.asarray(model["weights"])
    arms = np.asarray(doc["arms"]) + 1
    for c, x in enumerate(np.asarray(doc["contexts"]) + 1):
        for a, (a1, a2, _) in enumerate(arms):
            p_i2 = (a1 + a2 + e_i4(x)) / 12  # P(I2 = 1 | x, a)
            p_i1 = lambda i2, a1=a1, a2=a2: (a1 + a2 + i2) / 10  # noqa: E731
            expected = [p_i2 * p_i1(1), (1 - p_i2) * p_i1(2), p_i2 * (1 - p_i1(1)), (1 - p_i2) * (1 - p_i1(2))]
            # Z = (I1, I2) in lexicographic order: (1,1), (1,2), (2,1), (2,2)
            assert w[c, a] == pytest.approx([expected[0], expected[1], expected[2], expected[3]])
