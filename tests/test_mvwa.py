"""bMVWA pieces (AAAI-19 Alg. 2): the simplex QP and the bootstrap covariance; estimator instances."""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causal_bandits.causal.estimators import InstanceEstimators
from causal_bandits.causal.evaluation import ArmLayout
from causal_bandits.causal.mvwa import bootstrap_covariance, min_variance_weights
from causal_bandits.causal.pomis import pomis
from causal_bandits.causal.z2id import catalogue
from causal_bandits.papers.nonmanip.graphs import GRAPHS


def qp_by_enumeration(cov, allowed):
    """Reference: the feasible support of least variance, w_S ∝ Σ_SS⁻¹1 (exact for small m)."""
    best, best_w = np.inf, None
    idx = np.flatnonzero(allowed)
    for k in range(1, idx.size + 1):
        for S in combinations(idx, k):
            S = list(S)
            u = np.linalg.solve(cov[np.ix_(S, S)], np.ones(k))
            if (u / u.sum() >= -1e-12).all() and 1 / u.sum() < best:
                best, best_w = 1 / u.sum(), np.zeros(len(allowed))
                best_w[S] = u / u.sum()
    return best_w, best


@st.composite
def problems(draw):
    m = draw(st.integers(1, 7))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    rank = draw(st.integers(1, m + 3))
    A = rng.normal(size=(m, rank)) * rng.uniform(0.01, 3, size=(m, 1))
    cov = A @ A.T + 1e-6 * np.eye(m)
    allowed = rng.random(m) < 0.8
    allowed[rng.integers(m)] = True
    return cov, allowed


@settings(max_examples=300, deadline=None)
@given(st.lists(problems(), min_size=1, max_size=6))
def test_qp_matches_enumeration(batch):
    m = max(c.shape[0] for c, _ in batch)
    covs = np.stack(
        [np.pad(c, (0, m - c.shape[0])) + np.diag([0] * c.shape[0] + [1] * (m - c.shape[0])) for c, _ in batch]
    )
    allowed = np.stack([np.pad(a, (0, m - a.size)) for _, a in batch])
    w, var = min_variance_weights(covs, allowed)
    for i, (c, a) in enumerate(batch):
        _w_ref, v_ref = qp_by_enumeration(c, a)
        assert var[i] == pytest.approx(v_ref, rel=1e-6, abs=1e-10 * c.diagonal().max())  # ridge
        assert np.isclose(w[i].sum(), 1.0) and (w[i] >= -1e-12).all() and (w[i][~allowed[i]] == 0).all()


def test_qp_large_support_keeps_kkt():
    """20 estimators (Fig. 5c arms have 20): the KKT conditions hold at the returned weights."""
    rng = np.random.default_rng(1)
    A = rng.normal(size=(30, 21, 25))
    cov = A @ np.swapaxes(A, 1, 2) / 25
    allowed = rng.random((30, 21)) < 0.9
    allowed[:, 0] = True
    w, var = min_variance_weights(cov, allowed)
    grad = np.einsum("nij,nj->ni", cov, w)
    assert (grad[allowed] >= (var[:, None] * np.ones(21))[allowed] * (1 - 1e-6)).all()
    assert np.allclose(w.sum(axis=1), 1.0) and (w >= 0).all()


def test_qp_independent_estimators_weight_by_precision():
    cov = np.diag([1.0, 2.0, 4.0])
    w, var = min_variance_weights(cov, np.ones(3, bool))
    np.testing.assert_allclose(w, np.array([4, 2, 1]) / 7, rtol=1e-9)
    assert var == pytest.approx(4 / 7, rel=1e-9)


def test_bootstrap_covariance_drops_undefined():
    rng = np.random.default_rng(0)
    reps = rng.normal(size=(100, 3))
    reps[:5, 0] = np.nan  # 5 % undefined: kept, those rows dropped
    reps[:20, 1] = np.inf  # 20 % undefined: dropped for this refresh
    cov, kept = bootstrap_covariance(reps, np.array([True, True, True]))
    assert kept.tolist() == [True, False, True]
    ref = np.cov(reps[5:][:, [0, 2]].T, ddof=1)
    np.testing.assert_allclose(cov[np.ix_([0, 2], [0, 2])], ref, rtol=1e-12)
    assert (cov[1] == 0).all() and (cov[:, 1] == 0).all()


