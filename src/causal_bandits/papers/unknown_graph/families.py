"""The instance families of our reading (docs/papers/unknown_graph.md#unknown_graph-simulation,
docs/papers/unknown_graph.md#unknown_graph-r-figure1, docs/papers/unknown_graph.md#unknown_graph-v5), as
:class:`Instance` builders.

CPT regimes (docs/papers/unknown_graph.md#unknown_graph-simulation; binary in our reading
(docs/papers/unknown_graph.md#unknown_graph-simulation), generalised here to K values with the "good" value
g = K - 1 and f(k) = 1[k = g], so mu* = 1):

* ``A`` (symmetric): roots uniform; a child copies its single parent with probability 1 - rho and
  is uniform otherwise: P(y | x) = (1 - rho) 1[y = x] + rho / K. Not defined for several parents
  (XOR-like tables break Assumption 2, docs/papers/unknown_graph.md#unknown_graph-a12-model).
* ``B`` (default state): P(root = g) = 1 - a; P(child = g | parents) = 1 - a if every parent is g
  (noisy-AND; one parent: the parent is g), else b. The remaining mass is spread evenly over the
  other K - 1 values.

Random choices (X_R, tree shape, MCS start, edge orientation) come from the ``rng`` the caller
passes, a keyed generator (:func:`causal_bandits.rng.generator`), in the order each builder documents.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from itertools import pairwise, product
from typing import Any, cast

import networkx as nx
import numpy as np

from causal_bandits.errors import ConfigError
from causal_bandits.papers.unknown_graph.instance import Instance

#: docs/papers/unknown_graph.md#unknown_graph-simulation regime parameters: rho for A; (a, b) for B on trees/forests and
#: on general graphs.
REGIME_A = {"rho": 0.05}
REGIME_B_TREES = {"a": 0.004, "b": 0.05}
REGIME_B_GENERAL = {"a": 0.0005, "b": 0.005}
#: Figure 1's edges (docs/papers/unknown_graph.md#unknown_graph-r-figure1, 1-based names X1..X9): the 9-node BFS tree;
#: n8 drops X9.
FIGURE1_EDGES = ((1, 2), (1, 3), (2, 4), (2, 5), (3, 6), (3, 7), (4, 8), (4, 9))


def _check_K(K: int) -> None:
    if not isinstance(K, (int, np.integer)) or K < 2:
        raise ConfigError(f"K = {K!r} values per variable; K must be an integer >= 2")


def regime_table(regime: str, n_parents: int, K: int, params: Mapping[str, float]) -> np.ndarray:
    """The CPT of a node with ``n_parents`` parents under a regime, shape (K**n_parents, K)."""
    _check_K(K)
    if regime == "A":
        rho = params["rho"]
        if n_parents == 0:
            return np.full((1, K), 1.0 / K)
        if n_parents > 1:
            raise ConfigError(
                "regime A is defined for at most one parent "
                "(docs/papers/unknown_graph.md#unknown_graph-a12-model); use regime B for "
                "graphs with several parents"
            )
        return (1 - rho) * np.eye(K) + rho / K
    if regime == "B":
        return _regime_b_table(params["a"], params["b"], n_parents, K).copy()
    raise ConfigError(f"unknown CPT regime {regime!r}; use 'A' or 'B'")


@functools.cache
def _regime_b_table(a: float, b: float, n_parents: int, K: int) -> np.ndarray:
    """Regime B's CPT (:func:`regime_table`), built once per (a, b, parents, K): a tree of height 9 has 1,022 nodes
    with one parent."""
    good = K - 1
    rows = []
    for config in product(range(K), repeat=n_parents):
        p_good = 1 - a if all(v == good for v in config) else b
        rows.append([p_good if y == good else (1 - p_good) / (K - 1) for y in range(K)])
    return np.array(rows)


def _from_dag(
    instance_id: str,
    family: str,
    generator: Mapping[str, Any],
    n: int,
    edges: Sequence[tuple[int, int]],
    regime: str,
    K: int,
    params: Mapping[str, float],
    reward_node: int,
) -> Instance:
    parents: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        parents[v].append(u)
    parents = [sorted(p) for p in parents]
    return Instance(
        instance_id=instance_id,
        family=family,
        generator={**generator, "regime": regime, **params},
        node_names=tuple(f"X{i + 1}" for i in range(n)),
        parents=tuple(tuple(p) for p in parents),
        cpts=tuple(regime_table(regime, len(p), K, params) for p in parents),
        domain=K,
        action_values=tuple(range(K)),
        reward_node=int(reward_node),
        f=np.eye(K)[K - 1],
        sigma=1.0,
    )


def _params(regime: str, params: Mapping[str, float] | None, general: bool = False) -> dict[str, float]:
    if params is not None:
        return dict(params)
    if regime == "A":
        return dict(REGIME_A)
    return dict(REGIME_B_GENERAL if general else REGIME_B_TREES)


def _leaves(n: int, edges: Sequence[tuple[int, int]]) -> list[int]:
    has_child = {u for u, _ in edges}
    return [v for v in range(n) if v not in has_child]


def tree(
    h: int,
    *,
    rng: np.random.Generator,
    b: int = 2,
    regime: str = "B",
    K: int = 2,
    params: Mapping[str, float] | None = None,
    instance_id: str | None = None,
) -> Instance:
    """``tree(h, b)``: complete b-ary tree of depth h, BFS labels, X_R a uniform leaf (one draw)."""
    if h < 0 or b < 1:
        raise ConfigError(f"tree(h={h}, b={b}) needs h >= 0 and b >= 1")
    n = (b ** (h + 1) - 1) // (b - 1) if b > 1 else h + 1
    edges = [(i, b * i + c) for i in range(n) for c in range(1, b + 1) if b * i + c < n]
    leaves = _leaves(n, edges)
    xr = leaves[int(rng.integers(len(leaves)))]
    return _from_dag(
        instance_id or f"tree-h{h}-b{b}-{regime}",
        "tree",
        {"h": h, "b": b, "K": K},
        n,
        edges,
        regime,
        K,
        _params(regime, params),
        xr,
    )


def random_tree(
    n: int,
    *,
    rng: np.random.Generator,
    regime: str = "B",
    K: int = 2,
    params: Mapping[str, float] | None = None,
    instance_id: str | None = None,
) -> Instance:
    """``random_tree(n)``: uniform labelled tree (networkx), uniform root, uniform X_R (in that order)."""
    if n < 1:
        raise ConfigError(f"random_tree needs n >= 1, got {n}")
    skeleton = nx.random_labeled_tree(n, seed=rng) if n > 1 else nx.empty_graph(1)
    root = int(rng.integers(n))
    edges = sorted(nx.bfs_tree(skeleton, root).edges())
    xr = int(rng.integers(n))
    return _from_dag(
        instance_id or f"random_tree-n{n}-{regime}",
        "random_tree",
        {"n": n, "K": K},
        n,
        edges,
        regime,
        K,
        _params(regime, params),
        xr,
    )


def forest(
    C: int,
    h: int,
    *,
    rng: np.random.Generator,
    regime: str = "B",
    K: int = 2,
    params: Mapping[str, float] | None = None,
    instance_id: str | None = None,
) -> Instance:
    """``forest(C, h)``: C disjoint copies of tree(h), relabelled consecutively; X_R a random leaf of a
    random component (component drawn first, then the leaf)."""
    if C < 1:
        raise ConfigError(f"forest needs C >= 1 components, got {C}")
    m = 2 ** (h + 1) - 1
    one = [(i, 2 * i + c) for i in range(m) for c in (1, 2) if 2 * i + c < m]
    edges = [(u + j * m, v + j * m) for j in range(C) for u, v in one]
    component = int(rng.integers(C))
    leaves = _leaves(m, one)
    xr = component * m + leaves[int(rng.integers(len(leaves)))]
    return _from_dag(
        instance_id or f"forest-C{C}-h{h}-{regime}",
        "forest",
        {"C": C, "h": h, "K": K},
        C * m,
        edges,
        regime,
        K,
        _params(regime, params),
        xr,
    )


def polytree(
    n: int,
    *,
    rng: np.random.Generator,
    regime: str = "B",
    K: int = 2,
    params: Mapping[str, float] | None = None,
    instance_id: str | None = None,
) -> Instance:
    """``polytree(n)``: uniform labelled tree, each edge (in sorted order) flipped with probability 1/2,
    then a uniform X_R. Multi-parent nodes use regime B's noisy-AND."""
    if n < 1:
        raise ConfigError(f"polytree needs n >= 1, got {n}")
    skeleton = nx.random_labeled_tree(n, seed=rng) if n > 1 else nx.empty_graph(1)
    flips = rng.random(n - 1) < 0.5
    edges = [(v, u) if flip else (u, v) for (u, v), flip in zip(sorted(skeleton.edges()), flips)]
    xr = int(rng.integers(n))
    return _from_dag(
        instance_id or f"polytree-n{n}-{regime}",
        "polytree",
        {"n": n, "K": K},
        n,
        edges,
        regime,
        K,
        _params(regime, params),
        xr,
    )


