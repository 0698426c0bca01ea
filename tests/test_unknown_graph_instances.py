"""unknown_graph instances: exact means against brute force, our reference values
(docs/papers/unknown_graph.md#unknown_graph-reference), documents, the lower-bound families, the environment's samples,
and one-line errors on bad input."""

from __future__ import annotations

import json
import math
from itertools import product

import networkx as nx
import numpy as np
import pytest

from causal_bandits.bandits.cn_ucb import CNUCB
from causal_bandits.bandits.engine import Streams
from causal_bandits.cn_ucb_discovery.essential_graph import essential_graph
from causal_bandits.cn_ucb_discovery.key_clique import clique_tree
from causal_bandits.errors import ConfigError
from causal_bandits.papers.unknown_graph import families as F
from causal_bandits.papers.unknown_graph import runs
from causal_bandits.papers.unknown_graph.environment import SCMEnvironment
from causal_bandits.papers.unknown_graph.inputs import discovery_inputs, instance_document
from causal_bandits.papers.unknown_graph.instance import Instance, batch_size
from causal_bandits.papers.unknown_graph.trace import figure1_trace


def random_instance(seed: int) -> Instance:
    """A random DAG (up to 3 parents per node) with random CPTs over 2-3 values."""
    rng = np.random.default_rng(seed)
    n, D = int(rng.integers(2, 7)), int(rng.integers(2, 4))
    parents = []
    for i in range(n):
        k = int(rng.integers(0, min(i, 3) + 1))
        parents.append(tuple(sorted(rng.choice(i, size=k, replace=False).tolist())) if k else ())
    perm = rng.permutation(n)  # labels not in topological order
    inv = np.argsort(perm)
    relabelled = [None] * n
    for i, pa in enumerate(parents):
        relabelled[perm[i]] = tuple(sorted(int(perm[p]) for p in pa))
    cpts = tuple(rng.dirichlet(np.ones(D), size=D ** len(relabelled[v])) for v in range(n))
    del inv
    return Instance(
        f"random-{seed}",
        "test",
        {},
        tuple(f"V{i}" for i in range(n)),
        tuple(relabelled),
        cpts,
        D,
        tuple(range(D)),
        int(rng.integers(n)),
        rng.random(D),
        1.0,
    )


def brute_force_marginal(inst: Instance, target: int, do: tuple[int, int] | None) -> np.ndarray:
    """P(target | do) by summing the full joint (product of CPT entries, the intervened node clamped)."""
    D, out = inst.domain, np.zeros(inst.domain)
    for x in product(range(D), repeat=inst.n):
        p = 1.0
        for v in range(inst.n):
            if do is not None and v == do[0]:
                p *= float(x[v] == do[1])
                continue
            row = 0
            for q in inst.parents[v]:
                row = row * D + x[q]
            p *= inst.cpts[v][row, x[v]]
        out[x[target]] += p
    return out


@pytest.mark.parametrize("seed", range(12))
def test_exact_marginals_and_arm_means_match_brute_force(seed):
    inst = random_instance(seed)
    for target in range(inst.n):
        for do in [None, *((v, x) for v in range(inst.n) for x in range(inst.domain))]:
            np.testing.assert_allclose(inst.marginal(target, do), brute_force_marginal(inst, target, do), atol=1e-12)
    brute = [
        brute_force_marginal(inst, inst.reward_node, None if a == inst.observational_arm else inst.arm_intervention(a))
        @ inst.f
        for a in range(inst.n_arms)
    ]
    np.testing.assert_allclose(inst.arm_means, brute, atol=1e-12)
    assert inst.n_arms == inst.n * inst.n_values + 1


def _below_zero() -> Instance:
    """A tree whose node 1 is 1 with probability -5e-10: a CPT entry just below 0, which the queries clip but the
    products before them do not."""
    base = F.tree(3, rng=np.random.default_rng(6), regime="A")
    cpts = list(base.cpts)
    cpts[0] = np.array([[1.0, 0.0]])
    cpts[1] = cpts[1].copy()
    cpts[1][0] = [1.0 + 5e-10, -5e-10]
    fields = {k: getattr(base, k) for k in ("instance_id", "family", "generator", "node_names", "parents", "domain")}
    fields |= {"action_values": base.action_values, "reward_node": base.reward_node, "f": base.f}
    return Instance(**fields, cpts=tuple(cpts))