def test_bootstrap_covariance_of_a_batch_is_each_problem_s_and_leaves_the_replicates_alone():
    """A batch of problems (undefined values in kept and dropped estimators, estimators not wanted) gives each problem's
    covariance bit for bit, exact zeros off kept x kept, and the replicate values it was given unchanged."""
    rng = np.random.default_rng(5)
    reps = rng.normal(size=(6, 200, 4)) * 10.0 ** rng.integers(-4, 4, (6, 1, 4))
    reps[rng.random(reps.shape) < 0.03] = np.nan
    reps[2, :50, 1] = np.inf  # 25 % undefined: dropped in problem 2
    use = rng.random((6, 4)) < 0.8
    given = reps.copy()
    cov, kept = bootstrap_covariance(reps, use)
    np.testing.assert_array_equal(reps, given)
    for k in range(6):
        one, one_kept = bootstrap_covariance(reps[k], use[k])
        np.testing.assert_array_equal(cov[k], one)
        np.testing.assert_array_equal(kept[k], one_kept)
        assert (cov[k][~kept[k]] == 0).all() and (cov[k][:, ~kept[k]] == 0).all()
    assert not kept[2, 1]


# ------------------------------------------------------------------------------ instances
def fig2a_estimators(n_min=20):
    G = GRAPHS["fig2a"]
    sets = pomis(G, "Y", ("A",))
    return InstanceEstimators(catalogue(G, "Y", sets), ArmLayout.of_sets(G.nodes, sets), "Y", n_min)


def test_instances_of_fig2a():
    est = fig2a_estimators()
    # arms: do(), do(B=0), do(B=1), do(C=0), do(C=1); Eq.(1) for do(), Eq.(2) for do(B=b),
    # Eq.(3) and Eq.(4) with b' = 0, 1 for do(C=c).
    assert (est.slots >= 0).sum(axis=1).tolist() == [1, 1, 1, 3, 3]
    # Eq.(4) for do(C=0) with b' = 1 reads only the arm do(B=1) (index 2).
    eq4 = [i for i, inst in enumerate(est.instances) if inst.arm == 3 and inst.free == (("B", 1),)]
    assert est.uses[eq4[0]].tolist() == [False, False, True, False, False]


def test_support_rule_counts_every_cell_eq1():
    """Eq. (1) needs all 8 cells of P_b(c|a) and all 16 of P_c(a,b,y) (AAAI-19 §4)."""
    est = fig2a_estimators()
    (eq1,) = [i for i, inst in enumerate(est.instances) if inst.arm == 0]
    n_cells = (est._cells[eq1] < est._n_leaf_cells).sum()
    # P_b(c|a) = P_b(a,c)/P_b(a): 8 + 4 cells, P_c(a,b,y): 16 cells
    assert n_cells == 8 + 4 + 16
    counts = np.ones((5, 16))
    _, covered = est.values_and_support(counts)
    assert covered[eq1]
    counts[4, 0] = 0  # do(C=1): the cell A=B=C=Y=0 cannot occur anyway (C=1); still covered
    assert est.values_and_support(counts)[1][eq1]
    counts[4, 1] = 0  # A=0,B=0,C=0,Y=1 also impossible under C=1
    counts[4, 0b0011] = 0  # A=0,B=0,C=1,Y=1: needed by P_c(a,b,y) at c=1
    assert not est.values_and_support(counts)[1][eq1]


def test_enough_samples():
    est = fig2a_estimators(n_min=20)
    n = np.array([[100, 19, 100, 100, 100]])
    ok = est.enough_samples(n)[0]
    for i in range(len(est.instances)):
        assert ok[i] == (not est.uses[i, 1])


def test_qp_terminates_on_singular_covariances():
    """Bootstrap covariances from few replicates are singular, and an estimator constant over the
    replicates has variance 0: the QP still returns simplex weights no worse than any single estimator."""
    rng = np.random.default_rng(7)
    m, n = 12, 200
    reps = rng.normal(size=(n, 2, m))  # B = 2 replicates: every covariance has rank <= 1
    reps[:, :, 3] = 0.5  # a constant estimator
    cov = np.einsum("nbi,nbj->nij", reps - reps.mean(axis=1, keepdims=True), reps - reps.mean(axis=1, keepdims=True))
    cov[:, 0, :] = cov[:, :, 0] = 0.0
    cov[:, 0, 0] = rng.uniform(0.01, 1.0, n)  # the trivial estimator, independent of the others
    allowed = rng.random((n, m)) < 0.7
    allowed[:, 0] = True
    w, var = min_variance_weights(cov, allowed)
    assert np.allclose(w.sum(axis=1), 1.0) and (w >= 0).all() and (w[~allowed] == 0).all()
    diagonal = np.where(allowed, np.diagonal(cov, axis1=1, axis2=2), np.nan)
    ridge = 1e-10 * np.nanmean(diagonal, axis=1)  # the QP's ridge is 1e-12 tr(Σ)/m
    assert (var <= np.nanmin(diagonal, axis=1) + ridge).all()
