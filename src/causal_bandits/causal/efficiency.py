"""Asymptotic variance and efficiency of plug-in estimators of experimental expressions (delta method).

An estimator instance θ̂_i (an expression of the POMIS+ catalogue at arm x and free indices f,
:class:`~causal_bandits.causal.estimators.InstanceEstimators`) is a smooth function of the cell
frequencies p̂_a of the arms a it reads. With n independent samples from each of those arms,
p̂_a is multinomial with covariance (diag p_a − p_a p_aᵀ)/n, so by the delta method

    n · Cov(θ̂_i, θ̂_j) → Σ_a g_{i,a}ᵀ (diag p_a − p_a p_aᵀ) g_{j,a},       g_{i,a} = ∂θ_i / ∂p_a,

the gradients taken at the exact experimental distributions p_a. The **efficiency** of instance i
for its arm x is θ_x(1 − θ_x) / (n · Var θ̂_i) as n → ∞: the number of samples of arm x that one
sample of each source arm is worth (1: as good as pulling x; it can exceed 1). The efficiency of an
arm's estimators combined with minimum variance (AAAI-19 Algorithm 2, bMVWA, with the exact
covariance in place of the bootstrap's) uses the same covariance.

Gradients are exact to rounding: the expression's leaves are linear in the count tables, so the
tables are pushed through :class:`~causal_bandits.causal.evaluation.Program` with a complex step
(θ(p + i h e_c) = θ(p) + i h ∂θ/∂p_c + O(h²), with h = 1e-30 the imaginary part is the derivative
to machine precision; Squire & Trapp 1998, SIAM Review 40, 110-112). Derivatives are taken with
respect to the counts of each arm (the estimator divides by the arm's total), which differ from the
frequency gradient by a constant per arm that the multinomial covariance annihilates.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from causal_bandits.causal.estimators import InstanceEstimators
from causal_bandits.causal.mvwa import min_variance_weights

#: Imaginary step of the complex-step derivative (any tiny value gives the same result).
STEP = 1e-30


def instance_values(estimators: InstanceEstimators, leaf_counts: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """θ_i for every instance (*batch, n_instances) from (possibly complex) leaf counts and totals."""
    factors = estimators.program.evaluate_leaves(leaf_counts, totals)
    batch = leaf_counts.shape[:-1]
    out = np.zeros((*batch, estimators.n_instances), dtype=leaf_counts.dtype)
    for i, inst in enumerate(estimators.instances):
        vs = estimators.program.outputs[inst.entry]
        fixed = {**estimators.layout.arm_values(inst.arm), **dict(inst.free), estimators.reward: 1}
        factor = factors[inst.entry]
        assert factor is not None  # evaluate_leaves without `which` computes every entry
        index: tuple[Any, ...] = (..., *(fixed[v] for v in vs))
        out[..., i] = factor[index]
    return out


def gradients(estimators: InstanceEstimators, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(θ (n_instances,), ∂θ/∂counts (n_instances, n_arms, n_cells)) at the exact arm tables
    ``tables`` (n_arms, n_cells): each row a probability table over the layout's cells."""
    tables = np.asarray(tables, dtype=float)
    n_arms, n_cells = tables.shape
    program = estimators.program
    base_leaves, base_totals = program.leaf_counts(tables), tables.sum(axis=-1)
    theta = instance_values(estimators, base_leaves, base_totals).real
    # one complex step per (arm, cell): a batch of n_arms * n_cells evaluations
    steps = np.zeros((n_arms * n_cells, n_arms, n_cells))
    steps.reshape(n_arms * n_cells, -1)[np.arange(n_arms * n_cells), np.arange(n_arms * n_cells)] = STEP
    leaves = base_leaves + 1j * program.leaf_counts(steps)
    totals = base_totals + 1j * steps.sum(axis=-1)
    grad = instance_values(estimators, leaves, totals).imag / STEP  # (n_arms * n_cells, n_instances)
    return theta, grad.T.reshape(-1, n_arms, n_cells)


def asymptotic_covariance(estimators: InstanceEstimators, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(θ, n · Cov(θ̂) as n → ∞ (n_instances, n_instances)) with n samples from every arm an instance reads."""
    theta, grad = gradients(estimators, tables)
    tables = np.asarray(tables, dtype=float)
    cov = np.zeros((theta.size, theta.size))
    for a, p in enumerate(tables):
        g = grad[:, a, :]
        gp = g @ p
        cov += (g * p) @ g.T - np.outer(gp, gp)
    return theta, cov


def efficiencies(estimators: InstanceEstimators, tables: np.ndarray) -> dict[str, np.ndarray]:
    """Per instance: ``theta`` (its exact value, the arm's mean), ``variance`` (n · Var θ̂ as n → ∞) and
    ``efficiency`` θ(1 − θ)/(n · Var θ̂); per arm (nan where the arm has no instance): ``combined`` the
    efficiency of the arm's instances combined with minimum variance."""
    theta, cov = asymptotic_covariance(estimators, tables)
    variance = np.diag(cov).copy()
    bernoulli = theta * (1.0 - theta)
    combined = np.full(len(estimators.layout.arms), np.nan)
    for a, slots in enumerate(estimators.slots):
        ids = slots[slots >= 0]
        if ids.size:
            _, var = min_variance_weights(cov[np.ix_(ids, ids)], np.ones(ids.size, dtype=bool))
            combined[a] = bernoulli[ids[0]] / float(var)
    return {"theta": theta, "variance": variance, "efficiency": bernoulli / variance, "combined": combined}
