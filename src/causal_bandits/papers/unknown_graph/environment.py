"""The bandit environment of the unknown_graph paper: one SCM per seed, vectorised over seeds.

Every (cell, seed) has its own instance (X_R and, for path_power, the orientation are random;
docs/papers/unknown_graph.md#unknown_graph-documents), so the environment holds one :class:`Instance` per seed of the
job, all with the same n, domain and action values (the same arms). ``means`` has one row per seed and ``contexts``
returns each seed's row index, so a recorder computes each seed's regret against its own instance.

Noise: the engine's per-round uniforms (``noise_width = 2``, stream "environment") drive the reward
R = f(X_R) + sigma * Phi^{-1}(u_1). When a seed needs no variable values, X_R is drawn from its
exact interventional law P(X_R | a) with u_0. When it asks for values (``observe``: variable
indices per seed, -1 padding), the ancestral closure of the observed variables and X_R is sampled
in topological order under the intervention, with uniforms from the seed's own stream
"environment/values" (B x |closure| per batch; opened by ``reset``); X_R's value then comes from that joint sample.
Which path a seed takes depends only on that seed's request, so results do not depend on which
other seeds share the job, nor on whether rounds are served one at a time or as a block.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import ndtri

from causal_bandits.bandits.engine import Streams
from causal_bandits.errors import ConfigError
from causal_bandits.papers.unknown_graph.instance import Instance

_TINY = 2.0**-60  # keeps Phi^{-1}(u) finite for u = 0


class SCMEnvironment:
    """Per-seed SCM instances behind the engine's Environment interface (plus ``pull_block``)."""

    noise_width = 2

    def __init__(self, instances: Sequence[Instance], *, observe_all: bool = False):
        """``observe_all``: every pull without an explicit ``observe`` returns every variable's value
        (the one engine's contract; costs one sampling step per variable per round)."""
        if not instances:
            raise ConfigError("give one instance per seed")
        self.observe_all = observe_all
        first = instances[0]
        for inst in instances:
            if (inst.n, inst.domain, inst.action_values) != (first.n, first.domain, first.action_values):
                raise ConfigError(
                    f"{inst.instance_id}: every seed's instance needs the same n, K and action values "
                    f"as {first.instance_id} (one arm set per job)"
                )
        self.instances = list(instances)
        S, n, D = len(instances), first.n, first.domain
        self.n_seeds, self.n_vars, self.domain = S, n, D
        self.n_values, self.action_values = first.n_values, np.array(first.action_values)
        self.means = np.array([inst.arm_means for inst in instances])
        self.n_arms = self.means.shape[1]
        self._rows = np.arange(S)
        self._law_cdf = np.cumsum(np.array([inst.reward_laws for inst in instances]), axis=2)[:, :, :-1]
        self._f = np.array([np.asarray(inst.f, dtype=float) for inst in instances])
        self._sigma = np.array([inst.sigma for inst in instances])
        self._law_cdf_flat = self._law_cdf.reshape(S * self.n_arms, D - 1)  # per-round fast path
        self._f_flat, self._arm_offsets, self._domain_offsets = (
            self._f.ravel(),
            self._rows * self.n_arms,
            self._rows * D,
        )
        self._xr = np.array([inst.reward_node for inst in instances])
        pmax = max(1, max(len(p) for inst in instances for p in inst.parents))
        self._parents = np.zeros((S, n, pmax), dtype=np.int64)
        self._radix = np.zeros((S, n, pmax), dtype=np.int64)
        self._has_parents = np.zeros((S, n, pmax), dtype=bool)
        self._cdf = np.ones((S, n, D**pmax, D))
        self._rank = np.empty((S, n), dtype=np.int64)
        for s, inst in enumerate(instances):
            self._rank[s, list(inst.topological_order)] = np.arange(n)
            for k in {len(pa) for pa in inst.parents}:  # the nodes with k parents at once
                nodes = [v for v, pa in enumerate(inst.parents) if len(pa) == k]
                if k:
                    self._parents[s, nodes, :k] = [inst.parents[v] for v in nodes]
                    self._has_parents[s, nodes, :k] = True
                    self._radix[s, nodes, :k] = D ** np.arange(k - 1, -1, -1)
                self._cdf[s, nodes, : D**k] = np.cumsum([inst.cpts[v] for v in nodes], axis=2)
        self._all_vars = np.broadcast_to(np.arange(n), (S, n))

    def reset(self, streams: Streams, horizon: int) -> None:
        if streams.seeds.size != self.n_seeds:
            raise ConfigError(f"{self.n_seeds} instances for {streams.seeds.size} seeds; give one per seed")
        self._values = streams.uniforms("environment/values")

    def contexts(self, t: int, noise: np.ndarray | None = None, rows: np.ndarray | None = None) -> np.ndarray:
        """Each seed's own instance: context id = the seed's row in the job."""
        return self._rows if rows is None else rows

    def _interventions(self, arms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        obs = arms == self.n_arms - 1
        node = np.where(obs, -1, arms // self.n_values)
        value = np.where(obs, -1, self.action_values[arms % self.n_values])
        return node, value

    def pull(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        noise: np.ndarray,
        observe: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """One round: rewards (n_seeds,) and, when ``observe`` is given, values (n_seeds, m) (with
        ``observe_all`` and no ``observe``: every variable, (n_seeds, n))."""
        if observe is None and self.observe_all:
            observe = self._all_vars
        if observe is None or (observe < 0).all():
            cdf = self._law_cdf_flat[self._arm_offsets + arms]
            x = (noise[:, :1] >= cdf).sum(axis=1) if self.domain > 2 else (noise[:, 0] >= cdf[:, 0])
            return self._f_flat[self._domain_offsets + x] + self._sigma * ndtri(np.maximum(noise[:, 1], _TINY)), None
        rewards, values = self.pull_block(t, contexts, arms, 1, noise[:, None, :], observe)
        assert values is not None  # pull_block observes: observe asks for at least one variable
        return rewards[:, 0], values[:, 0]

    def pull_block(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        length: int,
        noise: np.ndarray,
        observe: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """``length`` rounds of the same arm per seed: rewards (S, L), values (S, L, m) or None."""
        rewards = self._fast(arms[:, None], noise)
        if observe is None or (observe < 0).all():
            return rewards, None
        sampled = (observe >= 0).any(axis=1)
        values = np.full((self.n_seeds, length, observe.shape[1]), -1, dtype=np.int64)
        idx = np.flatnonzero(sampled)
        r, v = self._ancestral(idx, arms[idx], length, noise[idx], observe[idx])
        rewards[idx], values[idx] = r, v
        return rewards, values

    def outcome_law(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The engine's window tables (:class:`~causal_bandits.bandits.engine.OutcomeTables`): X_R's law given each
        seed's arm (cdf) and f(X_R) (value); None with ``observe_all`` (every pull returns values)."""
        return None if self.observe_all else (np.ascontiguousarray(self._law_cdf), self._f)

    def outcome_noise(self, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The uniform that draws X_R and the Gaussian noise sigma * Phi^{-1}(u_1) of rounds reading ``noise``."""
        return np.ascontiguousarray(noise[:, :, 0]), self._sigma[:, None] * ndtri(np.maximum(noise[:, :, 1], _TINY))

    def _fast(self, arms: np.ndarray, noise: np.ndarray) -> np.ndarray:
        """R with X_R drawn from its exact law given the arm: arms (S, 1), noise (S, L, 2)."""
        rows = self._rows[:, None]
        x = (noise[:, :, 0, None] >= self._law_cdf[rows, arms]).sum(axis=2)
        return self._f[rows, x] + self._sigma[:, None] * ndtri(np.maximum(noise[:, :, 1], _TINY))

    def _ancestral(
        self, seeds: np.ndarray, arms: np.ndarray, L: int, noise: np.ndarray, observe: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Joint sample of the observed variables and X_R under each seed's intervention."""
        S, n = seeds.size, self.n_vars
        rows = np.arange(S)
        do_node, do_value = self._interventions(arms)
        parents, has = self._parents[seeds], self._has_parents[seeds].copy()
        has[do_node >= 0, do_node[do_node >= 0]] = False  # the intervened node loses its parents
        needed = np.zeros((S, n), dtype=bool)
        needed[rows[:, None].repeat(observe.shape[1], 1)[observe >= 0], observe[observe >= 0]] = True
        needed[rows, self._xr[seeds]] = True
        while True:  # ancestral closure
            grow = needed[:, :, None] & has
            s_idx, v_idx, j_idx = np.nonzero(grow)
            new = needed.copy()
            new[s_idx, parents[s_idx, v_idx, j_idx]] = True
            if (new == needed).all():
                break
            needed = new
        rank = self._rank[seeds]
        order = np.argsort(np.where(needed, rank, n + rank), axis=1, kind="stable")
        count = needed.sum(axis=1)
        width = int(count.max())
        nodes = order[:, :width]
        pos = np.full((S, n), -1, dtype=np.int64)
        pos[rows[:, None], nodes] = np.arange(width)
        slot = np.arange(width)[None, :] < count[:, None]
        u = np.zeros((S, L, width))
        u[np.broadcast_to(slot[:, None, :], u.shape)] = self._values_take(seeds, L * count)
        vals = np.zeros((S, L, width), dtype=np.int64)
        cdf_all, radix = self._cdf[seeds], self._radix[seeds]
        for i in range(width):
            node = nodes[:, i]
            ppos = np.maximum(pos[rows[:, None], parents[rows, node]], 0)
            pv = np.take_along_axis(vals, np.broadcast_to(ppos[:, None, :], (S, L, ppos.shape[1])), axis=2)
            row = (pv * radix[rows, node][:, None, :]).sum(axis=2)
            cdf = cdf_all[rows[:, None], node[:, None], row][:, :, :-1]
            x = (u[:, :, i, None] >= cdf).sum(axis=2)
            vals[:, :, i] = np.where((node == do_node)[:, None], do_value[:, None], x)
        xr = vals[rows, :, pos[rows, self._xr[seeds]]]
        rewards = self._f[seeds[:, None], xr] + self._sigma[seeds, None] * ndtri(np.maximum(noise[:, :, 1], _TINY))
        opos = np.where(observe >= 0, pos[rows[:, None], np.maximum(observe, 0)], 0)
        out = np.take_along_axis(vals, np.broadcast_to(opos[:, None, :], (S, L, opos.shape[1])), axis=2)
        return rewards, np.where((observe >= 0)[:, None, :], out, -1)

    def _values_take(self, seeds: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Uniforms from the "environment/values" streams of the given seeds (others take none)."""
        full = np.zeros(self.n_seeds, dtype=np.int64)
        full[seeds] = counts
        return self._values.take(full)