def maximum_cardinality_order(graph: nx.Graph, start: int) -> list[int]:
    """Maximum Cardinality Search from ``start``, ties to the lowest index
    (docs/papers/unknown_graph.md#unknown_graph-simulation).

    networkx has no public MCS ordering, so it is written here (Tarjan & Yannakakis 1984).
    """
    visited, order = set(), [start]
    visited.add(start)
    weight = dict.fromkeys(graph.nodes, 0)
    for u in graph[start]:
        weight[u] += 1
    while len(order) < graph.number_of_nodes():
        v = min((u for u in graph.nodes if u not in visited), key=lambda u: (-weight[u], u))
        order.append(v)
        visited.add(v)
        for u in graph[v]:
            weight[u] += 1
    return order


def path_power(
    n: int,
    k: int,
    *,
    rng: np.random.Generator | None = None,
    regime: str = "B",
    K: int = 2,
    params: Mapping[str, float] | None = None,
    instance_id: str | None = None,
    mcs_start: int | None = None,
    reward_node: int | None = None,
) -> Instance:
    """``path_power(n, k)``: edges {i, j} with 0 < |i - j| <= k, oriented by MCS from a uniform start
    (u -> v iff u is visited first: no v-structures, one chain component, omega = k + 1); then X_R
    uniform. ``mcs_start`` / ``reward_node`` fix either draw (the exhaustive checks of
    docs/papers/unknown_graph.md#unknown_graph-ref-exact). Regime B uses the general-graph parameters by default."""
    if n < 2 or k < 1:
        raise ConfigError(f"path_power(n={n}, k={k}) needs n >= 2 and k >= 1")
    skeleton = nx.Graph((i, j) for i in range(n) for j in range(i + 1, min(n, i + k + 1)))
    draw = cast(np.random.Generator, rng)  # used only for a draw that mcs_start / reward_node leave open
    start = int(draw.integers(n)) if mcs_start is None else mcs_start
    rank = {v: r for r, v in enumerate(maximum_cardinality_order(skeleton, start))}
    edges = sorted((u, v) if rank[u] < rank[v] else (v, u) for u, v in skeleton.edges())
    xr = int(draw.integers(n)) if reward_node is None else reward_node
    return _from_dag(
        instance_id or f"path_power-n{n}-k{k}-{regime}",
        "path_power",
        {"n": n, "k": k, "K": K, "mcs_start": start},
        n,
        edges,
        regime,
        K,
        _params(regime, params, general=True),
        xr,
    )


