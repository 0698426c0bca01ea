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
its index when last inverted bounds its index now from below; the index is also concave in the
level, so the tangent drawn where it was inverted (:func:`index_slope`) bounds it from above at
every later level, and an arm that has never lost has index exactly 1 at every level. Each round,
the largest lower bound among the arms other than the one pulled last is a floor under the
maximum index, and only the arms whose upper bound (the tangent at the level of a round a fixed
fraction of t ahead, renewed when that round has passed) reaches the floor are inverted, if they
have lost, with the arm pulled last: no other arm can reach the maximum, let alone tie with it.
The arms that can reach the floor are kept per seed in a small table
(:class:`~causal_bandits.bandits.klucb_candidates.Candidates`), so that a round does not pass
over every arm of every seed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.special import entr, rel_entr

from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.klucb_candidates import SLACK, Candidates
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


def index_slope(p: np.ndarray, n: np.ndarray, q: np.ndarray, error: float) -> np.ndarray:
    """An upper bound on the derivative in the level of the index, where the index is ``q`` within ``error``.

    The index U(f) = sup{q : n kl(p, q) <= f} is concave in f, with derivative q (1 - q) / (n (q - p)) at U = q
    (the inverse of n dkl/dq); that derivative decreases in q, so taking it at ``q - error`` bounds the exact one
    from above, and the tangent q + slope (f - f0) bounds the index at every level f >= f0 from above (to within
    ``error``). 0 where p = 1 (the index is 1 at every level); :data:`STEEP` where ``q - error`` is not above p.
    """
    low = q - error
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = low * (1.0 - low) / (n * (low - p)) * (1.0 + 1e-12)  # the factor covers the rounding
    return np.where(p >= 1.0, 0.0, np.where(low > p, slope, STEEP))


#: The slope :func:`index_slope` gives where it cannot bound the derivative (a tangent bound that never binds).
STEEP = 1e30


class KLUCB:
    """kl-UCB with the exploration function ln t + 3 ln ln t, vectorised over seeds."""

    name = "KLUCB"

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        self._ties = stream("ties")
        self._rows = np.arange(n_seeds)
        self._pulls = np.zeros((n_seeds, n_arms))
        self._wins = np.zeros((n_seeds, n_arms))
        self._order: np.ndarray | None = None  # set at round 1
        self._arms = ArmBounds(self._wins, self._pulls)
        self._table = Candidates(n_seeds, n_arms)
        self._ahead = 0
        self._last = np.zeros(n_seeds, dtype=np.int64)  # arm pulled in the previous round

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        n_seeds, n_arms = self._pulls.shape
        if t == 1:  # one random permutation per seed for the initial sweep
            self._order = self._ties.uniform(n_arms).argsort(axis=1)
        if t <= n_arms:
            assert self._order is not None  # rounds start at t = 1, which draws the order
            return self._order[:, t - 1]
        level = exploration(t - 1)
        ties = self._ties.uniform(n_arms)  # read every round, used only where arms tie
        arms, table = self._arms, self._table
        if t == n_arms + 1:  # every arm's index, once
            arms.invert(np.arange(n_seeds * n_arms), level)
        if t - 1 > self._ahead:  # the upper bounds have expired: every arm's anew, at the level of a later round
            self._ahead = _lookahead(t - 1)
            arms.renew(exploration(self._ahead))
            table.rebuild(self._rows, arms, self._last, level)
        table.contenders(arms, self._last, level)
        at = np.flatnonzero(table.contender & table.lost)  # the contenders to invert: the others have index 1
        if at.size:
            table.known.ravel()[at], table.slope.ravel()[at] = arms.invert(table.cells.ravel()[at], level)
            table.level.ravel()[at] = level
        return table.argmax(ties)

    def update(self, feedback: Feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        at = self._rows * self._pulls.shape[1] + arms
        self._pulls.ravel()[at] += 1
        self._wins.ravel()[at] += rewards
        self._table.pulled(rewards, self._arms)
        self._last = np.asarray(arms, dtype=np.int64)


class ArmBounds:
    """Per seed and arm (flat, seed-major, and one more cell at the end for the sentinel arm that pads the candidate
    table): the index when last inverted (``known``; a lower bound on the index now until the arm is pulled, -inf from
    the pull of an arm that has lost until it is inverted again), the level
    it was inverted at and the slope of its tangent there (:func:`index_slope`), and the tangent bound at the level
    ``ahead`` of the look-ahead round, or 1 (``bound``; an upper bound on the index up to that round). The sentinel has
    index and bound -inf and is never inverted.
    """

    def __init__(self, wins: np.ndarray, pulls: np.ndarray):
        self.wins, self.pulls = wins.ravel(), pulls.ravel()  # views of the policy's counts, updated in place
        self.n_seeds, self.n_arms = pulls.shape
        size = pulls.size + 1
        self.known, self.bound = np.full(size, -np.inf), np.full(size, -np.inf)
        self.level, self.slope = np.zeros(size), np.zeros(size)
        self.ahead = 0.0

    def per_seed(self, array: np.ndarray) -> np.ndarray:
        """``array`` (one of the above, or ``wins`` or ``pulls``) as (seeds, arms), without the sentinel."""
        return array[: self.n_seeds * self.n_arms].reshape(self.n_seeds, self.n_arms)

    def renew(self, ahead: float) -> None:
        """Every arm's upper bound: its tangent bound at the level ``ahead``, or 1."""
        self.ahead = ahead
        np.minimum(self.known + self.slope * (ahead - self.level), 1.0, out=self.bound)

    def invert(self, cells: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
        """Invert the arms at ``cells`` at ``level``; returns their indices and the slopes of their tangents."""
        n = self.pulls[cells]
        p = self.wins[cells] / n
        index = klucb_index(p, n, level)
        slope = index_slope(p, n, index, SLACK / 2)
        bound = np.minimum(index + slope * (self.ahead - level), 1.0)
        self.known[cells], self.level[cells], self.slope[cells], self.bound[cells] = index, level, slope, bound
        return index, slope


def _lookahead(t: int) -> int:
    """The round whose exploration level the bounds are computed for, from round ``t`` on: a fixed fraction of ``t``
    ahead, so that the levels of the two rounds differ by about the same whatever ``t`` (f grows like ln t) and the
    bounds are renewed a logarithmic number of times (a longer look-ahead renews them less often but leaves them
    looser)."""
    return t + max(int(LOOKAHEAD * t), 1)


#: The look-ahead, as a fraction of the round.
LOOKAHEAD = 1 / 8
