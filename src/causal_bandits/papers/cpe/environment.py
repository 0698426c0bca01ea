"""The cpe environment: one round = one action played on the SCM, every observed variable reported.

Ancestral sampling in topological order over every node, hidden ones included (docs/papers/cpe.md#cpe-environment): node
V takes u_V < P(V = 1 | pa(V)) with u_V its uniform of the round, an intervened node its set value.
The round's uniforms (one per node, in declared node order) come from the environment stream
before the action is known, so every algorithm of an experiment meets the same exogenous noise
(common random numbers). Nodes are drawn depth by depth (roots first). A node with at most
``TABLE_PARENTS`` parents that matter (non-zero weight or damping) is drawn from a table of P(V = 1) over them
(E2 r16's Y, the largest: 17 parents, 131,072 entries, 1 MiB); a node with more from its mechanism, a ``max``
mechanism (E5's Y, 32 parents) in a compiled pass of its own (:func:`_draw_max`: the same products, their maximum,
which no order changes, and the same affine map and clip). E1's Y has 64 parents of which one matters: a table of
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

TABLE_PARENTS = 17


@numba.njit(cache=True)
def _draw_nodes(x, noise, arms, is_set, set_value, columns, uniforms, parents, widths, weights, offsets, table):
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
                for j in range(widths[i]):
                    k += x[r, parents[i, j]] * weights[i, j]
                x[r, c] = 1 if noise[r, uniforms[i]] < table[offsets[i] + k] else 0


@numba.njit(cache=True)
def _draw_max(x, noise, arms, is_set, set_value, column, uniform, parents, weights, intercept, scale):
    """Draw ``column`` of ``x`` (seeds, nodes), each seed's row by itself: its set value where the seed's arm intervenes
    on the node, else ``noise[row, uniform] < clip(intercept + scale * max(0, max_j parents_j * weights_j), 0, 1)``
    (:meth:`causal_bandits.papers.cpe.scm.Mechanism.probability` of a ``max`` mechanism, operation for operation)."""
    for r in range(x.shape[0]):
        arm = arms[r]
        if is_set[arm, column]:
            x[r, column] = set_value[arm, column]
            continue
        top = 0.0
        for j in range(parents.shape[0]):
            value = x[r, parents[j]] * weights[j]
            if value > top:
                top = value
        p = min(max(intercept + scale * top, 0.0), 1.0)
        x[r, column] = 1 if noise[r, uniform] < p else 0


class _MaxNode:
    """A node with a ``max`` mechanism over more parents than a table holds, drawn in one compiled pass."""

    def __init__(self, column: int, mech: Mechanism, parent_columns: np.ndarray, uniforms: np.ndarray):
        self.column, self.uniform = column, int(uniforms[column])
        self.parents = np.ascontiguousarray(parent_columns[mech.effective])
        self.weights = np.asarray(mech.weights, dtype=float)[mech.effective]
        self.intercept, self.scale = float(mech.intercept), float(mech.scale)

    def draw(self, x: np.ndarray, noise: np.ndarray, arms: np.ndarray, is_set: np.ndarray, value: np.ndarray) -> None:
        _draw_max(
            x,
            noise,
            arms,
            is_set,
            value,
            self.column,
            self.uniform,
            self.parents,
            self.weights,
            self.intercept,
            self.scale,
        )


class _TableNodes:
    """Nodes drawn in one compiled pass, in topological order, each from its table of P(V = 1) over the parents
    that matter (a root's table is its one probability)."""

    def __init__(self, nodes: list[tuple[int, Mechanism, list[int]]], uniforms: np.ndarray):
        self.columns = np.array([c for c, _, _ in nodes], dtype=np.int64)
        self.uniforms = uniforms[self.columns]
        width = max(len(m.effective) for _, m, _ in nodes)
        self.parents = np.zeros((len(nodes), max(width, 1)), dtype=np.int64)
        self.widths = np.array([len(m.effective) if ps else 0 for _, m, ps in nodes], dtype=np.int64)
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
        self._tables = (self.columns, self.uniforms, self.parents, self.widths, self.weights, self.offsets, self.table)

    def draw(self, x: np.ndarray, noise: np.ndarray, arms: np.ndarray, is_set: np.ndarray, value: np.ndarray) -> None:
        """Fill these nodes' columns of ``x`` for seeds playing ``arms`` (``is_set``, ``value``: each arm's
        interventions, arms × nodes)."""
        _draw_nodes(x, noise, arms, is_set, value, *self._tables)


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
        self._steps: list[_TableNodes | _MaxNode | tuple[int, Mechanism, np.ndarray]] = []
        run: list[tuple[int, Mechanism, list[int]]] = []
        for d in range(max(depth.values()) + 1):
            layer = [(col[v], scm.mechanisms[v], [col[p] for p in scm.parents(v)]) for v in order if depth[v] == d]
            run += [node for node in layer if len(node[1].effective) <= TABLE_PARENTS]
            large = [(c, m, np.asarray(ps, dtype=np.int64)) for c, m, ps in layer if len(m.effective) > TABLE_PARENTS]
            if large and run:
                self._steps.append(_TableNodes(run, self._uniform))
                run = []
            self._steps.extend(
                _MaxNode(c, m, ps, self._uniform) if m.kind == "max" else (c, m, ps) for c, m, ps in large
            )
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
        """(rewards (n,), observed values (n, |X|)) for each seed's arm, given its uniforms (n, |nodes|); each row
        is drawn by itself."""
        arms = np.asarray(arms, dtype=np.int64)
        x = np.empty((len(arms), len(self._uniform)), dtype=np.int64)
        for step in self._steps:
            if isinstance(step, (_TableNodes, _MaxNode)):
                step.draw(x, noise, arms, self._set, self._value)
            else:
                c, mech, parents = step
                drawn = noise[:, self._uniform[c]] < mech.probability(x[:, parents])
                x[:, c] = np.where(self._set[arms, c], self._value[arms, c], drawn)
        return x[:, self._reward].astype(np.float64), x[:, self._observed]

    def pull_block(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        length: int,
        noise: np.ndarray,
        observe: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``length`` rounds of each seed's arm (the engine's ``BlockEnvironment``): rewards (n, L) and observed
        values (n, L, |X|), row by row what :meth:`pull` gives each round."""
        n = len(arms)
        rewards, values = self.pull(t, None, np.repeat(arms, length), noise.reshape(n * length, -1))
        return rewards.reshape(n, length), values.reshape(n, length, -1)
