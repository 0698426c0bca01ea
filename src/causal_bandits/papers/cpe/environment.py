"""The cpe environment: one round = one action played on the SCM, every observed variable reported.

Ancestral sampling in topological order over every node, hidden ones included (docs/papers/cpe.md#cpe-environment): node
V takes u_V < P(V = 1 | pa(V)) with u_V its uniform of the round, an intervened node its set value.
The round's uniforms (one per node, in declared node order) come from the environment stream
before the action is known, so every algorithm of an experiment meets the same exogenous noise
(common random numbers). Nodes are drawn depth by depth (roots first), row by row in one compiled pass
(:class:`~causal_bandits.bandits.node_program.NodeProgram`): a node with at most ``TABLE_PARENTS`` parents that matter
(non-zero weight or damping) from a table of P(V = 1) over them (E2 r16's Y, the largest: 17 parents, 131,072
entries, 1 MiB), a ``max`` mechanism over more (E5's Y, 32 parents) from its weights: the same products, their
maximum, which no order changes, and the same affine map and clip as the mechanism's arithmetic. E1's Y has 64 parents
of which one matters: a table of two entries. A node of another kind with more parents (none in the designed
experiments) is drawn from its mechanism between two passes. A round at 100 seeds was about a dozen whole-array numpy
operations per depth, each costing more in dispatch than in arithmetic; the pass compares the same uniforms with the
same table entries, so it draws the same values as the array code. When one pass draws a whole row
(:meth:`CPEEnvironment.node_program`), LUCB and successive elimination play windows of rounds with it themselves.

``pull`` returns the reward Y (0/1 as float64) and the values of the observed variables X
(int64, columns in declared order: the value columns of the policies), because CCPE learns from
all of them. ``means`` are the instance's exact means, one row (no contexts).
"""

from __future__ import annotations

from typing import cast

import numpy as np

from causal_bandits.bandits.environments import ContextFree
from causal_bandits.bandits.node_program import Node, NodeProgram
from causal_bandits.papers.cpe.instance import CPEInstance
from causal_bandits.papers.cpe.scm import Mechanism
from causal_bandits.scm.cpt import configurations

TABLE_PARENTS = 17


def _program_node(column: int, mech: Mechanism, parent_columns: list[int], uniform: int) -> Node:
    """A node drawn by the compiled pass: from its table of P(V = 1) over the parents that matter (a root's table is
    its one probability), or, for a ``max`` mechanism over more parents than a table holds, from its weights."""
    eff = mech.effective
    parents = np.asarray(parent_columns, dtype=np.int64)[eff] if parent_columns else np.zeros(0, dtype=np.int64)
    if mech.kind == "max" and len(eff) > TABLE_PARENTS:
        weights = np.asarray(mech.weights, dtype=float)[eff]
        return Node(column, uniform, parents, weights=weights, intercept=float(mech.intercept), scale=float(mech.scale))
    if not parent_columns:
        return Node(column, uniform, parents, table=np.array([mech.intercept], dtype=float))
    pa = np.zeros((2 ** len(eff), len(parent_columns)), dtype=np.int64)
    pa[:, eff] = configurations(len(eff))
    return Node(column, uniform, parents, table=mech.probability(pa))


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
        is_set = np.zeros((self.n_arms, len(order)), dtype=np.bool_)
        set_value = np.zeros((self.n_arms, len(order)), dtype=np.int64)
        for a, action in enumerate(instance.actions):
            for v, x in action.assignment:
                is_set[a, col[v]] = True
                set_value[a, col[v]] = x
        self._set, self._value = is_set, set_value
        # Passes of compiled nodes in depth order, broken by the nodes drawn from their mechanism (more parents than a
        # table holds, not a max: none in the designed experiments), which come after their own depth's other nodes.
        self._steps: list[NodeProgram | tuple[int, Mechanism, np.ndarray]] = []
        run: list[Node] = []
        for d in range(max(depth.values()) + 1):
            layer = [(col[v], scm.mechanisms[v], [col[p] for p in scm.parents(v)]) for v in order if depth[v] == d]
            tables = [node for node in layer if len(node[1].effective) <= TABLE_PARENTS]
            wide = [node for node in layer if len(node[1].effective) > TABLE_PARENTS]
            run += [_program_node(c, m, ps, int(self._uniform[c])) for c, m, ps in tables]
            run += [_program_node(c, m, ps, int(self._uniform[c])) for c, m, ps in wide if m.kind == "max"]
            large = [(c, m, np.asarray(ps, dtype=np.int64)) for c, m, ps in wide if m.kind != "max"]
            if large and run:
                self._steps.append(NodeProgram(run, is_set, set_value))
                run = []
            self._steps.extend(large)
        if run:
            self._steps.append(NodeProgram(run, is_set, set_value))
        self._observed = np.array([col[v] for v in scm.observed], dtype=np.int64)
        self._reward = col[scm.reward]
        # A window's rounds need the reward alone: the nodes it depends on through parents that matter.
        # (the reward's pass, the whole row's pass) when one pass draws a row
        self._programs: tuple[NodeProgram, NodeProgram] | None = None
        if len(self._steps) == 1 and run:  # one pass, no node drawn from its mechanism
            needed = {self._reward}
            for node in reversed(run):
                if node.column in needed:
                    needed.update(int(p) for p in node.parents)
            reward_pass = NodeProgram([node for node in run if node.column in needed], is_set, set_value)
            self._programs = reward_pass, cast(NodeProgram, self._steps[0])

    def node_program(self, observed: bool = False) -> tuple[NodeProgram, int, int, np.ndarray | None] | None:
        """(a compiled pass that draws the reward and the nodes it depends on, the reward's column, the columns of a
        row, None) when one pass draws a whole row (the engine's ``ProgramEnvironment``: then a window policy draws its
        rounds itself; a node's value depends on its ancestors' uniforms alone, so the reward is the one a whole row's
        pass draws), else None. With ``observed``, the pass that draws every node, and last the columns of the observed
        variables (a policy that learns from them: the parallel bandit)."""
        if self._programs is None:
            return None
        if observed:
            return self._programs[1], self._reward, len(self._uniform), self._observed
        return self._programs[0], self._reward, len(self._uniform), None

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
            if isinstance(step, NodeProgram):
                step.draw(x, noise, arms)
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
