"""F-UCB, the counterfactually fair causal bandit (Huang, Zhang & Wu, AAAI-22, Algorithm 2).

F-UCB scores arms as D-UCB does (Eq. 5) and plays the best arm of the *conservative fair set*

    Phi_t = { a : UCB_Delta_a(t) <= tau },
    UCB_Delta_a(t) = Delta_hat_a(t) + alpha_c sum_z sqrt(8 ln(1/delta_t) / (1 v N_w)) P(z | x_t, a)   (Eq. 12)

with Delta_hat_a the estimated counterfactual discrepancy of arm a (Eqs. 8-11; both live in
:mod:`causal_bandits.bandits.certificate`, which the fairness auditor shares).

The paper does not say what to do when Phi_t is empty, which under delta_t = 1/t^2 happens in
every round for small tau (docs/papers/fairness.md#fairness-certificate, docs/papers/fairness.md#fairness-a10-fallback).
``fallback`` decides: ``unconstrained`` plays D-UCB's arm (argmax over all arms), ``min_ucb_delta`` the arm with the
smallest UCB_Delta, ``safe_arm`` a configured arm; such rounds are flagged uncertified.
``alpha_r`` scales the reward radius (1 = Eq. 6 literally; Theorem 3 uses 2 / (tau - Delta_pi0)).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.cells import CellModel
from causal_bandits.bandits.certificate import certificate
from causal_bandits.bandits.ducb import DUCB
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import SeedStreams

FALLBACKS = ("unconstrained", "min_ucb_delta", "safe_arm")


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

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        super().reset(n_seeds, n_arms, stream)
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
            assert self.safe_arm is not None  # __init__ rejects the safe_arm fallback without one
            arms = np.where(self.certified, arms, self.safe_arm)
        return arms
