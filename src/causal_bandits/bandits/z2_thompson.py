"""z²-TS: Thompson sampling whose arms also learn from the other arms' data (AAAI-19 Alg. 3, Z2-TS).

Arms are the POMIS arms. Each round, for every arm x, bMVWA (:class:`~causal_bandits.bandits.
z2_estimates.Z2Estimates`) combines the arm's own Beta(α_x+1, β_x+1) posterior with the active
catalogue estimators of P_x(Y=1) into (θ̂_x, ŝ²_x); the arm's sample is drawn from the Beta
distribution with that mean and variance, Beta(θ̂ν, (1-θ̂)ν) with ν = θ̂(1-θ̂)/ŝ² - 1 (Alg. 3 lines
8-10), and the arm with the largest sample is pulled. Where ν ≤ 0 the arm's own posterior is used
(docs/papers/nonmanip.md#nonmanip-a-beta-match-fallback [R]). The policy learns from ``feedback.values``: the value of
every observed variable in each pull, accumulated into per-arm count tables.

Reduction to TS: an arm with no active estimator is sampled from Beta(α+1, β+1) with the integer
shapes (the moment match of the trivial estimator alone gives exactly these), through the same
sampler and the same ``beta`` / ``beta-retry`` streams as :class:`~causal_bandits.bandits.thompson.
ThompsonSampling`; the bootstrap reads its own stream. A seed none of whose arms has an active
estimator therefore pulls exactly what TS pulls. Matched shapes below 1 (Cheng's sampler needs
both ≥ 1) are drawn by inverting the Beta CDF (``scipy.special.betaincinv``) on uniforms from the
``beta-small`` stream.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.special import betaincinv

from causal_bandits.bandits.beta import BetaShapes
from causal_bandits.bandits.z2_estimates import Z2Policy
from causal_bandits.rng import SeedStreams


class Z2ThompsonSampling(Z2Policy):
    """z²-TS (AAAI-19 Alg. 3), vectorised over seeds.

    Parameters
    ----------
    estimators : InstanceEstimators
        The POMIS arms' compiled expression catalogue (:meth:`Z2Policy.from_catalogue` builds it from a
        catalogue document).
    variables : sequence of str
        The names of the columns of the environment's observed values.
    settings : Z2Settings, optional
        POMIS+'s settings (:class:`~causal_bandits.bandits.z2_settings.Z2Settings`; ``no_expression`` does not
        apply: an arm with no active estimator is drawn from Beta(α+1, β+1)).
    """

    name = "z2TS"

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._draws, self._retries, self._small = stream("beta"), stream("beta-retry"), stream("beta-small")
        self._reset(n_seeds, n_arms, stream)

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        a, b = self._wins + 1.0, self._pulls - self._wins + 1.0
        theta, variance, has = self.estimates.estimates(t)
        if has.any():
            with np.errstate(divide="ignore", invalid="ignore"):
                nu = theta * (1.0 - theta) / variance - 1.0
            matched = has & (nu > 0)
            a = np.where(matched, theta * nu, a)
            b = np.where(matched, (1.0 - theta) * nu, b)
        small = (a < 1.0) | (b < 1.0)
        x = BetaShapes(np.maximum(a, 1.0), np.maximum(b, 1.0)).sample(self._draws, self._retries)
        if small.any():
            u = self._small.take(small.sum(axis=1))
            x[small] = betaincinv(a[small], b[small], u)
        return x.argmax(axis=1)