#: Instances with one-parent nodes among others, each built fresh per call (the shortcuts and the eliminations read
#: separate caches).
ONE_PARENT_CASES = [
    lambda: F.tree(5, rng=np.random.default_rng(0), regime="A"),
    lambda: F.tree(4, rng=np.random.default_rng(1), regime="B", K=3),
    lambda: F.random_tree(20, rng=np.random.default_rng(2)),
    lambda: F.forest(3, 3, rng=np.random.default_rng(3)),
    lambda: F.polytree(15, rng=np.random.default_rng(4)),
    lambda: F.path_power(12, 2, rng=np.random.default_rng(5)),
    *(lambda seed=seed: random_instance(seed) for seed in range(6)),
    _below_zero,
]


@pytest.mark.parametrize("make", ONE_PARENT_CASES)
def test_observational_marginals_and_eps_are_the_eliminations_bit_for_bit(make):
    """The one-parent shortcuts (a node's marginal one step from its parent's; P(X_j | do(X_i)) as X_j's CPT rows when
    X_i is its only parent) give the bytes of one elimination per query."""
    fast, slow = make(), make()
    assert any(len(pa) == 1 for pa in fast.parents)
    eliminated = np.array([np.clip(slow._eliminate(v, -1, [None])[0], 0.0, None) for v in range(slow.n)])
    assert fast.observational_marginals.tobytes() == eliminated.tobytes()
    assert all(fast.marginal(v).tobytes() == eliminated[v].tobytes() for v in range(fast.n))
    gaps = [max(float(np.abs(m - eliminated[j]).max()) for m in slow.marginals_under(j, i)) for i, j in slow.edges]
    assert fast.eps_true == min(gaps, default=math.inf)


def _bits(inst: Instance) -> list:
    """Everything CN-UCB's inputs and exact answers read from an instance, as bytes and exact values."""
    queries = [inst.marginal(y, do).tobytes() for y in range(inst.n) for do in [None, *product(range(inst.n), (0, 1))]]
    return [
        inst.to_document(),
        inst.essential,
        inst.observational_marginals.tobytes(),
        inst.eps_true,
        inst.arm_means.tobytes(),
        inst.Delta_true,
        queries,
    ]


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: F.path_power(8, 2, mcs_start=3, reward_node=seed % 8),
        lambda seed: F.tree(3, rng=np.random.default_rng(seed), regime="A"),  # what sampled_discovery shares
    ],
)
def test_instances_sharing_an_scm_give_the_bits_of_fresh_ones(make):
    """:meth:`Instance.with_reward_node`: each reward node's instance, its queries read from (and written to) the one
    cache of the SCM in any order, equals the instance built with that reward node, bit for bit."""
    base = make(0)
    shared = [base.with_reward_node(make(seed).reward_node) for seed in range(8)]
    assert len({inst.reward_node for inst in shared}) > 2
    for seed in reversed(range(8)):
        assert _bits(shared[seed]) == _bits(make(seed))


def test_path_power_means_match_brute_force():
    inst = F.path_power(9, 3, rng=np.random.default_rng(3), regime="B", params={"a": 0.1, "b": 0.3})
    brute = [
        brute_force_marginal(inst, inst.reward_node, None if a == inst.observational_arm else inst.arm_intervention(a))
        @ inst.f
        for a in range(inst.n_arms)
    ]
    np.testing.assert_allclose(inst.arm_means, brute, atol=1e-12)


def test_figure1_reference_values():
    """docs/papers/unknown_graph.md#unknown_graph-ref-figure1: Delta, eps, B, mu_obs and the ancestors' means of the
    Figure-1 tree."""
    inst = F.figure1()
    assert inst.Delta_true == pytest.approx(0.45125) and inst.eps_true == pytest.approx(0.475)
    assert batch_size(inst.Delta_true, inst.eps_true, inst.n, 2, 0.1) == 1143
    means = inst.arm_means
    assert inst.mu_obs == pytest.approx(0.5)
    assert [means[inst.arm(0, x)] for x in (0, 1)] == pytest.approx([0.04875, 0.95125])
    assert [means[inst.arm(2, x)] for x in (0, 1)] == pytest.approx([0.025, 0.975])
    assert inst.mu_star == 1.0 and int(np.argmax(means)) == inst.arm(6, 1)
    assert inst.reward_ancestors == (0, 2, 6)


