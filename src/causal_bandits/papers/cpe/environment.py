"""The cpe environment: one round = one action played on the SCM, every observed variable reported.

Ancestral sampling in topological order over every node, hidden ones included (docs/papers/cpe.md#cpe-environment): node
V takes u_V < P(V = 1 | pa(V)) with u_V its uniform of the round, an intervened node its set value.
The round's uniforms (one per node, in declared node order) come from the environment stream
before the action is known, so every algorithm of an experiment meets the same exogenous noise
(common random numbers). Nodes are drawn depth by depth (roots first), all nodes of a depth in one
step from tables of P(V = 1) over the parents that matter (non-zero weight), or, for a node with
more than ``TABLE_PARENTS`` such parents (E5's Y), from its mechanism. E1's Y has 64 parents of
which one matters: a table of two entries.

``pull`` returns the reward Y (0/1 as float64) and the values of the observed variables X
(int64, columns in declared order: the value columns of the policies), because CCPE learns from
all of them. ``means`` are the instance's exact means, one row (no contexts).
"""

from __future__ import annotations

import numpy as np

from causal_bandits.bandits.environments import ContextFree
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.scm import Mechanism
from causal_bandits.scm.cpt import configurations

TABLE_PARENTS = 16


class _Layer:
    """Non-root nodes of one depth: drawn together from lookup tables over their effective parents."""

    def __init__(self, nodes: list[tuple[int, Mechanism, list[int]]]):
        self.columns = np.array([c for c, _, _ in nodes], dtype=np.int64)
        width = max(len(m.effective) for _, m, _ in nodes)
        self.parents = np.zeros((len(nodes), max(width, 1)), dtype=np.int64)
        self.weights = np.zeros_like(self.parents)
        tables = []
        for i, (_, mech, parent_columns) in enumerate(nodes):
            eff = mech.effective
            pa = np.zeros((2 ** len(eff), len(parent_columns)), dtype=np.int64)
            pa[:, eff] = configurations(len(eff))
            tables.append(mech.probability(pa))
            self.parents[i, : len(eff)] = np.asarray(parent_columns, dtype=np.int64)[eff]
            self.weights[i, : len(eff)] = 1 << np.arange(len(eff))[::-1]
        self.offsets = np.cumsum([0] + [t.size for t in tables])[:-1]
        self.table = np.concatenate(tables)

    def probability(self, x: np.ndarray) -> np.ndarray:
        """P(V = 1) of every node of the layer, (rows, nodes)."""
        return self.table[self.offsets + (x[:, self.parents] * self.weights).sum(axis=2)]


class CPEEnvironment(ContextFree):
    """The engine's Environment for a :class:`CPEInstance`."""

    def __init__(self, instance: CPEInstance):
        scm = instance.scm
        self.instance = instance
        self.n_arms = instance.n_arms
        self.means = np.asarray(instance.mu, dtype=float)[None, :]
        self.noise_width = len(scm.nodes)
        order = list(scm.order)
        self._col = {v: i for i, v in enumerate(order)}  # columns of the internal value rows
        self._uniform = np.array([scm.nodes.index(v) for v in order])  # uniform of each internal column
        self._roots = np.array([self._col[v] for v in order if not scm.parents(v)], dtype=np.int64)
        self._root_p = np.array([scm.mechanisms[v].intercept for v in order if not scm.parents(v)])
        depth: dict[str, int] = {}
        for v in order:
            depth[v] = 1 + max((depth[p] for p in scm.parents(v)), default=-1)
        self._steps: list[_Layer | tuple[int, Mechanism, np.ndarray]] = []
        for d in range(1, max(depth.values()) + 1):
            layer = [
                (self._col[v], scm.mechanisms[v], [self._col[p] for p in scm.parents(v)])
                for v in order
                if depth[v] == d
            ]
            small = [node for node in layer if len(node[1].effective) <= TABLE_PARENTS]
            if small:
                self._steps.append(_Layer(small))
            self._steps.extend(
                (c, m, np.asarray(ps, dtype=np.int64)) for c, m, ps in layer if len(m.effective) > TABLE_PARENTS
            )
        self._observed = np.array([self._col[v] for v in scm.observed], dtype=np.int64)
        self._reward = self._col[scm.reward]
        self._set = np.zeros((self.n_arms, len(order)), dtype=bool)
        self._value = np.zeros((self.n_arms, len(order)), dtype=np.int64)
        for a, action in enumerate(instance.actions):
            for v, x in action.assignment:
                self._set[a, self._col[v]] = True
                self._value[a, self._col[v]] = x

    def pull(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        noise: np.ndarray,
        observe: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rewards (n,), observed values (n, |X|)) for each seed's arm, given its uniforms (n, |nodes|)."""
        u = noise[:, self._uniform]
        fixed, value = self._set[arms], self._value[arms]
        x = np.empty(u.shape, dtype=np.int64)
        x[:, self._roots] = u[:, self._roots] < self._root_p
        x[:, self._roots] = np.where(fixed[:, self._roots], value[:, self._roots], x[:, self._roots])
        col: np.ndarray | int  # a layer's columns, or one node's
        for step in self._steps:
            if isinstance(step, _Layer):
                col, p = step.columns, step.probability(x)
            else:
                col, mech, parents = step
                p = mech.probability(x[:, parents])
            x[:, col] = np.where(fixed[:, col], value[:, col], u[:, col] < p)
        return x[:, self._reward].astype(np.float64), x[:, self._observed]
