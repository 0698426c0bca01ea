"""kl-UCB for Bernoulli rewards (Garivier & Cappé 2011), as run by Lee & Bareinboim.

Rounds 1..K pull every arm once, in a random order per seed. Afterwards, with t the number of
pulls so far, the index of arm a is

    U_a = sup{ q in [p_a, 1] : N_a * kl(p_a, q) <= f(t) },   f(t) = ln t + 3 ln ln t  (f = 1, t < 3)

with p_a the empirical mean and kl the Bernoulli Kullback-Leibler divergence (SPEC nonmanip
§2.10). The arm with the largest index is pulled; ties are broken uniformly at random.

:func:`klucb_index` inverts the divergence for all seeds and arms at once by Newton's method. It
starts from the smaller of two upper bounds on the root, Pinsker's p + sqrt(f / 2N) and
1 - exp(-(f/N + H(p)) / (1 - p)) (from kl(p, q) >= -(1-p) ln(1-q) - H(p), H the binary
entropy), which keeps the start away from the pole at q = 1. g(q) = N kl(p, q) - f is convex and
increasing on [p, 1), so the iterates decrease monotonically to the root.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.special import entr, rel_entr

from causal_bandits.bandits.engine import Feedback
from causal_bandits.rng import SeedStreams


_BELOW_ONE = np.nextafter(1.0, 0.0)


def bernoulli_kl(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """kl(p, q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)), with 0 ln 0 = 0."""
    return rel_entr(p, q) + rel_entr(1.0 - p, 1.0 - q)


def exploration(t: int) -> float:
    """f(t) = ln t + 3 ln ln t, and 1 for t < 3 (where ln ln t is undefined or negative)."""
    return 1.0 if t < 3 else float(np.log(t) + 3.0 * np.log(np.log(t)))


def klucb_index(p: np.ndarray, n: np.ndarray, level: float, tol: float = 1e-10) -> np.ndarray:
    """Largest q >= p with n * kl(p, q) <= level, elementwise (n >= 1)."""
    p = np.asarray(p, dtype=float)
    n = np.asarray(n, dtype=float)
    certain = p >= 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = entr(p) + entr(1.0 - p)
        pole_bound = -np.expm1(-(level / n + entropy) / (1.0 - p))
    # Cap below 1 so that the first Newton step is finite even when the root rounds to 1.
    start = np.minimum(np.minimum(p + np.sqrt(level / (2.0 * n)), pole_bound), _BELOW_ONE)
    q = np.where(certain, 1.0, np.maximum(start, p))
    active = np.flatnonzero(~certain)
    pa, na, qa = p.ravel()[active], n.ravel()[active], q.ravel()[active]
    neg_entropy = -entropy.ravel()[active]
    while active.size:
        # kl(p, q) = -H(p) - p ln q - (1-p) ln(1-q); H(p) is fixed, so only two logs per step.
        g = na * (neg_entropy - pa * np.log(qa) - (1.0 - pa) * np.log1p(-qa)) - level
        step = g / (na * (qa - pa) / (qa * (1.0 - qa)))
        qa = qa - step
        more = step > tol
        q.ravel()[active] = qa
        active, pa, na, qa = active[more], pa[more], na[more], qa[more]
        neg_entropy = neg_entropy[more]
    # An iterate still at the cap means g <= 0 there: the root rounds to 1 in double precision.
    q[q >= _BELOW_ONE] = 1.0
    return q


class KLUCB:
    """kl-UCB with the exploration function ln t + 3 ln ln t, vectorised over seeds."""

    name = "KLUCB"

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._ties = stream("ties")
        self._rows = np.arange(n_seeds)
        self._pulls = np.zeros((n_seeds, n_arms))
        self._wins = np.zeros((n_seeds, n_arms))
        self._order = None

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        n_seeds, n_arms = self._pulls.shape
        if t == 1:  # one random permutation per seed for the initial sweep
            self._order = self._ties.uniform(n_arms).argsort(axis=1)
        if t <= n_arms:
            return self._order[:, t - 1]
        index = klucb_index(self._wins / self._pulls, self._pulls, exploration(t - 1))
        ties = index >= index.max(axis=1, keepdims=True)
        return np.where(ties, self._ties.uniform(n_arms), -1.0).argmax(axis=1)

    def update(self, feedback: Feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        self._pulls[self._rows, arms] += 1
        self._wins[self._rows, arms] += rewards
