"""The data and bMVWA estimates that z²-TS and z²-KL-UCB share (AAAI-19 Alg. 2 and Alg. 3 line 8/17).

:class:`Z2Estimates` keeps, for every seed, one count table per arm over all observed variables
(never a list of samples) and gives, for every seed and arm, the minimum-variance weighted average
of the trivial estimator and the arm's active catalogue instances (docs/papers/nonmanip.md#nonmanip-bmvwa):

* point estimates θ̂_i(D) of every instance, the trivial estimator and the QP weights are current
  every round;
* the bootstrap covariance Σ̂ of an arm's instances comes from B multinomial resamples of every
  arm's count table (one set of replicate tables per seed, shared by all arms' estimators:
  docs/papers/nonmanip.md#nonmanip-bmvwa),
  and is refreshed per ``refresh`` (docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh [R]): ``"every_round"`` (the
  paper's Alg. 3: bootstrap every round) or ``"adaptive"`` (our default
  (docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh): while t ≤ ``warmup``, when the arm's active set changed, or
  when the data its active instances read grew by ``growth`` (5 %) since its last bootstrap).

Only what changed is recomputed, which leaves every Σ̂ an exact B-replicate bootstrap of the
current data: an arm's B resampled tables are redrawn when a refresh needs them and the arm has
new samples since they were drawn (an unchanged table's resamples are still B independent
multinomial resamples of it), and an arm's Σ̂ is recomputed only when its active set changed or
an arm its instances read has new samples (otherwise the recomputation would return the same
numbers). Replicates are kept as leaf counts (:class:`~causal_bandits.causal.evaluation.Program`),
and only the leaf counts a refresh's instances read are drawn, by groups of cells, refined when a later
refresh reads more of an unchanged table (:class:`~causal_bandits.bandits.z2_resample.LazyResamples`: the
joint law of the full draw).

Randomness: the resamples of a seed come from a numpy PCG64 stream of that seed alone, seeded at ``reset`` from
the policy's keyed ``bootstrap`` stream and advanced by the compiled sampler (one call per refresh for all its
seeds; values never depend on which other seeds share the job). The bootstrap never touches the streams the base
algorithm draws from, so a z² solver with no active instance makes exactly its base algorithm's draws.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from causal_bandits.bandits.multinomial import pcg64_state
from causal_bandits.bandits.z2_resample import LazyResamples
from causal_bandits.bandits.z2_settings import Z2Settings
from causal_bandits.causal.estimators import InstanceEstimators
from causal_bandits.causal.mvwa import bootstrap_covariance, min_variance_weights
from causal_bandits.rng import SeedStreams

#: Bootstrap evaluations are batched to about this many replicate leaf cells (enough seeds per numpy
#: call that the per-call overhead is small on small catalogues, arrays that stay in cache on large ones).
_CELLS_PER_BATCH = 500_000
#: Clip of the combined estimate (docs/papers/nonmanip.md#nonmanip-bmvwa).
_CLIP = 1e-6


class Z2Estimates:
    """Count tables and bMVWA estimates for ``estimators`` (one panel's compiled catalogue).

    ``trivial``: the mean/variance of an arm's own-data estimator, ``"beta"`` (the paper: the
    Beta(α+1, β+1) posterior) or ``"empirical"`` (α/n and max(p(1-p), 1/n)/n;
    docs/papers/nonmanip.md#nonmanip-a-trivial-estimator).
    """

    def __init__(self, estimators: InstanceEstimators, settings: Z2Settings | None = None):
        settings = settings or Z2Settings()
        self.est = estimators
        self.B, self.refresh, self.trivial = int(settings.bootstrap), settings.refresh, settings.trivial
        self.warmup, self.growth = int(settings.warmup), float(settings.growth)
        layout = estimators.layout
        n_vars = len(layout.variables)
        y = layout.variables.index(estimators.reward)
        self._y1 = ((np.arange(2**n_vars) >> (n_vars - 1 - y)) & 1).astype(bool)
        slots = estimators.slots
        self._slot_ok = slots >= 0
        self._slot_ids = np.where(self._slot_ok, slots, 0)
        # uses_slot[a, k, b]: instance k of arm a reads the data of arm b
        self._uses_slot = estimators.uses[self._slot_ids] & self._slot_ok[..., None]
        self._uses_slot_f = self._uses_slot.astype(float)  # one batched matmul per round finds what they read
        self._reads_arm = estimators.uses.T.astype(float)  # (n_arms, n_instances)
        self._entry_of = np.array([inst.entry for inst in estimators.instances], dtype=np.int64)
        feeds = estimators.program.feeds
        width = max(f.shape[1] for f in feeds)
        pad = estimators.program.n_leaf_cells + 1
        # _feeds[a, c]: the leaf-count positions a sample of arm a in cell c adds one to (padded)
        self._feeds = np.stack([np.pad(f, ((0, 0), (0, width - f.shape[1])), constant_values=pad) for f in feeds])
        self._reads_cells = estimators.reads_cells.astype(float)  # (n_instances, n_leaf_cells)
        self._resamples = LazyResamples(estimators.program, self.B)

    @property
    def n_arms(self) -> int:
        return len(self.est.layout.arms)

    def reset(self, n_seeds: int, bootstrap_stream: SeedStreams) -> None:
        A, K, C = self.n_arms, self.est.k_max, 2 ** len(self.est.layout.variables)
        self.counts = np.zeros((n_seeds, A, C))
        self.n = np.zeros((n_seeds, A))
        self.wins = np.zeros((n_seeds, A))
        # Leaf counts of the data, kept up to date sample by sample, then the +inf column of the
        # support rule and a column for the padding of the feed positions.
        L = self.est.program.n_leaf_cells
        self.leaf_counts = np.zeros((n_seeds, L + 2))
        self.leaf_counts[:, L] = np.inf
        # The bootstrap replicates of every seed's data, as leaf counts ((L, B) per seed, batch last for the
        # evaluation), revealed as refreshes want them (LazyResamples).
        self._resamples.reset(n_seeds)
        # The instances' values on the replicates, cached (seed, instance, B), the refresh batch (clock) at
        # which each was computed and at which each arm's replicates were last redrawn (_evaluate_stale).
        self._rep_values = np.full((n_seeds, self.est.n_instances, self.B), np.nan)
        self._evaluated_at = np.full((n_seeds, self.est.n_instances), -1)
        self._redrawn_at = np.zeros((n_seeds, A), dtype=np.int64)
        self._clock = 0
        self._covered = np.zeros((n_seeds, self.est.n_instances), dtype=bool)
        # arms whose samples filled an empty leaf cell since the last support check
        self._fresh = np.zeros((n_seeds, A), dtype=bool)
        words = (bootstrap_stream.uniform(4) * 2**32).astype(np.uint64)
        # each seed's resample stream: numpy's PCG64 seeded with its four words, as state words the sampler advances
        self._streams = np.stack([pcg64_state(np.random.default_rng([int(w) for w in row])) for row in words])
        self._cov = np.zeros((n_seeds, A, K, K))
        self._kept = np.zeros((n_seeds, A, K), dtype=bool)
        self._last_active = np.zeros((n_seeds, A, K), dtype=bool)
        self._last_size = np.zeros((n_seeds, A))
        self._weights = np.zeros((n_seeds, A, K + 1))
        self._variance = np.zeros((n_seeds, A))
        self._stale = np.ones((n_seeds, A), dtype=bool)  # QP to redo (trivial changed or refresh)
        self.n_active = np.zeros((n_seeds, A), dtype=np.int64)
        self.bootstrap_seconds = 0.0  # time spent in bootstrap refreshes (for benchmarks)
        self.refreshes = 0  # seed-refresh events (one set of B resamples of a seed's tables)

    def add(self, arms: np.ndarray, cells: np.ndarray) -> None:
        """Record one sample per seed: arm ``arms[s]`` gave the value row whose cell is ``cells[s]``."""
        rows = np.arange(arms.size)
        self.counts[rows, arms, cells] += 1
        self.n[rows, arms] += 1
        self.wins[rows, arms] += self._y1[cells]
        positions = self._feeds[arms, cells]
        # A support can only become covered when one of its cells goes from 0 to 1 (data only grow).
        filled = (self.leaf_counts[rows[:, None], positions] == 0).any(axis=1)
        self.leaf_counts[rows[:, None], positions] += 1
        self._fresh[rows[filled], arms[filled]] = True
        self._stale[rows, arms] = True

    # ------------------------------------------------------------------------------ estimates
    def _trivial(self, n: np.ndarray, wins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.trivial == "beta":
            return (wins + 1) / (n + 2), (wins + 1) * (n - wins + 1) / ((n + 2) ** 2 * (n + 3))
        m = np.maximum(n, 1)
        p = wins / m
        return p, np.maximum(p * (1 - p), 1 / m) / m

    def estimates(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(θ̂, ŝ², has) per (seed, arm) for round ``t``; ``has`` marks arms with at least one usable
        instance (elsewhere θ̂ and ŝ² are meaningless and the base algorithm's own statistics apply)."""
        n, wins = self.n, self.wins
        # Data only grow, so a covered support stays covered: check only the (seed, instance) pairs
        # not yet covered whose instance reads an arm whose samples filled an empty leaf cell.
        if self._fresh.any():  # late in a run most rounds fill no empty cell
            check = ~self._covered & ((self._fresh.astype(float) @ self._reads_arm) > 0)
            self._fresh[:] = False
            seeds, todo = np.nonzero(check)
            if todo.size:
                self._covered[seeds, todo] = self.est.support(self.leaf_counts, seeds, todo)
        active = self._covered & self.est.enough_samples(n)
        act = active[:, self._slot_ids] & self._slot_ok  # (S, A, K)
        has_active = act.any(axis=-1)
        # reads[s, a, b]: an active instance of arm a reads the data of arm b; size: the total size of
        # the data arm a's active instances read (docs/papers/nonmanip.md#nonmanip-a-bootstrap-refresh)
        reads = np.matmul(act.transpose(1, 0, 2).astype(float), self._uses_slot_f).transpose(1, 0, 2) > 0
        size = np.matmul(reads.astype(float), n[:, :, None])[..., 0]  # sums of integers: exact in any order
        changed = (act != self._last_active).any(axis=-1)
        if self.refresh == "every_round" or t <= self.warmup:
            grown = size > self._last_size  # data only grow: an arm the instances read has new samples
        else:
            grown = size >= (1.0 + self.growth) * self._last_size
        due = has_active & (changed | grown)
        if due.any():
            self._bootstrap(due, act, size)
        usable = act & self._kept
        has = usable.any(axis=-1)
        self.n_active = usable.sum(axis=-1)
        m0, s0 = self._trivial(n, wins)
        redo = has & (self._stale | due)
        if redo.any():
            K = self.est.k_max
            cov = np.zeros((int(redo.sum()), K + 1, K + 1))
            cov[:, 0, 0] = s0[redo]
            cov[:, 1:, 1:] = self._cov[redo]
            allowed = np.concatenate([np.ones((cov.shape[0], 1), dtype=bool), usable[redo]], axis=1)
            self._weights[redo], self._variance[redo] = min_variance_weights(cov, allowed)
        self._stale[:] = False
        w = self._weights
        point = np.where(usable, self._point_values(usable)[:, self._slot_ids], 0.0)
        theta = w[..., 0] * m0 + (w[..., 1:] * point).sum(axis=-1)
        return np.clip(theta, _CLIP, 1 - _CLIP), self._variance.copy(), has

    def _point_values(self, usable: np.ndarray) -> np.ndarray:
        """θ̂_i(D) of every instance (seeds, instances) on the current data, computed for the catalogue entries with an
        instance ``usable`` (seeds, arms, slots) in some seed (nan elsewhere; the others are not read), batch last."""
        need = np.zeros(len(self.est.entries), dtype=bool)
        need[self._entry_of[self._slot_ids[usable.any(axis=0)]]] = True
        entries = tuple(np.flatnonzero(need).tolist())
        if not entries:
            return np.full((self.n.shape[0], self.est.n_instances), np.nan)
        return self.est.values_last(self.leaf_counts.T, self.n.T, entries).T

    def _bootstrap(self, due: np.ndarray, act: np.ndarray, size: np.ndarray) -> None:
        """New Σ̂ for the due arms, from B replicates of every table their active instances read."""
        start = time.process_time()
        seeds = np.flatnonzero(due.any(axis=1))
        self.refreshes += seeds.size
        rows, arms, slots = np.nonzero(act[seeds] & due[seeds][..., None] & self._slot_ok)
        wanted = np.zeros((seeds.size, self.est.n_instances), dtype=bool)  # the instances this refresh uses
        wanted[rows, self._slot_ids[arms, slots]] = True
        cells = (wanted.astype(float) @ self._reads_cells) > 0  # the replicate leaf counts they read
        self._clock += 1
        rows, redrawn = np.nonzero(self._resamples.reveal(seeds, self._streams, self.counts, self.n, cells))
        self._redrawn_at[seeds[rows], redrawn] = self._clock
        self._evaluate_stale(seeds, wanted)
        si, ai = np.nonzero(due[seeds])
        si = seeds[si]
        chunk = max(1, _CELLS_PER_BATCH // (self.B * max(self.est.k_max, 1)))
        for lo in range(0, si.size, chunk):
            ps, pa = si[lo : lo + chunk], ai[lo : lo + chunk]  # the chunk's (seed, arm) pairs
            # (d, B, K); the values of the slots not used are never read (bootstrap_covariance drops them)
            reps = np.ascontiguousarray(self._rep_values[ps[:, None], self._slot_ids[pa]].transpose(0, 2, 1))
            self._cov[ps, pa], self._kept[ps, pa] = bootstrap_covariance(reps, act[ps, pa] & self._slot_ok[pa])
        self._last_active[due] = act[due]
        self._last_size[due] = size[due]
        self.bootstrap_seconds += time.process_time() - start

    def _batches(self, need: np.ndarray) -> list[np.ndarray]:
        """Positions of the refreshing seeds (rows of ``need``) in batches for the evaluation: seeds that need the same
        catalogue entries go together (a batch evaluates just those), about ``_CELLS_PER_BATCH`` replicate leaf cells
        a batch."""
        per_batch = max(1, _CELLS_PER_BATCH // (self.B * self.est.program.n_leaf_cells))
        if per_batch == 1:  # a seed a batch (Fig. 5c): nothing to group
            return list(np.arange(need.shape[0])[:, None])
        order = np.lexsort(need.T)  # seeds needing the same entries next to each other
        ranked = need[order]
        starts = np.flatnonzero(np.concatenate(([True], (ranked[1:] != ranked[:-1]).any(axis=1))))
        return [
            order[lo : min(lo + per_batch, end)]
            for begin, end in zip(starts, [*starts[1:], need.shape[0]])
            for lo in range(begin, end, per_batch)
        ]

    @property
    def multinomial_seconds(self) -> float:
        """CPU seconds spent drawing the resamples (for benchmarks)."""
        return self._resamples.multinomial_seconds

    def _evaluate_stale(self, seeds: np.ndarray, wanted: np.ndarray) -> None:
        """Bring the cached replicate values of the ``wanted`` instances (seeds, n_instances) of ``seeds`` up to date.
        An instance's value on the replicates depends only on the replicate columns it reads (all revealed when it
        is wanted: :class:`LazyResamples`) and on the sizes of the arms it reads (a resample keeps each table's
        size), and a used instance's arms are redrawn whenever their data grew, while a refinement leaves revealed
        columns as they were; so only an instance that reads an arm redrawn since its last evaluation is computed
        again: the catalogue entries of a seed's stale instances, for a batch of seeds needing the same entries
        (:meth:`InstanceEstimators.values_of`, batch last; a value never depends on the other seeds of its batch),
        of which the stale instances are kept (the others may read columns not revealed)."""
        redrawn = np.where(self.est.uses[None], self._redrawn_at[seeds][:, None, :], 0).max(axis=-1)  # (seeds, I)
        stale = wanted & (redrawn > self._evaluated_at[seeds])
        need = np.zeros((seeds.size, len(self.est.entries)), dtype=bool)  # the entries of each seed's stale instances
        rows, ids = np.nonzero(stale)
        need[rows, self._entry_of[ids]] = True
        replicates = self._resamples.replicates
        for batch in self._batches(need):
            entries = tuple(np.flatnonzero(need[batch[0]]).tolist())
            if not entries:
                continue
            at = seeds[batch]
            # (L, b, B); one seed's block is read in place (a copy of every leaf row costs more than most refreshes)
            leaves = replicates[at[0]][:, None] if at.size == 1 else replicates[at].transpose(1, 0, 2)
            computed, values = self.est.values_of(leaves, self.n[at].T[:, :, None], entries)  # (computed, b, B)
            position = np.empty(self.est.n_instances, dtype=np.int64)
            position[computed] = np.arange(computed.size)
            rows, ids = np.nonzero(stale[batch])
            self._rep_values[at[rows], ids] = values[position[ids], rows]
            self._evaluated_at[at[rows], ids] = self._clock


class Z2Policy:
    """What z²-TS and z²-KL-UCB share: count tables fed from ``feedback.values`` and the
    per-arm (successes, pulls) of the base algorithm.

    ``variables``: the names of the columns of ``feedback.values`` (the environment's order); ``settings``: POMIS+'s
    (:class:`~causal_bandits.bandits.z2_settings.Z2Settings`, its defaults where None).
    """

    def __init__(self, estimators: InstanceEstimators, variables: Sequence[str], settings: Z2Settings | None = None):
        layout = estimators.layout
        missing = sorted(set(layout.variables) - set(variables))
        if missing:
            raise ValueError(f"feedback.values lacks the variables {missing}; the z² solvers need every variable")
        self._columns = [list(variables).index(v) for v in layout.variables]
        self.settings = settings or Z2Settings()
        self.estimates = Z2Estimates(estimators, self.settings)

    @classmethod
    def from_catalogue(cls, catalogue: Mapping[str, Any], variables: Sequence[str], settings: Z2Settings | None = None):
        """The solver for a catalogue document (:meth:`InstanceEstimators.to_json`)."""
        settings = settings or Z2Settings()
        return cls(InstanceEstimators.from_json(catalogue, settings.n_min), variables, settings)

    def _reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        if n_arms != self.estimates.n_arms:
            raise ValueError(f"{n_arms} arms, but the catalogue was compiled for {self.estimates.n_arms} POMIS arms")
        self.estimates.reset(n_seeds, stream("bootstrap"))
        self._rows = np.arange(n_seeds)
        self._pulls = np.zeros((n_seeds, n_arms))
        self._wins = np.zeros((n_seeds, n_arms))

    def update(self, feedback) -> None:
        arms, rewards = feedback.arms, feedback.rewards
        self._pulls[self._rows, arms] += 1
        self._wins[self._rows, arms] += rewards
        cells = self.estimates.est.layout.cell_of(np.asarray(feedback.values)[:, self._columns])
        self.estimates.add(arms, cells)

    @property
    def n_active(self) -> np.ndarray:
        """Usable non-trivial estimators per (seed, arm) at the last selection."""
        return self.estimates.n_active
