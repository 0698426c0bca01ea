"""A causal-bandit instance of Lu, Meisami & Tewari (2021) as data: a K-valued SCM plus its reward.

Every variable takes values 0..domain-1 (the paper's [K], 0-based; the lower-bound families of
Thm 4/5 have domain K+1 / K+2 and act only on ``action_values``). Each node has a conditional
probability table whose rows are the parent configurations in mixed-radix order, first parent most
significant. Exactly one node X_R drives the reward: R = f(X_R) + sigma * xi, xi ~ N(0, 1)
(docs/papers/unknown_graph.md#unknown_graph-setting, docs/papers/unknown_graph.md#unknown_graph-simulation). The arms
are every single-node intervention do(X = x), x in ``action_values`` (node-major, arm ``node * len(action_values) +
i``), plus the observational arm do() last: nK + 1 arms.

Exact queries: :meth:`Instance.marginal` eliminates the ancestral set of the target in the mutilated
graph, in topological order, keeping a joint table over the "frontier" (variables that still have a
child to add). pgmpy's ``VariableElimination`` answers the same queries (the tests check it) but
costs tens of milliseconds per query, and one path_power(128, 3) instance needs thousands of them;
this elimination, written by hand for that reason, takes microseconds per step.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np

from causal_bandits.cn_ucb_discovery.essential_graph import EssentialGraph, essential_graph
from causal_bandits.errors import CausalBanditsError, ConfigError

#: Largest joint table the exact elimination builds (entries); wider instances are refused.
MAX_FRONTIER_ENTRIES = 1 << 22
_TOL = 1e-9
#: The cached properties of :class:`Instance` that depend on the SCM alone, not on its reward node.
_SCM_PROPERTIES = (
    "dag",
    "essential",
    "children",
    "topological_order",
    "_factors",
    "_rank",
    "observational_marginals",
    "eps_true",
)


def batch_size(Delta: float, eps: float, n: int, K: int, delta: float, c_B: float = 1.0) -> int:
    """B = ceil(c_B * max{32/Delta^2 ln(8nK/delta), 2/eps^2 ln(8 n^2 K^2/delta)}) (Thm 1-3, Lemma 1).

    The ceiling and the factor c_B (1 = the paper) are our (docs/papers/unknown_graph.md#unknown_graph-ambiguities);
    logarithms are natural.
    """
    if not 0.0 < delta < 1.0:
        raise ConfigError(
            f"delta must lie in (0, 1), got {delta}; the paper's guarantees hold with probability 1 - delta"
        )
    if Delta <= 0 or eps <= 0:
        raise ConfigError(
            f"Delta and eps must be > 0 (got Delta={Delta}, eps={eps}); Assumptions 2-3 need positive gaps"
        )
    if c_B <= 0:
        raise ConfigError(f"c_B must be > 0, got {c_B}")
    reward = 32.0 / Delta**2 * math.log(8 * n * K / delta)
    effect = 2.0 / eps**2 * math.log(8 * n**2 * K**2 / delta)
    return math.ceil(c_B * max(reward, effect))


@dataclass(frozen=True, eq=False)
class Instance:
    """One SCM with its reward node; validated on construction (one-line errors)."""

    instance_id: str
    family: str
    generator: Mapping[str, Any]
    node_names: tuple[str, ...]
    parents: tuple[tuple[int, ...], ...]
    cpts: tuple[np.ndarray, ...]  # cpts[i]: (domain ** len(parents[i]), domain), rows sum to 1
    domain: int
    action_values: tuple[int, ...]
    reward_node: int
    f: np.ndarray  # (domain,) mean reward given X_R = k
    sigma: float = 1.0
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.node_names)
        if self.domain < 2:
            raise ConfigError(f"{self.instance_id}: K = {self.domain} values per variable; K must be >= 2")
        if n < 1 or len(self.parents) != n or len(self.cpts) != n:
            raise ConfigError(f"{self.instance_id}: need one parent list and one CPT per node ({n} nodes)")
        if len(set(self.node_names)) != n:
            raise ConfigError(f"{self.instance_id}: node names repeat; give every node its own name")
        if (
            not self.action_values
            or any(not 0 <= v < self.domain for v in self.action_values)
            or len(set(self.action_values)) != len(self.action_values)
        ):
            raise ConfigError(
                f"{self.instance_id}: action_values {list(self.action_values)} must be distinct "
                f"values in 0..{self.domain - 1}"
            )
        if not isinstance(self.reward_node, (int, np.integer)) or not 0 <= self.reward_node < n:
            raise ConfigError(
                f"{self.instance_id}: reward parent {self.reward_node!r} is not a node; choose an index in 0..{n - 1}"
            )
        for i, pa in enumerate(self.parents):
            if any(not 0 <= p < n or p == i for p in pa) or len(set(pa)) != len(pa):
                raise ConfigError(
                    f"{self.instance_id}: parents {list(pa)} of node {i} must be distinct other nodes in 0..{n - 1}"
                )
            table = self.cpts[i]
            if table.shape != (self.domain ** len(pa), self.domain):
                raise ConfigError(
                    f"{self.instance_id}: CPT of node {i} has shape {table.shape}; expected "
                    f"{(self.domain ** len(pa), self.domain)}"
                )
        improper = self._improper_cpts()
        if improper.size:
            raise ConfigError(f"{self.instance_id}: CPT rows of node {improper[0]} must be probabilities summing to 1")
        if not nx.is_directed_acyclic_graph(self.dag):
            cycle = [self.node_names[u] for u, _ in nx.find_cycle(self.dag)]
            raise ConfigError(
                f"{self.instance_id}: the graph has a directed cycle {' -> '.join(cycle)}; an SCM needs a DAG"
            )
        if np.shape(self.f) != (self.domain,) or self.sigma <= 0:
            raise ConfigError(f"{self.instance_id}: reward needs f with {self.domain} entries and sigma > 0")

    def _improper_cpts(self) -> np.ndarray:
        """Nodes whose CPT has an entry below -1e-9 or a row whose sum is not 1 (``np.allclose``'s default rtol,
        atol 1e-9), in order; every table checked at once, one pass over all rows (a tree of height 9 has 1,023)."""
        rows = np.concatenate([t.reshape(-1, self.domain) for t in self.cpts])
        owner = np.repeat(np.arange(len(self.cpts)), [t.size // self.domain for t in self.cpts])
        sums = rows.sum(axis=1)
        bad = (rows < -_TOL).any(axis=1) | ~np.isclose(sums, 1.0, atol=1e-9)
        return np.unique(owner[bad])

    # ---- structure --------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.node_names)

    @property
    def edges(self) -> list[tuple[int, int]]:
        return sorted((p, i) for i, pa in enumerate(self.parents) for p in pa)

    @cached_property
    def dag(self) -> nx.DiGraph:
        g = nx.DiGraph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(self.edges)
        return g

    @cached_property
    def essential(self) -> EssentialGraph:
        """E(D), the essential graph of the DAG: an input CN-UCB is given
        (docs/papers/unknown_graph.md#unknown_graph-inputs)."""
        return essential_graph(self.dag)

    @cached_property
    def children(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted(self.dag.successors(i))) for i in range(self.n))

    @cached_property
    def topological_order(self) -> tuple[int, ...]:
        return tuple(nx.lexicographical_topological_sort(self.dag))

    @cached_property
    def reward_ancestors(self) -> tuple[int, ...]:
        """An(X_R) including X_R itself (docs/papers/unknown_graph.md#unknown_graph-a9-ancestor), sorted."""
        return tuple(sorted(nx.ancestors(self.dag, self.reward_node) | {self.reward_node}))

    def with_reward_node(self, node: int) -> Instance:
        """This SCM with X_R = ``node``: equal to the instance built with that reward node, and sharing this one's
        graph, E(D), observational marginals, eps and exact queries (computed here if not yet), which the reward does
        not change (P(Y | do(X = x)) is the SCM's, docs/papers/unknown_graph.md#unknown_graph-setting): each is
        computed once for all reward nodes."""
        shared = {name: getattr(self, name) for name in _SCM_PROPERTIES}
        other = dataclasses.replace(self, reward_node=node)
        object.__setattr__(other, "_cache", self._cache)
        vars(other).update(shared)
        return other

    # ---- arms -------------------------------------------------------------------------------
    @property
    def n_values(self) -> int:
        """K of the paper: the number of values an intervention can set."""
        return len(self.action_values)

    @property
    def n_arms(self) -> int:
        return self.n * self.n_values + 1

    @property
    def observational_arm(self) -> int:
        return self.n * self.n_values

    def arm(self, node: int, value: int) -> int:
        """Index of do(node = value); ``node = -1`` is do()."""
        if node < 0:
            return self.observational_arm
        return node * self.n_values + self.action_values.index(value)

    def arm_intervention(self, arm: int) -> tuple[int, int]:
        """(node, value) of an arm; (-1, -1) for do()."""
        if arm == self.observational_arm:
            return -1, -1
        return arm // self.n_values, self.action_values[arm % self.n_values]

    def arms_of(self, nodes: Sequence[int]) -> np.ndarray:
        """The arms do(X = x) of every X in ``nodes`` (ascending)."""
        return np.array(sorted(self.arm(v, x) for v in nodes for x in self.action_values), dtype=np.int64)

    # ---- exact queries ----------------------------------------------------------------------
    def marginal(self, target: int, do: tuple[int, int] | None = None) -> np.ndarray:
        """P(target | do(node = value)) (or the observational marginal), shape (domain,)."""
        key = (target, do)
        if key in self._cache:
            return self._cache[key]
        do_node = -1 if do is None or do[0] < 0 else do[0]
        if target == do_node:
            assert do is not None  # do_node is a node only under an intervention
            out = np.zeros(self.domain)
            out[do[1]] = 1.0
            self._cache[key] = out
            return out
        (table,) = self._eliminate(target, do_node, [None] if do is None or do_node < 0 else [do[1]])
        self._cache[key] = _law(table)
        return self._cache[key]

    def marginals_under(self, target: int, node: int, values: Sequence[int] | None = None) -> list[np.ndarray]:
        """P(target | do(node = x)) for every x of ``values`` (default 0..domain-1): :meth:`marginal` for each, with the
        elimination of the variables before ``node`` done once for all x (the same products in the same order, so the
        same numbers)."""
        values = list(range(self.domain)) if values is None else list(values)
        todo = [x for x in values if (target, (node, x)) not in self._cache]
        if todo and target != node:
            for x, table in zip(todo, self._eliminate(target, node, todo)):
                self._cache[(target, (node, x))] = _law(table)
        return [self.marginal(target, (node, x)) for x in values]

    @cached_property
    def _factors(self) -> tuple[np.ndarray, ...]:
        """Each node's CPT with one axis per parent and its own last (the factors :meth:`_eliminate` multiplies)."""
        return tuple(t.reshape((self.domain,) * len(pa) + (self.domain,)) for t, pa in zip(self.cpts, self.parents))

    @cached_property
    def _rank(self) -> dict[int, int]:
        return {v: i for i, v in enumerate(self.topological_order)}

    def _eliminate(self, target: int, do_node: int, values: list[Any]) -> list[np.ndarray]:
        """P(target | do(do_node = x)) for every x of ``values`` (``do_node`` -1, ``values`` [None]: the observational
        marginal): the ancestral set of ``target`` in the graph mutilated by do(``do_node``) eliminated in topological
        order, keeping a joint over the variables that still have a child to add; one table until ``do_node`` is
        reached, then one per x. The tables are returned as the products leave them: callers clip them
        (:func:`_law`)."""
        keep, stack = {target}, [target]
        while stack:
            v = stack.pop()
            if v == do_node:
                continue
            for p in self.parents[v]:
                if p not in keep:
                    keep.add(p)
                    stack.append(p)
        pending = {v: sum(c in keep and c != do_node for c in self.children[v]) for v in keep}
        # np.einsum's sublist labels must be small integers: a table's axes are labelled by position, the factor's
        # parents by their position in the table and the factor's own node by the next number
        axes: list[int] = []
        tables: list[Any] = [np.ones(())]
        for v in sorted(keep, key=self._rank.__getitem__):
            m = len(axes)
            if v == do_node:
                eye = np.eye(self.domain)
                tables = [np.einsum(tables[0], list(range(m)), eye[x], [m], list(range(m + 1))) for x in values]
                parents: tuple[int, ...] = ()
            else:
                parents = self.parents[v]
                labels = [*(axes.index(p) for p in parents), m]
                tables = [self._extend(t, v, labels) for t in tables]
            axes.append(v)
            for p in parents:
                pending[p] -= 1
            left = [i for i, a in enumerate(axes) if pending[a] != 0 or a == target]
            if len(left) < len(axes):
                tables = [_sum_to(t, left) for t in tables]
                axes = [axes[i] for i in left]
            if tables[0].size > MAX_FRONTIER_ENTRIES:
                raise CausalBanditsError(
                    f"{self.instance_id}: exact elimination needs a joint over "
                    f"{len(axes)} variables; use a sparser graph or a smaller K"
                )
        return tables

    def _extend(self, table: np.ndarray, v: int, labels: list[int]) -> np.ndarray:
        """An elimination step: ``table`` (one axis per variable) times ``v``'s factor, whose parents are the
        table's axes ``labels[:-1]``; ``v``'s axis comes last."""
        m = table.ndim
        return np.einsum(table, list(range(m)), self._factors[v], labels, list(range(m + 1)))

    def _one_step(self, parent_table: np.ndarray, v: int) -> np.ndarray:
        """The last step of :meth:`_eliminate` for a node ``v`` with one parent, whose (unclipped) table over that
        parent alone it is given: the product with ``v``'s factor, then the sum over the parent."""
        return _sum_to(self._extend(parent_table, v, [0, 1]), [1])

    @cached_property
    def observational_marginals(self) -> np.ndarray:
        """P(Y = y) for every node Y, shape (n, domain): an input of the algorithms
        (docs/papers/unknown_graph.md#unknown_graph-setting).

        In topological order, a node with one parent takes its parent's table one step further (:meth:`_one_step`):
        its own elimination would first arrive at that same table, by the same products in the same order, so the
        numbers are those of :meth:`marginal` (a test checks it bit for bit) at one step a node, not one per
        ancestor. Other nodes are eliminated."""
        raw: dict[int, np.ndarray] = {}
        for v in self.topological_order:
            parents = self.parents[v]
            if len(parents) == 1:
                raw[v] = self._one_step(raw[parents[0]], v)
            else:
                (raw[v],) = self._eliminate(v, -1, [None])
            if (v, None) not in self._cache:
                self._cache[(v, None)] = _law(raw[v])
        return np.array([self._cache[(v, None)] for v in range(self.n)])

    @cached_property
    def reward_laws(self) -> np.ndarray:
        """P(X_R = k | a) for every arm a, shape (n_arms, domain).

        Non-ancestors of X_R leave its law observational (docs/papers/unknown_graph.md#unknown_graph-simulation), so
        they need no query.
        """
        obs = self.marginal(self.reward_node)
        laws = np.tile(obs, (self.n_arms, 1))
        for v in self.reward_ancestors:
            for x, law in zip(self.action_values, self.marginals_under(self.reward_node, v, self.action_values)):
                laws[self.arm(v, x)] = law
        return laws

    @cached_property
    def arm_means(self) -> np.ndarray:
        """mu_a = sum_k P(X_R = k | a) f(k) for every arm, shape (n_arms,) (do() last)."""
        return self.reward_laws @ np.asarray(self.f, dtype=float)

    @property
    def mu_obs(self) -> float:
        return float(self.arm_means[self.observational_arm])

    @property
    def mu_star(self) -> float:
        return float(self.arm_means.max())

    @cached_property
    def Delta_true(self) -> float:
        """min over X in An(X_R) of max_x |mu_do(X=x) - mu_obs| (docs/papers/unknown_graph.md#unknown_graph-simulation,
        Assumption 3)."""
        means = self.arm_means
        return float(
            min(
                max(abs(means[self.arm(v, x)] - self.mu_obs) for x in self.action_values) for v in self.reward_ancestors
            )
        )

    @cached_property
    def eps_true(self) -> float:
        """min over edges X_i -> X_j of max_{x, x'} |P(X_j = x | do(X_i = x')) - P(X_j = x)| (Assumption 2).

        x' ranges over the whole domain, as Assumption 2 says; inf when there is no edge. Where X_i is X_j's only
        parent, P(X_j | do(X_i = x')) is row x' of X_j's CPT (clipped at 0, as :meth:`marginal` clips): the elimination
        multiplies it by 1 and adds zeros, which leaves it exact.
        """
        obs = self.observational_marginals
        single = [j for j, pa in enumerate(self.parents) if len(pa) == 1]  # one edge each, all at once
        rows = _law(np.array([self.cpts[j] for j in single]).reshape(-1, self.domain, self.domain))
        gaps = np.abs(rows - obs[single][:, None, :]).max(axis=(1, 2)).tolist()
        gaps += [
            max(float(np.abs(m - obs[j]).max()) for m in self.marginals_under(j, i))
            for i, j in self.edges
            if len(self.parents[j]) > 1
        ]
        return min(gaps, default=math.inf)

    # ---- documents --------------------------------------------------------------------------
    def to_document(self) -> dict[str, Any]:
        """The instance as JSON-ready data (docs/papers/unknown_graph.md#unknown_graph-documents, core fields)."""
        return {
            "instance_id": self.instance_id,
            "family": self.family,
            "generator": dict(self.generator),
            "n": self.n,
            "K": self.domain,
            "action_values": list(self.action_values),
            "node_names": list(self.node_names),
            "edges": [list(e) for e in self.edges],
            "cpts": [
                {"node": i, "parents": list(pa), "table": self.cpts[i].tolist()} for i, pa in enumerate(self.parents)
            ],
            "reward": {
                "node": int(self.reward_node),
                "f": [float(v) for v in self.f],
                "noise": "gaussian",
                "sigma": float(self.sigma),
            },
        }

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> Instance:
        """Inverse of :meth:`to_document`; extra keys (structure, derived) are ignored."""
        try:
            n = len(doc["node_names"])
            cpts = sorted(doc["cpts"], key=lambda c: c["node"])
            if [c["node"] for c in cpts] != list(range(n)):
                raise ConfigError(f"{doc.get('instance_id')}: need exactly one CPT per node 0..{n - 1}")
            reward = doc["reward"]
            if reward.get("noise", "gaussian") != "gaussian":
                raise ConfigError(f"{doc['instance_id']}: reward noise {reward['noise']!r}; only 'gaussian'")
            return cls(
                instance_id=str(doc["instance_id"]),
                family=str(doc["family"]),
                generator=dict(doc.get("generator", {})),
                node_names=tuple(doc["node_names"]),
                parents=tuple(tuple(int(p) for p in c["parents"]) for c in cpts),
                cpts=tuple(np.asarray(c["table"], dtype=float) for c in cpts),
                domain=int(doc["K"]),
                action_values=tuple(int(v) for v in doc["action_values"]),
                reward_node=reward["node"],
                f=np.asarray(reward["f"], dtype=float),
                sigma=float(reward.get("sigma", 1.0)),
            )
        except (KeyError, TypeError) as err:
            raise ConfigError(
                f"instance document lacks or mistypes {err}; write it with Instance.to_document()"
            ) from None


def _law(table: np.ndarray) -> np.ndarray:
    """A table of probabilities from CPT entries or their products, clipped at 0 (an entry may lie up to 1e-9 below
    it): what every exact query returns."""
    return np.clip(table, 0.0, None)


def _sum_to(table: np.ndarray, left: list[int]) -> np.ndarray:
    """``table`` summed over every axis but ``left`` (an elimination step)."""
    return np.einsum(table, list(range(table.ndim)), left)
