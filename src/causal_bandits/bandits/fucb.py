"""F-UCB, the counterfactually fair causal bandit (Huang, Zhang & Wu, AAAI-22, Algorithm 2).

F-UCB scores arms as D-UCB does (Eq. 5) and plays the best arm of the *conservative fair set*

    Phi_t = { a : UCB_Delta_a(t) <= tau },
    UCB_Delta_a(t) = Delta_hat_a(t) + alpha_c sum_z sqrt(8 ln(1/delta_t) / (1 v N_w)) P(z | x_t, a)   (Eq. 12)

where Delta_hat_a estimates the counterfactual discrepancy E[R(a, s+) | x_t] - E[R(a, s-) | x_t]:

* identifiable case (Eqs. 8-10): m(s*) = sum_z P(z | x_t[S := s*], a) mu_hat_w(a, x_t[S := s*], z)
  and Delta_hat = |m(s+) - m(s-)|;
* non-identifiable case (Theorem 2, Eq. 11): lower / upper bounds of m(s*) take the min / max of
  mu_hat over the values b of the descendants B of S among the user features, weighted by
  P(z | x_t, a); Delta_hat = max(0, Hi(s+) - Lo(s-), Hi(s-) - Lo(s+)).

The paper does not say what to do when Phi_t is empty, which under delta_t = 1/t^2 happens in
every round for small tau (fairness SPEC §4, ambiguity A10). ``fallback`` decides:
``unconstrained`` plays D-UCB's arm (argmax over all arms), ``min_ucb_delta`` the arm with the
smallest UCB_Delta, ``safe_arm`` a configured arm; such rounds are flagged uncertified.
``alpha_r`` scales the reward radius (1 = Eq. 6 literally; Theorem 3 uses 2 / (tau - Delta_pi0)).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.cells import CellEstimator, CellModel, gather
from causal_bandits.bandits.ducb import DUCB
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import SeedStreams

FALLBACKS = ("unconstrained", "min_ucb_delta", "safe_arm")


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
    (fairness SPEC §4).
    """
    w = model.weights
    n_z = (w > 0).sum(axis=2)
    shape = (np.power(w, 2.0 / 3.0).sum(axis=2)) ** 1.5  # (n_contexts, n_arms)
    t = np.arange(2, horizon + 1, dtype=float)[:, None, None]
    floor = alpha_c * np.sqrt(16.0 * np.log(t) / (t - 1.0 + n_z)) * shape
    return float(floor.min())


class FUCB(DUCB):
    """F-UCB with threshold ``tau`` over the cells of ``model``, vectorised over seeds.

    After :meth:`select`, ``certified`` (bool per seed) says whether the arm came from a non-empty
    conservative fair set and ``n_fair`` how many arms that set held.
    """

    name = "F-UCB"

    def __init__(
        self,
        model: CellModel,
        tau: float,
        *,
        alpha_r: float = 1.0,
        alpha_c: float = 1.0,
        fallback: str = "unconstrained",
        safe_arm: int | None = None,
    ):
        super().__init__(model, alpha_r)
        if not 0.0 < tau <= 1.0:
            raise ValueError(f"tau must lie in (0, 1], got {tau}")
        if fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
        if fallback == "safe_arm" and (safe_arm is None or not 0 <= safe_arm < model.shape[1]):
            raise ValueError(f"fallback safe_arm needs an arm id in 0..{model.shape[1] - 1}, got {safe_arm}")
        self.tau, self.alpha_c, self.fallback, self.safe_arm = float(tau), float(alpha_c), fallback, safe_arm

    def reset(self, n_seeds: int, stream: Callable[[str], SeedStreams]) -> None:
        super().reset(n_seeds, stream)
        self.certified = np.zeros(n_seeds, dtype=bool)
        self.n_fair = np.zeros(n_seeds, dtype=np.int64)

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        scores = self.scores(t, contexts)
        _, ucb_delta = certificate(self.model, self.estimator, contexts, t, self.alpha_c)
        fair = ucb_delta <= self.tau
        self.n_fair = fair.sum(axis=1)
        self.certified = self.n_fair > 0
        # Every seed gets a fair-set row; seeds with an empty set choose by the fallback instead.
        arms = random_argmax(scores, self._ties, fair | ~self.certified[:, None])
        if self.fallback == "min_ucb_delta":
            arms = np.where(self.certified, arms, random_argmax(-ucb_delta, self._ties))
        elif self.fallback == "safe_arm":
            arms = np.where(self.certified, arms, self.safe_arm)
        return arms