@pytest.mark.parametrize(
    "regime, h, mu_obs, Delta, eps, B",
    [
        ("A", 4, 0.5, 0.407253, 0.475, 1642),
        ("A", 6, 0.5, 0.367546, 0.475, 2350),
        ("B", 4, 0.982046, 0.797671, 0.932046, 428),
        ("B", 6, 0.976149, 0.713849, 0.926149, 623),
    ],
)
def test_balanced_tree_reference_values(regime, h, mu_obs, Delta, eps, B):
    """docs/papers/unknown_graph.md#unknown_graph-ref-trees's table (regimes A and B, leaf X_R)."""
    inst = F.tree(h, rng=np.random.default_rng(0), regime=regime)
    assert inst.mu_obs == pytest.approx(mu_obs, abs=1e-6)
    assert inst.Delta_true == pytest.approx(Delta, abs=1e-6) and inst.eps_true == pytest.approx(eps, abs=1e-6)
    assert batch_size(inst.Delta_true, inst.eps_true, inst.n, 2, 0.1) == B
    assert batch_size(0.5, 0.5, 31, 2, 0.1) == 1090  # docs/papers/unknown_graph.md#unknown_graph-ref-batch


def test_documents_round_trip_through_json():
    for inst in (
        F.figure1(),
        F.path_power(7, 2, rng=np.random.default_rng(1)),
        F.lower_bound(5, 4, 2, 3, 2, 0.1),
        F.tree(2, rng=np.random.default_rng(2), K=3),
    ):
        back = Instance.from_document(json.loads(json.dumps(inst.to_document())))
        assert back.edges == inst.edges and back.reward_node == inst.reward_node
        np.testing.assert_array_equal(back.arm_means, inst.arm_means)


def test_instance_document_lists_every_arm_mean_and_matches_the_runs_and_the_trace():
    """The written instance is the one the runs draw (same keyed stream), reads back, names every
    single-node intervention with its exact mean, and agrees with Figure 1's trace on B and the bound."""
    spec = {"experiment": "V2", "family": "tree", "regime": "B", "h": 2}
    drawn = runs.instance("V2-treeB-h2", spec, 3)
    doc = json.loads(json.dumps(instance_document(runs.instance("V2-treeB-h2", spec, 3))))
    assert doc["instance_id"] == "V2-treeB-h2-s03" and doc["reward"]["node"] == drawn.reward_node
    np.testing.assert_array_equal(Instance.from_document(doc).arm_means, drawn.arm_means)
    assert [a["arm"] for a in doc["arms"]] == list(range(drawn.n_arms))
    for a in doc["arms"][:-1]:
        ((name, value),) = a["do"].items()
        assert a["mean"] == drawn.arm_means[drawn.arm(drawn.node_names.index(name), value)]
    assert doc["arms"][-1]["do"] == {} and doc["arms"][-1]["mean"] == drawn.mu_obs
    fig = instance_document(F.figure1(), 0.1, 1.0)
    trace = figure1_trace()
    assert fig["derived"]["B"] == trace["B"] and fig["derived"]["T1_bound"] == trace["bound_T1_plus_B"]
    assert fig["node_names"][fig["reward"]["node"]] == "X7"


def test_generators_give_the_spec_structures():
    rng = np.random.default_rng(5)
    t = F.tree(3, rng=rng)
    assert t.n == 15 and nx.is_arborescence(t.dag) and t.reward_node >= 7  # a leaf
    f = F.forest(3, 2, rng=rng)
    assert f.n == 21 and len(essential_graph(f.dag).chain_components()) == 3
    for k in (1, 2, 3):
        p = F.path_power(12, k, rng=rng)
        eg = essential_graph(p.dag)
        assert not eg.directed and len(eg.chain_components()) == 1  # no v-structures
        jt = clique_tree(eg.undirected_graph)
        assert jt.number_of_nodes() == 12 - k and max(len(c) for c in jt.nodes) == k + 1
        assert max(d for _, d in jt.degree) <= 2  # the clique tree is a path
    poly = F.polytree(12, rng=rng)
    assert nx.is_tree(poly.dag.to_undirected())