def figure1(variant: str = "n9", *, rho: float = REGIME_A["rho"]) -> Instance:
    """The reconstructed Figure-1 tree (docs/papers/unknown_graph.md#unknown_graph-r-figure1,
    docs/papers/unknown_graph.md#unknown_graph-a2-figure1): regime A, K = 2, X_R = X7."""
    if variant not in ("n9", "n8"):
        raise ConfigError(f"fig1.variant {variant!r}; use 'n9' or 'n8'")
    edges = [(u - 1, v - 1) for u, v in FIGURE1_EDGES if variant == "n9" or v != 9]
    n = 9 if variant == "n9" else 8
    return _from_dag(f"fig1-{variant}", "fig1", {"variant": variant}, n, edges, "A", 2, {"rho": rho}, 6)


def lower_bound_gap(n: int, K: int, T: int) -> float:
    """Delta = sqrt(nK/T) / 4, the gap of the Thm 4/5 constructions (App. A.4)."""
    return 0.25 * math.sqrt(n * K / T)


def _chain(order: Sequence[int]) -> list[tuple[int, int]]:
    return list(pairwise(order))


def lower_bound(theorem: int, n: int, K: int, j: int, k: int, Delta: float) -> Instance:
    """Instance (j, k) of the Thm 4 (``theorem=4``) or Thm 5 family (App. A.4, A.5); j = 0 is instance 0.

    ``j`` is the paper's 1-based node index (X_j drives the reward), ``k`` in 1..K.
    Thm 4: values {0..K}, actions {1..K}, every variable is 0 whatever its parent, R ~ N(Delta 1[X_j = k], 1).
    Thm 5: values {0..K+1}, actions {2..K+1}, chains copy 0 and 1 and send values >= 2 to 0
    (docs/papers/unknown_graph.md#unknown_graph-a13-thm5), the root is 0, R ~ N(Delta 1[X_j = k + 1], 1). Instance 0 has
    R ~ N(0, 1).
    """
    if theorem not in (4, 5):
        raise ConfigError(f"lower-bound theorem {theorem}; use 4 or 5")
    if n < 2 or not 0 <= j <= n or (j > 0 and not 1 <= k <= K):
        raise ConfigError(f"lower-bound instance (j={j}, k={k}) needs n >= 2, 0 <= j <= n and 1 <= k <= K")
    if K < 1:
        raise ConfigError(f"lower-bound families need K >= 1 action values, got {K}")
    nodes = list(range(1, n + 1))
    if theorem == 4:
        if j <= 1:
            order = nodes
        elif j == n:
            order = nodes[::-1]
        else:
            order = [j, *range(1, j), *range(j + 1, n + 1)]
        domain, actions, hit = K + 1, tuple(range(1, K + 1)), k
        child = np.zeros((domain, domain))
        child[:, 0] = 1.0
    else:
        if j <= 1:
            order = nodes[::-1]
        elif j == n:
            order = [*range(n - 1, 0, -1), n]
        else:
            order = [*range(j - 1, 0, -1), *range(n, j - 1, -1)]
        domain, actions, hit = K + 2, tuple(range(2, K + 2)), k + 1
        child = np.zeros((domain, domain))
        child[0, 0] = child[1, 1] = 1.0
        child[2:, 0] = 1.0
    root = np.eye(domain)[:1]
    edges = [(u - 1, v - 1) for u, v in _chain(order)]
    parents = [tuple(u for u, v in edges if v == i) for i in range(n)]
    reward_node = (j - 1) if j > 0 else 0
    f = np.zeros(domain)
    if j > 0:
        f[hit] = Delta
    return Instance(
        instance_id=f"lb_thm{theorem}-n{n}-K{K}-j{j}-k{k if j else 0}",
        family=f"lb_thm{theorem}",
        generator={"theorem": theorem, "n": n, "K": K, "j": j, "k": k if j else 0, "Delta": Delta},
        node_names=tuple(f"X{i}" for i in nodes),
        parents=tuple(parents),
        cpts=tuple(child if p else root for p in parents),
        domain=domain,
        action_values=actions,
        reward_node=reward_node,
        f=f,
        sigma=1.0,
    )
