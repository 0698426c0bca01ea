"""The cpe environment: one round = one action played on the SCM, every observed variable reported.

Ancestral sampling in topological order over every node, hidden ones included (docs/papers/cpe.md#cpe-environment): node
V takes u_V < P(V = 1 | pa(V)) with u_V its uniform of the round, an intervened node its set value.
The round's uniforms (one per node, in declared node order) come from the environment stream
before the action is known, so every algorithm of an experiment meets the same exogenous noise
(common random numbers). Nodes are drawn depth by depth (roots first). A node with at most
``TABLE_PARENTS`` parents that matter (non-zero weight) is drawn from a table of P(V = 1) over them; a
node with more (E5's Y) from its mechanism. E1's Y has 64 parents of which one matters: a table of
two entries.

The table nodes between two mechanism nodes are drawn in one compiled pass (:func:`_draw_nodes`, numba,
cached on disk beside this module), seed by seed and node by node: a round at 100 seeds was about a
dozen whole-array numpy operations per depth, each costing more in dispatch than in arithmetic. The pass
compares the same uniforms with the same table entries, so it draws the same values as the array code.

``pull`` returns the reward Y (0/1 as float64) and the values of the observed variables X
(int64, columns in declared order: the value columns of the policies), because CCPE learns from
all of them. ``means`` are the instance's exact means, one row (no contexts).
"""

from __future__ import annotations

import numba
import numpy as np

from causal_bandits.bandits.environments import ContextFree
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.scm import Mechanism
from causal_bandits.scm.cpt import configurations

TABLE_PARENTS = 16


@numba.njit(cache=True)
def _draw_nodes(x, noise, arms, is_set, set_value, columns, uniforms, parents, weights, offsets, table):
    """Draw ``columns`` of ``x`` (seeds, nodes) in order, each seed's row by itself: its set value where the seed's arm
    intervenes on the node, else ``noise[row, uniform] < table[offset + index of the parents' values]``."""
    for r in range(x.shape[0]):
        arm = arms[r]
        for i in range(columns.shape[0]):
            c = columns[i]
            if is_set[arm, c]:
                x[r, c] = set_value[arm, c]
            else:
                k = 0
                for j in range(parents.shape[1]):
                    k += x[r, parents[i, j]] * weights[i, j]
                x[r, c] = 1 if noise[r, uniforms[i]] < table[offsets[i] + k] else 0


class _TableNodes:
    """Nodes drawn in one compiled pass, in topological order, each from its table of P(V = 1) over the parents
    that matter (a root's table is its one probability)."""

    def __init__(self, nodes: list[tuple[int, Mechanism, list[int]]], uniforms: np.ndarray):
        self.columns = np.array([c for c, _, _ in nodes], dtype=np.int64)
        self.uniforms = uniforms[self.columns]
        width = max(len(m.effective) for _, m, _ in nodes)
        self.parents = np.zeros((len(nodes), max(width, 1)), dtype=np.int64)
        self.weights = np.zeros_like(self.parents)
        tables = []
        for i, (_, mech, parent_columns) in enumerate(nodes):
            if not parent_columns:
                tables.append(np.array([mech.intercept], dtype=float))
                continue
            eff = mech.effective
            pa = np.zeros((2 ** len(eff), len(parent_columns)), dtype=np.int64)
            pa[:, eff] = configurations(len(eff))
            tables.append(mech.probability(pa))
            self.parents[i, : len(eff)] = np.asarray(parent_columns, dtype=np.int64)[eff]
            self.weights[i, : len(eff)] = 1 << np.arange(len(eff))[::-1]
        self.offsets = np.cumsum([0] + [t.size for t in tables])[:-1].astype(np.int64)
        self.table = np.concatenate(tables).astype(float)

    def draw(self, x: np.ndarray, noise: np.ndarray, arms: np.ndarray, is_set: np.ndarray, value: np.ndarray) -> None:
        """Fill these nodes' columns of ``x`` for seeds playing ``arms`` (``is_set``, ``value``: each arm's
        interventions, arms × nodes)."""
        tables = (self.columns, self.uniforms, self.parents, self.weights, self.offsets, self.table)
        _draw_nodes(x, noise, arms, is_set, value, *tables)


class CPEEnvironment(ContextFree):
    """The engine's Environment for a :class:`CPEInstance`."""

    def __init__(self, instance: CPEInstance):
        scm = instance.scm
        self.instance = instance
        self.n_arms = instance.n_arms
        self.means = np.asarray(instance.mu, dtype=float)[None, :]
        self.noise_width = len(scm.nodes)
        order = list(scm.order)
        col = {v: i for i, v in enumerate(order)}  # columns of the internal value rows
        self._uniform = np.array([scm.nodes.index(v) for v in order], dtype=np.int64)  # uniform of each column
        depth: dict[str, int] = {}
        for v in order:
            depth[v] = 1 + max((depth[p] for p in scm.parents(v)), default=-1)
        # Runs of table nodes, in depth order, broken by the nodes drawn from their mechanism (which a later
        # depth may read): those come after their own depth's table nodes.
        self._steps: list[_TableNodes | tuple[int, Mechanism, np.ndarray]] = []
        run: list[tuple[int, Mechanism, list[int]]] = []
        for d in range(max(depth.values()) + 1):
            layer = [(col[v], scm.mechanisms[v], [col[p] for p in scm.parents(v)]) for v in order if depth[v] == d]
            run += [node for node in layer if len(node[1].effective) <= TABLE_PARENTS]
            large = [(c, m, np.asarray(ps, dtype=np.int64)) for c, m, ps in layer if len(m.effective) > TABLE_PARENTS]
            if large and run:
                self._steps.append(_TableNodes(run, self._uniform))
                run = []
            self._steps.extend(large)
        if run:
            self._steps.append(_TableNodes(run, self._uniform))
        self._observed = np.array([col[v] for v in scm.observed], dtype=np.int64)
        self._reward = col[scm.reward]
        self._set = np.zeros((self.n_arms, len(order)), dtype=np.bool_)
        self._value = np.zeros((self.n_arms, len(order)), dtype=np.int64)
        for a, action in enumerate(instance.actions):
            for v, x in action.assignment:
                self._set[a, col[v]] = True
                self._value[a, col[v]] = x

    def pull(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        noise: np.ndarray,
        observe: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rewards (n,), observed values (n, |X|)) for each seed's arm, given its uniforms (n, |nodes|)."""
        arms = np.asarray(arms, dtype=np.int64)
        x = np.empty((len(arms), len(self._uniform)), dtype=np.int64)
        for step in self._steps:
            if isinstance(step, _TableNodes):
                step.draw(x, noise, arms, self._set, self._value)
            else:
                c, mech, parents = step
                drawn = noise[:, self._uniform[c]] < mech.probability(x[:, parents])
                x[:, c] = np.where(self._set[arms, c], self._value[arms, c], drawn)
        return x[:, self._reward].astype(np.float64), x[:, self._observed]
