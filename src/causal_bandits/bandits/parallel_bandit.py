"""Lattimore, Lattimore & Reid (2016), Algorithm 1 "parallel bandit": fixed budget T, simple regret.

Applicable when every arm's do-mean is E[Y | S = s] (Z_a = ∅: parallel graphs and the two-layer
BGLM; combinatorial arms allowed). As run in docs/papers/cpe.md#cpe-baselines:

1. play do() ⌊T/2⌋ times; for every arm T_a = #{S_j = s}, μ̂_a = the mean of Y over those samples
   (do(): over all), q̂_a = T_a / ⌊T/2⌋;
2. m̂ = m(q̂) (the observation threshold, Definition 1 of cpe, defined by Lattimore et al.);
   A′ = {a : q̂_a <= 1/m̂};
3. play each a ∈ A′ ⌊(T − ⌊T/2⌋) / |A′|⌋ times (in arm order, each in one block) and replace
   μ̂_a by its interventional mean;
4. return argmax_a μ̂_a (μ̂_a = 0 while T_a = 0; ties to the lowest index).

It has no stopping certificate: a seed is "done" once its ⌊T/2⌋ + |A′|·⌊(T − ⌊T/2⌋)/|A′|⌋ <= T
pulls are made, and it is compared with the other algorithms only through error against budget.

Its arms follow a plan, not the rewards, so the engine serves it in blocks (``block`` / ``update_block``, the
engine's ``BlockPolicy``): step 1 as one block, step 3 in blocks that end where some seed's arm changes; the
counts and sums are integers, so a block leaves them as its rounds one by one would. Where one compiled node program
draws the environment's whole rows (the cpe SCMs), the same rounds are windows (the engine's ``WindowPolicy`` with
``NodeDraws``) played by :func:`_play_window`: each row drawn, counted in the tables or added to its arm's sum where
it is drawn, without the arrays of values and rewards a block's pull builds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numba
import numpy as np

from causal_bandits.bandits.count_tables import CountTables, record_row
from causal_bandits.bandits.engine import NodeDraws
from causal_bandits.bandits.node_program import draw_row
from causal_bandits.bandits.pure_exploration import Arm, PureExplorationPolicy
from causal_bandits.errors import ConfigError
from causal_bandits.rng import SeedStreams

#: Relative slack of the strict inequality q_a < 1/τ of Definition 1 (an exact tie stays a tie).
TIE = 1e-12


def observation_threshold(q: np.ndarray) -> np.ndarray:
    """Definition 1 per row of ``q`` (rows × arms): m = min{τ ∈ [|A|] : |{a : q_a < 1/τ}| <= τ}.

    Arm a counts for every τ <= τ_a = ⌈(1 − TIE)/q_a⌉ − 1 (all τ when q_a = 0), so the counts are
    a reversed cumulative histogram of τ_a: O(rows · |A|), no sort.
    """
    q = np.atleast_2d(np.asarray(q, dtype=float))
    rows, n = q.shape
    with np.errstate(divide="ignore", over="ignore"):
        tau_a = np.where(q > 0, np.ceil((1.0 - TIE) / q) - 1.0, n)
    tau_a = np.clip(tau_a, 0, n).astype(np.int64)
    hist = np.bincount((np.arange(rows)[:, None] * (n + 1) + tau_a).ravel(), minlength=rows * (n + 1))
    count = hist.reshape(rows, n + 1)[:, ::-1].cumsum(axis=1)[:, ::-1][:, 1:]  # count[τ−1] = #{τ_a >= τ}
    return np.argmax(count <= np.arange(1, n + 1), axis=1) + 1


@numba.njit(cache=True)
def _play_window(noise, program, reward, x, observe, step, counts, ysum, cells, isum, members, per, arms, ys):
    """Rounds of step 1 (``observe``: do(), each row counted in the tables) or of step 3 (round ``step`` of it on:
    A′'s arms in their blocks, each reward added to its arm's sum) for every seed, as ``select``, the environment's
    pull and ``update_block`` play them: arms and rewards into ``arms`` and ``ys`` (seeds, L), the state in place
    (integer counts and sums of 0/1 rewards: exact in any order)."""
    cols, widths, weights, offsets = cells
    n, length = arms.shape
    n_arms = members.shape[1]
    for s in range(n):
        for i in range(length):
            a = 0 if observe else members[s, min((step + i) // max(per[s], 1), n_arms - 1)]
            draw_row(x, s, noise[s, i], a, program)
            y = float(x[s, reward])
            if observe:
                record_row(counts, ysum, s, x, s, y == 1.0, cols, widths, weights, offsets)
            else:
                isum[s, a] += y
            arms[s, i], ys[s, i] = a, y


class ParallelBandit(PureExplorationPolicy):
    """Algorithm 1 of Lattimore et al. (2016) with budget ``budget``, vectorised over seeds."""

    name = "PB"
    window_draws = NodeDraws  # the engine's WindowPolicy: windows drawn with a node program
    window_observes = True  # step 1 counts the observed variables: the program draws whole rows
    _per_seed = ("_counts", "_ysum", "_mu", "_T", "_members", "_per", "_isum", "_end")

    def __init__(self, arms: Sequence[Arm], *, budget: int):
        if budget < 2:
            raise ConfigError(f"budget = {budget} is too small; give the parallel bandit a budget of at least 2")
        self.budget = int(budget)
        self.half = self.budget // 2
        self.tables = CountTables(arms, [(tuple(c for c, _ in arm), ((),) * len(arm)) for arm in arms])

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        if n_arms != self.tables.n_arms:
            raise ValueError(f"the policy has {self.tables.n_arms} arms, the environment {n_arms}")
        self.n_arms = n_arms
        self._rows = np.arange(n_seeds)
        self._counts, self._ysum = self.tables.empty(n_seeds)
        self._mu = np.zeros((n_seeds, n_arms))
        self._T = np.zeros((n_seeds, n_arms), dtype=np.int64)
        self._members = np.zeros((n_seeds, n_arms), dtype=np.int64)  # A′ in arm order, padded
        self._per = np.zeros(n_seeds, dtype=np.int64)
        self._isum = np.zeros((n_seeds, n_arms))
        self._end = np.full(n_seeds, self.half, dtype=np.int64)
        self._best = np.zeros(n_seeds, dtype=np.int64)
        self._stop = np.zeros(n_seeds, dtype=bool)
        self._round = 0
        self._kernel: tuple[np.ndarray, ...] | None = None  # the tables as the windows' rows are counted

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        j = self._round - self.half
        if j < 0:
            return np.zeros(self._rows.size, dtype=np.int64)
        slot = np.minimum(j // np.maximum(self._per, 1), self.n_arms - 1)
        return self._members[self._rows, slot]

    def block(self, t: int) -> int:
        """Rounds until step 1 ends, or until some running seed's arm of step 3 changes (its last pull ends it)."""
        if self._round < self.half:
            return self.half - self._round
        per = np.maximum(self._per, 1)
        return int((per - (self._round - self.half) % per).min())

    def update_block(self, feedback) -> None:
        """Learn from a block of :meth:`block` rounds: rewards (n, L), values (n, L, |X|)."""
        if self._round < self.half:
            self.tables.add_block(self._counts, self._ysum, feedback.values, feedback.rewards)
        else:
            self._isum[self._rows, feedback.arms] += feedback.rewards.sum(axis=1)
        self._advance(feedback.rewards.shape[1])

    def window(self, t: int) -> int:
        """The rounds of :meth:`block`, as a window (the engine's ``WindowPolicy``)."""
        return self.block(t)

    def play_window(self, t: int, length: int, draws: NodeDraws) -> tuple[np.ndarray, np.ndarray]:
        """The ``length`` rounds of a window (at most a :meth:`block`) in one compiled pass (:func:`_play_window`)."""
        arms, rewards, x = draws.outputs()
        observe = self._round < self.half
        if self._kernel is None:  # the environment's observed columns are fixed for the run
            self._kernel = self.tables.strata.kernel(cast(np.ndarray, draws.observed))
        _play_window(
            draws.noise, draws.program.args, draws.reward, x, observe, self._round - self.half, self._counts,
            self._ysum, self._kernel, self._isum, self._members, self._per, arms, rewards,
        )  # fmt: skip
        self._advance(length)
        return arms, rewards

    def _advance(self, length: int) -> None:
        """After ``length`` rounds learnt from: step 2 once step 1 ends, step 4 for the seeds whose last pull it was."""
        observing = self._round < self.half
        self._round += length
        if observing:
            if self._round == self.half:
                self._plan()
        else:
            finished = cast(np.ndarray, self._round == self._end)
            if finished.any():
                self._finish(finished)
        self._stop = self._round >= self._end

    def update(self, feedback) -> None:
        self._round += 1
        if self._round <= self.half:
            self.tables.add(self._counts, self._ysum, feedback.values, feedback.rewards)
            if self._round == self.half:
                self._plan()
        else:
            self._isum[self._rows, feedback.arms] += feedback.rewards
            finished = cast(np.ndarray, self._round == self._end)  # int == array: elementwise
            if finished.any():
                self._finish(finished)
        self._stop = self._round >= self._end

    def _plan(self) -> None:
        """Steps 1-2: observational estimates, m̂ and A′; the per-arm intervention budget."""
        self._mu, self._T = self.tables.estimates(self._counts, self._ysum)
        q = self._T / self.half
        m = observation_threshold(q)
        chosen = q * m[:, None] <= 1.0 + TIE
        size = chosen.sum(axis=1)
        self._per = np.where(size > 0, (self.budget - self.half) // np.maximum(size, 1), 0)  # A′ may be empty
        self._end = self.half + size * self._per
        self._members = np.argsort(~chosen, axis=1, kind="stable")
        self._best = self._mu.argmax(axis=1)
        done = self._end == self.half  # nothing to play in step 3
        if done.any():
            self._finish(done)

    def _finish(self, rows: np.ndarray) -> None:
        """Steps 3-4 for the seeds in ``rows`` (bool): interventional means of A′, then argmax."""
        per = self._per[rows, None]
        chosen = np.zeros((int(rows.sum()), self.n_arms), dtype=bool)
        size = (self._end[rows] - self.half) // np.maximum(self._per[rows], 1)
        chosen[np.arange(chosen.shape[0])[:, None], self._members[rows]] = np.arange(self.n_arms) < size[:, None]
        mu = np.where(chosen & (per > 0), self._isum[rows] / np.maximum(per, 1), self._mu[rows])
        self._mu[rows] = mu
        self._best[rows] = mu.argmax(axis=1)

    def diagnostics(self) -> dict[str, np.ndarray]:
        n = self._rows.size
        nan = np.full(n, np.nan)  # no confidence intervals: a fixed-budget algorithm
        return {
            "iterations": np.full(n, self._round),
            "n_obs_samples": np.full(n, min(self._round, self.half)),
            "n_int_samples": np.full(n, max(self._round - self.half, 0)),
            "n_empty_intersections": np.zeros(n, dtype=np.int64),
            "width_recommended": nan,
            "width_challenger": nan,
        }
