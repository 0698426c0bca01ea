r"""LinUCB with prior causal bounds (Huang & Wu, Algorithm 4) and its baselines, vectorised over seeds.

Disjoint per-arm ridge models (Li et al. 2010; Algorithm 4 lines 5-9): arm a keeps A_a = λI + Σ x xᵀ
and b_a = Σ r x over the rounds it was pulled, θ̂_a = A_a⁻¹ b_a, and its index is

    UCB_a(t) = θ̂_aᵀ x_{t,a} + α sqrt(x_{t,a}ᵀ A_a⁻¹ x_{t,a}).

One class covers the four algorithms of Figure 4:

* **LinUCB** — as above (Algorithm 4 without line 10);
* **LinUCB-PCB** — ``upper`` given: the index is truncated by the prior causal upper bound,
  $\overline{\mathrm{UCB}}_a(t) = \min\{\mathrm{UCB}_a(t), U_{a,c_t}\}$ (Algorithm 4, line 10; only $U$ is used);
* **LinUCB_Biased / LinUCB_CP** — ``warm_rewards`` given: "LinUCB initialised with the estimated
  reward" (§Experiments), read as pseudo-observations (docs/papers/bounds.md#bounds-a-warm-start): A_a = λI + Σ_c
  n0(c,a) φφᵀ, b_a = Σ_c n0(c,a) r̂(c,a) φ with φ = φ(c, a) and weights n0 (``warm_counts``).

State for all seeds at once: A_a⁻¹ (seeds × arms × d × d) and θ̂_a (seeds × arms × d). A pull with
feature x and reward r updates the pulled arm of each seed by the Sherman–Morrison rank-one formula
(A + xxᵀ)⁻¹ = A⁻¹ − uuᵀ/(1 + xᵀu), u = A⁻¹x, and θ̂ ← θ̂ + u (r − θ̂ᵀx)/(1 + xᵀu) (θ̂ = A⁻¹b written as
recursive least squares). u, xᵀu and θ̂ᵀx come from the selection step, and the update is dense
batched arithmetic weighted by a one-hot mask of the pulled arms (no per-seed indexing).
Ties (indices within 1e-12) are broken uniformly at random from the policy stream ``"ties"``
(:func:`causal_bandits.bandits.ties.random_argmax`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import RoundBlocks, SeedStreams


class LinUCB:
    """LinUCB / LinUCB-PCB / warm-started LinUCB for all seeds at once (see the module docstring)."""

    def __init__(
        self,
        features: np.ndarray,
        *,
        alpha: float = 2.0,
        lam: float = 1.0,
        upper: np.ndarray | None = None,
        warm_rewards: np.ndarray | None = None,
        warm_counts: np.ndarray | None = None,
    ) -> None:
        self.features = np.asarray(features, dtype=float)
        self.alpha, self.lam = float(alpha), float(lam)
        self.upper = None if upper is None else np.asarray(upper, dtype=float)
        if (warm_rewards is None) != (warm_counts is None):
            raise ValueError("warm_rewards and warm_counts go together")
        self.warm = None if warm_rewards is None else (np.asarray(warm_rewards, float), np.asarray(warm_counts, float))

    def prior(self) -> tuple[np.ndarray, np.ndarray]:
        """(A_a, b_a) before the first round, shapes (arms, d, d) and (arms, d)."""
        _n_ctx, n_arms, d = self.features.shape
        a = np.broadcast_to(self.lam * np.eye(d), (n_arms, d, d)).copy()
        b = np.zeros((n_arms, d))
        if self.warm is not None:
            rewards, counts = self.warm
            counts = np.where(np.isnan(rewards), 0.0, counts)  # an empty cell carries no evidence
            rewards = np.nan_to_num(rewards)
            phi = self.features
            a += np.einsum("ca,cai,caj->aij", counts, phi, phi)
            b += np.einsum("ca,cai->ai", counts * rewards, phi)
        return a, b

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        if n_arms != self.features.shape[1]:
            raise ValueError(f"features are for {self.features.shape[1]} arms, the environment has {n_arms}")
        a, b = self.prior()
        a_inv = np.linalg.inv(a)
        theta = np.einsum("aij,aj->ai", a_inv, b)
        self._ties = RoundBlocks(stream("ties"), n_arms)
        self._a_inv = np.broadcast_to(a_inv, (n_seeds, *a_inv.shape)).copy()
        self._theta = np.broadcast_to(theta, (n_seeds, *theta.shape)).copy()

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        phi = self.features[contexts]  # (seeds, arms, d)
        a_phi = np.einsum("skij,skj->ski", self._a_inv, phi)
        var = np.einsum("ski,ski->sk", phi, a_phi)
        mean = np.einsum("ski,ski->sk", self._theta, phi)
        index = mean + self.alpha * np.sqrt(np.maximum(var, 0.0))
        if self.upper is not None:
            index = np.minimum(index, self.upper[contexts])  # Algorithm 4, line 10
        self._last = (a_phi, var, mean)
        return random_argmax(index, self._ties)

    def update(self, feedback: Feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        a_phi, var, mean = self._last
        gain = (np.arange(var.shape[1]) == arms[:, None]) / (1.0 + var)  # one-hot: the pulled arm only
        self._a_inv -= np.einsum("ski,skj->skij", gain[:, :, None] * a_phi, a_phi)
        self._theta += (gain * (rewards[:, None] - mean))[:, :, None] * a_phi
