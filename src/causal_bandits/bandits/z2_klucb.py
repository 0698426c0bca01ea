"""z²-KL-UCB: kl-UCB on effective sample sizes from bMVWA (AAAI-19 Alg. 3, Z2-KL-UCB).

Arms are the POMIS arms. Rounds 1..K pull every arm once in a random order (Alg. 3 line 15).
Afterwards, for every arm x, bMVWA gives (θ̂_x, ŝ²_x); the effective number of samples is
N̂_x = θ̂_x(1-θ̂_x)/ŝ²_x, t̂ = Σ_x N̂_x (docs/papers/nonmanip.md#nonmanip-a-z2klucb-effective-count [R]: lines 18-19 are
garbled) and

    U_x = sup{ μ ∈ [θ̂_x, 1] : N̂_x · kl(θ̂_x, μ) ≤ f(t̂) },   f(t) = ln t + 3 ln ln t (1 for t < 3);

the arm with the largest U is pulled, ties broken uniformly at random.

Reduction to kl-UCB [R]: with ``no_expression="klucb"`` (the default) an arm with no active estimator
keeps kl-UCB's own statistics (empirical mean α/n and N = n, not the Beta(α+1, β+1) moments, which
would differ from kl-UCB: docs/papers/nonmanip.md#nonmanip-a-trivial-estimator), so t̂ = t - 1 when no
arm has one; such a seed computes its indices with the same call as
:class:`~causal_bandits.bandits.klucb.KLUCB` and reads the same ``ties`` stream in the same way,
hence pulls exactly what kl-UCB pulls. ``no_expression="beta"`` is the paper's literal reading
(docs/papers/nonmanip.md#nonmanip-knobs): such an arm gets the Beta(α+1, β+1) moments like every
other, θ̂ = (α+1)/(n+2) and N̂ = θ̂(1-θ̂)/ŝ² with ŝ² the variance of that Beta (N̂ = n + 3), so t̂
counts them too and no seed reduces to kl-UCB. ``trivial`` chooses the own-data estimator inside
bMVWA (``"beta"``, the paper's, or ``"empirical"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from causal_bandits.bandits.klucb import exploration, klucb_index
from causal_bandits.bandits.z2_estimates import Z2Policy
from causal_bandits.bandits.z2_settings import Z2Settings
from causal_bandits.causal.estimators import InstanceEstimators
from causal_bandits.rng import SeedStreams


def exploration_at(t: np.ndarray) -> np.ndarray:
    """f(t) of :func:`causal_bandits.bandits.klucb.exploration` for real t̂ (one per seed)."""
    t = np.asarray(t, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t < 3, 1.0, np.log(t) + 3.0 * np.log(np.log(t)))


class Z2KLUCB(Z2Policy):
    """z²-KL-UCB (AAAI-19 Alg. 3), vectorised over seeds.

    Parameters
    ----------
    estimators : InstanceEstimators
        The POMIS arms' compiled expression catalogue (:meth:`Z2Policy.from_catalogue` builds it from a
        catalogue document).
    variables : sequence of str
        The names of the columns of the environment's observed values.
    settings : Z2Settings, optional
        POMIS+'s settings (:class:`~causal_bandits.bandits.z2_settings.Z2Settings`): the bootstrap estimates', and
        ``no_expression``, the statistics of an arm with no active estimator: ``"klucb"`` (kl-UCB's own) or
        ``"beta"`` (the Beta(α+1, β+1) moments).
    """

    name = "z2KLUCB"

    def __init__(self, estimators: InstanceEstimators, variables: Sequence[str], settings: Z2Settings | None = None):
        super().__init__(estimators, variables, settings)
        self.no_expression = self.settings.no_expression

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._ties = stream("ties")
        self._order: np.ndarray | None = None  # set at round 1
        self._reset(n_seeds, n_arms, stream)

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        n_seeds, n_arms = self._pulls.shape
        if t == 1:
            self._order = self._ties.uniform(n_arms).argsort(axis=1)
        if t <= n_arms:
            assert self._order is not None  # rounds start at t = 1, which draws the order
            return self._order[:, t - 1]
        theta, variance, has = self.estimates.estimates(t)
        if self.no_expression == "beta":  # the Beta(α+1, β+1) moments: mean, and N = mean(1 - mean)/variance
            a, b = self._wins + 1.0, self._pulls - self._wins + 1.0
            mean = a / (a + b)
            n = mean * (1.0 - mean) / (a * b / ((a + b) ** 2 * (a + b + 1.0)))
            plain = np.zeros(n_seeds, dtype=bool)  # t̂ counts these N too: no seed is plain kl-UCB
        else:
            mean, n = self._wins / self._pulls, self._pulls
            plain = np.asarray(~has.any(axis=1))
        index = np.empty((n_seeds, n_arms))
        if plain.any():
            index[plain] = klucb_index(mean[plain], n[plain], exploration(t - 1))
        if not plain.all():
            mixed = ~plain
            h = has[mixed]
            with np.errstate(divide="ignore", invalid="ignore"):
                n_eff = np.where(h, theta[mixed] * (1.0 - theta[mixed]) / variance[mixed], n[mixed])
            p_eff = np.where(h, theta[mixed], mean[mixed])
            level = exploration_at(n_eff.sum(axis=1))
            # N̂·kl(p, q) ≤ f(t̂)  ⇔  (N̂ / f(t̂))·kl(p, q) ≤ 1: one call for per-seed levels.
            index[mixed] = klucb_index(p_eff, n_eff / level[:, None], 1.0)
        ties = index >= index.max(axis=1, keepdims=True)
        return np.where(ties, self._ties.uniform(n_arms), -1.0).argmax(axis=1)
