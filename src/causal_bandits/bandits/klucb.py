"""kl-UCB for Bernoulli rewards (Garivier & Cappé 2011), as run by Lee & Bareinboim.

Rounds 1..K pull every arm once, in a random order per seed. Afterwards, with t the number of
pulls so far, the index of arm a is

    U_a = sup{ q in [p_a, 1] : N_a * kl(p_a, q) <= f(t) },   f(t) = ln t + 3 ln ln t  (f = 1, t < 3)

with p_a the empirical mean and kl the Bernoulli Kullback-Leibler divergence
(docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh). The arm with the largest index is pulled; ties are broken
uniformly at random.

:func:`klucb_index` inverts the divergence for all seeds and arms at once by Newton's method. It
starts from the smaller of two upper bounds on the root, Pinsker's p + sqrt(f / 2N) and
1 - exp(-(f/N + H(p)) / (1 - p)) (from kl(p, q) >= -(1-p) ln(1-q) - H(p), H the binary
entropy), which keeps the start away from the pole at q = 1. g(q) = N kl(p, q) - f is convex and
increasing on [p, 1), so the iterates decrease monotonically to the root.

:class:`KLUCB` inverts lazily and pulls exactly the arms that inverting every arm every round
would pull. An arm's index only grows with the exploration level while the arm is not pulled, so
(i) its index at the level of a later round bounds its index from above until that round, and
(ii) its index when last inverted bounds its index now from below. Every arm keeps both (the
upper bounds at the level of a round 2K ahead, renewed for all arms when that round has passed
and for the pulled arm after each pull, as in the look-ahead of Lee & Bareinboim's code). Each
round, the largest lower bound is a floor under the maximum index, and only the pulled arm and
the arms whose upper bound reaches that floor are inverted: no other arm can reach the maximum,
let alone tie with it.
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


def _newton(p, n, q, neg_entropy, level, tol: float) -> None:
    """Newton's iterations on g(q) = n kl(p, q) - level from the starts ``q``, in place.

    Each cell stops after the first step not larger than ``tol``. While most cells still move,
    all are stepped with the finished ones masked (cheaper than gathering the moving ones every
    step); once few move, they are gathered and the loop goes on with them alone.
    """
    one_minus_p = 1.0 - p
    g, d, e = np.empty_like(q), np.empty_like(q), np.empty_like(q)
    moving = np.ones(q.size, dtype=bool)
    cells = None  # positions in q of the gathered cells, once gathered
    while True:
        # kl(p, q) = -H(p) - p ln q - (1-p) ln(1-q); H(p) is fixed, so only two logs per step.
        np.log(q, out=g)
        np.multiply(p, g, out=g)
        np.subtract(neg_entropy, g, out=g)
        np.negative(q, out=d)
        np.log1p(d, out=d)
        np.multiply(one_minus_p, d, out=d)
        np.subtract(g, d, out=g)
        np.multiply(n, g, out=g)
        np.subtract(g, level, out=g)  # g(q)
        np.subtract(q, p, out=d)
        np.multiply(n, d, out=d)
        np.subtract(1.0, q, out=e)
        np.multiply(q, e, out=e)
        np.divide(d, e, out=d)  # g'(q) = n (q - p) / (q (1 - q))
        np.divide(g, d, out=g)  # the step
        np.subtract(q, g, out=q, where=moving)
        np.logical_and(moving, g > tol, out=moving)
        n_moving = np.count_nonzero(moving)
        if n_moving == 0:
            break
        if n_moving <= moving.size // 4:  # gather the moving cells
            keep = np.flatnonzero(moving)
            if cells is None:
                full, cells = q, keep
            else:
                full[cells] = q
                cells = cells[keep]
            p, n, q, neg_entropy, one_minus_p = (x[keep] for x in (p, n, q, neg_entropy, one_minus_p))
            if np.ndim(level):
                level = level[keep]
            g, d, e = np.empty_like(q), np.empty_like(q), np.empty_like(q)
            moving = np.ones(q.size, dtype=bool)
    if cells is not None:
        full[cells] = q


def exploration(t: int) -> float:
    """f(t) = ln t + 3 ln ln t, and 1 for t < 3 (where ln ln t is undefined or negative)."""
    return 1.0 if t < 3 else float(np.log(t) + 3.0 * np.log(np.log(t)))


def klucb_index(p: np.ndarray, n: np.ndarray, level: float | np.ndarray, tol: float = 1e-10) -> np.ndarray:
    """Largest q >= p with n * kl(p, q) <= level, elementwise (n >= 1; ``level`` a number or an
    array of p's shape)."""
    p = np.asarray(p, dtype=float)
    n = np.asarray(n, dtype=float)
    certain = p >= 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = entr(p) + entr(1.0 - p)
        pole_bound = -np.expm1(-(level / n + entropy) / (1.0 - p))
        # Cap below 1 so that the first Newton step is finite even when the root rounds to 1.
        start = np.minimum(np.minimum(p + np.sqrt(level / (2.0 * n)), pole_bound), _BELOW_ONE)
        q = np.where(certain, 1.0, np.maximum(start, p))
        cells = np.flatnonzero(~certain)
        pa, na, qa = p.ravel()[cells], n.ravel()[cells], q.ravel()[cells]
        if np.ndim(level):
            level = np.broadcast_to(level, p.shape).ravel()[cells]
        _newton(pa, na, qa, -entropy.ravel()[cells], level, tol)
    q.ravel()[cells] = qa
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
        self._order: np.ndarray | None = None  # set at round 1
        # Per arm: its index at the level of round self._ahead (an upper bound on its index until
        # then), and its index when last inverted (a lower bound on its index now, until pulled).
        self._bound = np.empty((n_seeds, n_arms))
        self._known = np.empty((n_seeds, n_arms))
        self._ahead = 0
        self._last = np.zeros(n_seeds, dtype=np.int64)  # arm pulled in the previous round

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        _n_seeds, n_arms = self._pulls.shape
        if t == 1:  # one random permutation per seed for the initial sweep
            self._order = self._ties.uniform(n_arms).argsort(axis=1)
        if t <= n_arms:
            assert self._order is not None  # rounds start at t = 1, which draws the order
            return self._order[:, t - 1]
        level = exploration(t - 1)
        ties = self._ties.uniform(n_arms)  # read every round, used only where arms tie
        if t - 1 > self._ahead:  # the bounds have expired: invert every arm, now and ahead
            self._ahead = _lookahead(t - 1, n_arms)
            p = self._wins / self._pulls
            levels = np.stack([np.full(p.shape, level), np.full(p.shape, exploration(self._ahead))])
            self._known, self._bound = klucb_index(np.stack([p, p]), np.stack([self._pulls] * 2), levels)
        else:
            self._invert_contenders(level)
        return _argmax_ties(self._known, ties)

    def _invert_contenders(self, level: float) -> None:
        """Bring ``self._known`` up to date wherever an arm could reach the largest index.

        The arm pulled last changed, so it is inverted again (now, and at the look-ahead level
        for its bound). Any other arm's index now is at least its ``known`` value, so the largest
        index is at least ``floor``, the row's largest ``known``; an arm whose bound is below
        ``floor`` can neither reach nor tie the maximum, and its stale ``known`` value (below its
        bound) stays below the maximum too. The slack covers the inversions' rounding (their
        error is far below it), so the row's maximum and its ties come out as if every arm had
        been inverted.
        """
        _n_seeds, n_arms = self._pulls.shape
        last = self._rows * n_arms + self._last
        known, bound = self._known.ravel(), self._bound.ravel()
        known[last] = -np.inf
        floor = self._known.max(axis=1) - 2 * _SLACK
        contender = self._bound >= floor[:, None]
        contender.ravel()[last] = True
        cells = np.flatnonzero(contender)
        both = np.concatenate([cells, last])
        levels = np.full(both.size, level)
        levels[cells.size :] = exploration(self._ahead)
        n = self._pulls.ravel()[both]
        index = klucb_index(self._wins.ravel()[both] / n, n, levels)
        known[cells] = index[: cells.size]
        bound[last] = index[cells.size :]

    def update(self, feedback: Feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        self._pulls[self._rows, arms] += 1
        self._wins[self._rows, arms] += rewards
        self._last = np.asarray(arms, dtype=np.int64)


#: Bounds and indices are compared with this slack. Newton's method stops once a step is below
#: 1e-10, converging quadratically (linearly at worst, next to the pole at q = 1), so an index is
#: off its exact value by far less; a larger slack only inverts a few more arms.
_SLACK = 1e-7


def _lookahead(t: int, n_arms: int) -> int:
    """The round whose exploration level the bounds are computed for, from round ``t`` on: 2K
    rounds ahead, as in Lee & Bareinboim's code (a longer look-ahead refreshes less often but
    leaves looser bounds; within 2x either way the cost barely moves)."""
    return t + 2 * n_arms


def _argmax_ties(index: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """Per row, the arm of largest index; among equal indices the one of largest ``ties``."""
    return np.where(index >= index.max(axis=1, keepdims=True), ties, -1.0).argmax(axis=1)
