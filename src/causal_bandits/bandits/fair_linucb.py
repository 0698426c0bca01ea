"""Fair-LinUCB — a RECONSTRUCTION, the baseline of the AAAI-22 Adult-Video experiment (Table 2).

Huang, Zhang & Wu only cite Huang et al. 2020 ("Achieving user-side fairness in contextual
bandits", arXiv:2010.12102) for Fair-LinUCB and give no details, so this is our
documented reconstruction (docs/papers/fairness.md#fairness-r-fair-linucb,
docs/papers/fairness.md#fairness-a22-fair-linucb), not the authors' algorithm: LinUCB on the concatenated user and item
bits phi(x, a) (no intercept), with a penalty on the feature dimensions along which the learned reward differs between
the two groups of the sensitive
attribute:

    A = lam I + sum phi phi^T,  b = sum r phi,  theta = A^{-1} b
    rho = |theta * (phibar+ - phibar-)|   (phibar± = mean phi of past rounds with S = s±)
    score_a = theta . phi + alpha sqrt(phi^T A^{-1} phi) - gamma rho . |phi|

The arm with the largest score is played (ties uniformly at random). It has no fairness
threshold; its unfairness is measured by the fairness auditor at every tau.
A^{-1} is kept by Sherman-Morrison updates, for all seeds at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import SeedStreams


class FairLinUCB:
    """The reconstructed Fair-LinUCB over ``features[c, a]`` = phi(x_c, a), vectorised over seeds.

    ``group[c]`` is 0 when context c has S = s+ and 1 when it has S = s-.
    """

    name = "Fair-LinUCB (reconstruction)"

    def __init__(
        self, features: np.ndarray, group: np.ndarray, *, alpha: float = 1.0, lam: float = 1.0, gamma: float = 1.0
    ):
        self.features = np.asarray(features, dtype=float)
        self.group = np.asarray(group, dtype=np.int64)
        if self.features.ndim != 3 or self.group.shape != self.features.shape[:1]:
            raise ValueError("features must be (n_contexts, n_arms, d) and group (n_contexts,)")
        if lam <= 0:
            raise ValueError(f"lam must be > 0, got {lam}")
        self.alpha, self.lam, self.gamma = float(alpha), float(lam), float(gamma)

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        d = self.features.shape[2]
        self._ties = stream("ties")
        self._rows = np.arange(n_seeds)
        self._a_inv = np.tile(np.eye(d) / self.lam, (n_seeds, 1, 1))
        self._b = np.zeros((n_seeds, d))
        self._group_sums = np.zeros((n_seeds, 2, d))
        self._group_counts = np.zeros((n_seeds, 2))

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        phi = self.features[contexts]  # (n, k, d)
        theta = np.einsum("nde,ne->nd", self._a_inv, self._b)
        means = self._group_sums / np.maximum(self._group_counts, 1.0)[:, :, None]
        rho = np.abs(theta * (means[:, 0] - means[:, 1]))
        width = np.sqrt(np.einsum("nkd,nde,nke->nk", phi, self._a_inv, phi))
        score = np.einsum("nkd,nd->nk", phi, theta) + self.alpha * width
        score -= self.gamma * np.einsum("nkd,nd->nk", np.abs(phi), rho)
        return random_argmax(score, self._ties)

    def update(self, feedback: Feedback) -> None:
        contexts, arms, rewards = feedback.contexts, feedback.arms, feedback.rewards
        phi = self.features[contexts, arms]  # (n, d)
        a_phi = np.einsum("nde,ne->nd", self._a_inv, phi)
        self._a_inv -= a_phi[:, :, None] * a_phi[:, None, :] / (1.0 + (phi * a_phi).sum(axis=1))[:, None, None]
        self._b += rewards[:, None] * phi
        g = self.group[contexts]
        self._group_sums[self._rows, g] += phi
        self._group_counts[self._rows, g] += 1.0