@pytest.mark.parametrize("theorem", [4, 5])
def test_lower_bound_families(theorem):
    """Thm 4/5 (App. A.4, A.5): only do(X_j = k) (Thm 5: k + 1) has mean Delta; instance 0 is all zero.
    Thm 4 puts X_j at the root of a chain of constant variables: Assumption 2 fails (eps = 0), A3 holds.
    Thm 5 puts X_j at the sink of a copying chain: A2 holds (eps = 1), A3 fails (Delta_true = 0)."""
    n, K, Delta = 5, 2, 0.2
    zero = F.lower_bound(theorem, n, K, 0, 1, Delta)
    assert not zero.arm_means.any()
    for j in range(1, n + 1):
        for k in range(1, K + 1):
            inst = F.lower_bound(theorem, n, K, j, k, Delta)
            best = inst.arm(j - 1, k if theorem == 4 else k + 1)
            expected = np.zeros(inst.n_arms)
            expected[best] = Delta
            np.testing.assert_allclose(inst.arm_means, expected, atol=1e-15)
            assert (inst.Delta_true, inst.eps_true) == ((Delta, 0.0) if theorem == 4 else (0.0, 1.0))
            assert nx.is_directed_acyclic_graph(inst.dag) and inst.dag.number_of_edges() == n - 1
    assert F.lower_bound_gap(10, 2, 10**5) == pytest.approx(0.0035355, abs=1e-7)


def test_environment_samples_follow_the_exact_laws():
    """Monte Carlo (docs/papers/unknown_graph.md#unknown_graph-simulation): ancestral samples under do() and do(X = x)
    match the exact marginals, and rewards the exact arm means, within 0.01 over 1e5 samples."""
    insts = [
        F.path_power(8, 2, rng=np.random.default_rng(s), regime="B", params={"a": 0.1, "b": 0.3}) for s in range(2)
    ]
    env = SCMEnvironment(insts)
    L = 100_000
    env.reset(Streams("unknown_graph", "test", np.array([0, 1])), L)
    rng = np.random.default_rng(9)
    observe = np.array([[0, 3, 7], [1, 4, 6]])
    for arms in (np.array([env.n_arms - 1, env.n_arms - 1]), np.array([2 * 3 + 1, 2 * 5 + 0])):
        rewards, values = env.pull_block(1, None, arms, L, rng.random((2, L, 2)), observe)
        for s, inst in enumerate(insts):
            node, value = inst.arm_intervention(int(arms[s]))
            do = None if node < 0 else (node, value)
            assert abs(rewards[s].mean() - inst.arm_means[arms[s]]) < 0.01
            for j, y in enumerate(observe[s]):
                freq = np.bincount(values[s, :, j], minlength=inst.domain) / L
                np.testing.assert_allclose(freq, inst.marginal(int(y), do), atol=0.01)
    fast, _ = env.pull_block(1, None, arms, L, rng.random((2, L, 2)))
    np.testing.assert_allclose(fast.mean(axis=1), env.means[[0, 1], arms], atol=0.01)


def _one_line(err: pytest.ExceptionInfo) -> str:
    message = str(err.value)
    assert "\n" not in message and message
    return message


def test_bad_input_gives_one_line_errors():
    base = F.figure1()
    doc = base.to_document()
    cyclic = json.loads(json.dumps(doc))
    cyclic["cpts"][0] = {"node": 0, "parents": [6], "table": [[0.5, 0.5], [0.5, 0.5]]}
    with pytest.raises(ConfigError) as err:
        Instance.from_document(cyclic)
    assert "cycle" in _one_line(err)
    not_a_node = json.loads(json.dumps(doc))
    not_a_node["reward"]["node"] = 42
    with pytest.raises(ConfigError) as err:
        Instance.from_document(not_a_node)
    assert "not a node" in _one_line(err)
    with pytest.raises(ConfigError) as err:
        F.tree(3, rng=np.random.default_rng(0), K=1)
    assert "K" in _one_line(err)
    for delta in (0.0, 1.0, -0.5, 2.0):
        with pytest.raises(ConfigError) as err:
            batch_size(0.5, 0.5, 10, 2, delta)
        assert "delta" in _one_line(err)
    not_tree = F.path_power(6, 2, rng=np.random.default_rng(0))
    with pytest.raises(ConfigError) as err:
        CNUCB([discovery_inputs(not_tree)], algorithm="tree")
    assert "not a tree" in _one_line(err)
    with pytest.raises(ConfigError) as err:
        CNUCB([discovery_inputs(not_tree)], algorithm="forest")
    assert "not a tree" in _one_line(err)
