"""F-UCB's fairness certificate (Huang, Zhang & Wu, AAAI-22, Eqs. 10-12), shared by F-UCB and the auditor.

Delta_hat_a(t) estimates the counterfactual discrepancy E[R(a, s+) | x_t] - E[R(a, s-) | x_t] of arm a:

* identifiable case (Eqs. 8-10): m(s*) = sum_z P(z | x_t[S := s*], a) mu_hat_w(a, x_t[S := s*], z)
  and Delta_hat = |m(s+) - m(s-)|;
* non-identifiable case (Theorem 2, Eq. 11): lower / upper bounds of m(s*) take the min / max of
  mu_hat over the values b of the descendants B of S among the user features, weighted by
  P(z | x_t, a); Delta_hat = max(0, Hi(s+) - Lo(s-), Hi(s-) - Lo(s+));

and its upper confidence bound is

    UCB_Delta_a(t) = Delta_hat_a(t) + alpha_c sum_z sqrt(8 ln(1/delta_t) / (1 v N_w)) P(z | x_t, a)   (Eq. 12).

It lives apart from :mod:`causal_bandits.bandits.fucb` because the fairness auditor judges every
algorithm's decisions with it: editing F-UCB reruns only F-UCB's runs.
"""

from __future__ import annotations

import numpy as np

from causal_bandits.bandits.cells import CellEstimator, CellModel, gather


def discrepancy_estimate(model: CellModel, est: CellEstimator, contexts: np.ndarray) -> np.ndarray:
    """Delta_hat_a(t) for every seed and arm (Eq. 10, or the bounds of Eq. 11), shape (n_seeds, n_arms)."""
    means = est.means()
    cf = model.cf_contexts[contexts]  # (n, 2, n_b)
    values = gather(means, model.cells[cf])  # (n, 2, n_b, n_arms, n_z)
    if model.cf_mode == "identifiable":
        weights = model.weights[cf[:, :, 0]][:, :, None]  # P(z | x[S := s*], a)
    else:
        weights = model.weights[contexts][:, None, None]  # P(z | x_t, a), Eq. 11
    lo = (weights * values.min(axis=2, keepdims=True)).sum(axis=-1)[:, :, 0]  # (n, 2, n_arms)
    hi = (weights * values.max(axis=2, keepdims=True)).sum(axis=-1)[:, :, 0]
    return np.maximum(0.0, np.maximum(hi[:, 0] - lo[:, 1], hi[:, 1] - lo[:, 0]))


def certificate(
    model: CellModel, est: CellEstimator, contexts: np.ndarray, t: int, alpha_c: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """(Delta_hat, UCB_Delta) of every seed and arm at round t (Eqs. 10-12)."""
    delta_hat = discrepancy_estimate(model, est, contexts)
    radius = (model.weights[contexts] * gather(est.radius(t, 8.0), model.cells[contexts])).sum(axis=2)
    return delta_hat, delta_hat + alpha_c * radius


def radius_floor(model: CellModel, horizon: int, alpha_c: float = 1.0) -> float:
    """The smallest fairness radius of Eq. 12 any arm can have in any round 2..horizon, whatever the data.

    At round t the counts of the cells an arm weighs sum to at most t - 1 observations, so with
    N'_z = max(1, N_z) they sum to at most t - 1 + n_z. Minimising sum_z P_z / sqrt(N'_z) under that
    budget (Lagrange: N'_z proportional to P_z^(2/3)) gives

        radius >= alpha_c sqrt(8 L_t / (t - 1 + n_z)) (sum_z P_z^(2/3))^(3/2),   L_t = 2 ln t.

    When this floor exceeds tau, the conservative fair set is empty in every round after the first
    (docs/papers/fairness.md#fairness-certificate).
    """
    w = model.weights
    n_z = (w > 0).sum(axis=2)
    shape = (np.power(w, 2.0 / 3.0).sum(axis=2)) ** 1.5  # (n_contexts, n_arms)
    t = np.arange(2, horizon + 1, dtype=float)[:, None, None]
    floor = alpha_c * np.sqrt(16.0 * np.log(t) / (t - 1.0 + n_z)) * shape
    return float(floor.min())
