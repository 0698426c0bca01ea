"""CN-UCB (Lu, Meisami & Tewari 2021): Alg. 1 (causal trees), Alg. 5 (causal forests), Alg. 2 (general
graphs), as one policy vectorised over seeds.

Stages 0-2 are the discovery generators of :mod:`causal_bandits.cn_ucb_discovery.stages`, one per
seed: each asks for Intervene(a, B) — B consecutive rounds of the same arm — and reads back the mean
reward and the empirical laws of the variables it observes. Stage 3 is UCB1
(:class:`causal_bandits.bandits.ucb1.ArmLists`) on the arms of the answer (do(X_hat = k), or every
do(X = k) with X in C0), started fresh when a seed's discovery ends
(docs/papers/unknown_graph.md#unknown_graph-a11-stage3); with no answer it falls back to UCB1 on every arm
(docs/papers/unknown_graph.md#unknown_graph-run-protocol). Every round counts in the regret, discovery included.

The engine's block hooks beyond its per-round ``select`` / ``update`` (``BlockPolicy`` in
:mod:`causal_bandits.bandits.engine`: the engine serves discovery batch by batch):

* ``block(t)``: how many rounds, from t on, every seed's arm stays what ``select`` returns (> 1 only
  while every seed is inside a discovery batch: then the engine may pull them as one block);
* ``observed(t)``: (n_seeds, m) variable indices each seed needs the values of (-1 padding), or None;
* ``update_block(feedback)``: rewards (n_seeds, L) and values (n_seeds, L, m) of a block.

Seen through the per-round interface alone (hooks hidden) CN-UCB still works if the environment returns
every variable's value each round (``SCMEnvironment(observe_all=True)``); it then picks the
observed columns itself.

Seeds whose discovery has ended are served round by round; the rest keep consuming their batches
in the same rounds. The per-seed decisions at batch boundaries (central node, branches) run once
per seed per batch, O(log n) times a run; all sampling and the UCB stage are vectorised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from causal_bandits.bandits.engine import OutcomeTables
from causal_bandits.bandits.ucb1 import ArmLists
from causal_bandits.cn_ucb_discovery.intervention_batches import DiscoveryResult, Estimate, Reading, Request
from causal_bandits.cn_ucb_discovery.stages import DiscoveryInputs, cn_ucb_discovery
from causal_bandits.errors import ConfigError
from causal_bandits.rng import SeedStreams


class CNUCB:
    """CN-UCB over nK + 1 arms (do(X = x) node-major, do() last), one instance's inputs per seed."""

    window_draws = OutcomeTables  # the engine's WindowPolicy: stage 3 in windows against reward tables

    name = "CN-UCB"

    def __init__(
        self,
        inputs: Sequence[DiscoveryInputs],
        *,
        algorithm: str = "tree",
        reading: Reading = Reading(),
        c: float = 1.0,
        sigma: float = 1.0,
        fallback_arms: str = "all",
    ):
        self.inputs, self.algorithm, self.reading = list(inputs), algorithm, reading
        if fallback_arms not in ("all", "interventions"):
            raise ConfigError(f"fallback_arms = {fallback_arms!r}; use 'all' (nK + 1 arms) or 'interventions' (nK)")
        self.fallback_arms = fallback_arms
        self._ucb = ArmLists(c, sigma)
        for inp in self.inputs:  # fail on bad input now, not at the first batch
            cn_ucb_discovery(inp, algorithm, reading)

    # ---- arms -------------------------------------------------------------------------------
    def _arm(self, s: int, request: Request) -> int:
        inp = self.inputs[s]
        if request.node < 0:
            return inp.n * len(inp.values)
        return request.node * len(inp.values) + inp.values.index(request.value)

    def _stage3_arms(self, s: int, result: DiscoveryResult) -> np.ndarray:
        inp = self.inputs[s]
        k = len(inp.values)
        if result.target is None:
            n_arms = inp.n * k + (1 if self.fallback_arms == "all" else 0)
            return np.arange(n_arms)
        return np.array(sorted(v * k + i for v in result.target for i in range(k)))

    # ---- engine interface -------------------------------------------------------------------
    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams] | None = None) -> None:
        if n_seeds != len(self.inputs):
            raise ValueError(f"CN-UCB got inputs for {len(self.inputs)} seeds, the job has {n_seeds}")
        self._ucb.reset(n_seeds)
        self.results: list[DiscoveryResult | None] = [None] * n_seeds
        self.discovery_rounds = np.zeros(n_seeds, dtype=np.int64)
        self._n_vars = self.inputs[0].n
        self._B = np.array([inp.B for inp in self.inputs], dtype=np.int64)
        self._searching = np.ones(n_seeds, dtype=bool)
        self._n_searching = n_seeds
        self._arms = np.zeros(n_seeds, dtype=np.int64)
        self._left = np.zeros(n_seeds, dtype=np.int64)
        self._rsum = np.zeros(n_seeds)
        domain = self.inputs[0].marginals.shape[1]
        self._observe = np.full((n_seeds, 0), -1, dtype=np.int64)
        self._counts = np.zeros((n_seeds, 0, domain), dtype=np.int64)
        self._search = [cn_ucb_discovery(inp, self.algorithm, self.reading) for inp in self.inputs]
        for s, search in enumerate(self._search):
            self._ask(s, next(search))

    def _ask(self, s: int, request: Request) -> None:
        m = len(request.observe)
        if m > self._observe.shape[1]:
            extra = m - self._observe.shape[1]
            self._observe = np.pad(self._observe, ((0, 0), (0, extra)), constant_values=-1)
            self._counts = np.pad(self._counts, ((0, 0), (0, extra), (0, 0)))
        self._observe[s] = -1
        self._observe[s, :m] = request.observe
        self._counts[s] = 0
        self._arms[s], self._left[s], self._rsum[s] = self._arm(s, request), self._B[s], 0.0

    def _finish_batches(self, seeds: np.ndarray) -> None:
        for s in seeds:
            B = self._B[s]
            m = int((self._observe[s] >= 0).sum())
            est = Estimate(self._rsum[s] / B, self._counts[s, :m] / B)
            try:
                self._ask(s, self._search[s].send(est))
            except StopIteration as stop:
                self.results[s] = stop.value
                self._searching[s] = False
                self._n_searching -= 1
                self._observe[s] = -1
                self.discovery_rounds[s] = B * len(stop.value.requests)
                self._ucb.start([s], [self._stage3_arms(s, stop.value)])

    @property
    def searching(self) -> np.ndarray:
        """Bool per seed: still in discovery (stages 0-2)."""
        return self._searching

    def block(self, t: int) -> int:
        return int(self._left.min()) if self._n_searching == self._searching.size else 1

    def window(self, t: int) -> int:
        """Any number of rounds once every seed is in stage 3 (the engine's ``WindowPolicy``), else 1."""
        return 1 if self._n_searching else 1 << 62

    def play_window(self, t: int, length: int, tables) -> tuple[np.ndarray, np.ndarray]:
        return self._ucb.play_window(length, tables)

    def observed(self, t: int) -> np.ndarray | None:
        return self._observe if self._n_searching and self._observe.shape[1] else None

    def select(self, t: int, contexts: np.ndarray | None = None) -> np.ndarray:
        if not self._n_searching:
            return self._ucb.select()
        if self._n_searching == self._searching.size:
            return self._arms.copy()
        return np.where(self._searching, self._arms, self._ucb.select())

    def _accumulate(self, on: np.ndarray, rewards: np.ndarray, values: np.ndarray | None) -> None:
        """Add rounds (rewards (S, L), values (S, L, m)) to the batches of the seeds in ``on``."""
        self._rsum[on] = np.cumsum(np.concatenate([self._rsum[on, None], rewards[on]], axis=1), axis=1)[:, -1]
        if values is not None and self._counts.shape[1]:
            v = values[on][:, :, : self._counts.shape[1]]
            onehot = v[..., None] == np.arange(self._counts.shape[2])
            self._counts[on] += onehot.sum(axis=1)
        self._left[on] -= rewards.shape[1]
        self._finish_batches(np.flatnonzero(on & (self._left == 0)))

    def _observed_values(self, values: np.ndarray | None) -> np.ndarray | None:
        """The observed columns, (S, ..., m): ``values`` holds them already (the engine passes
        ``observed`` to the environment), or holds every variable (``observe_all``) and is gathered here."""
        if values is None or values.shape[-1] != self._n_vars:
            return values
        cols = np.maximum(self._observe, 0)
        picked = np.take_along_axis(values, cols if values.ndim == 2 else cols[:, None, :], axis=-1)
        return np.where(self._observe >= 0 if values.ndim == 2 else (self._observe >= 0)[:, None, :], picked, -1)

    def update(self, feedback) -> None:
        if not self._n_searching:
            self._ucb.update(feedback.rewards)
            return
        searching = self._searching.copy()
        if (~searching).any():
            self._ucb.update(feedback.rewards, ~searching)
        values = self._observed_values(feedback.values)
        self._accumulate(searching, feedback.rewards[:, None], None if values is None else values[:, None, :])

    def update_block(self, feedback) -> None:
        self._accumulate(self._searching.copy(), feedback.rewards, self._observed_values(feedback.values))
