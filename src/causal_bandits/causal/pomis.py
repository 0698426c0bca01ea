"""Where to intervene: MIS, MUCT, IB and POMIS, with non-manipulable variables.

Lee & Bareinboim, "Structural Causal Bandits: Where to Intervene?" (NeurIPS-18) define minimal
intervention sets (MIS), the minimal unobserved-confounders' territory (MUCT), the interventional
border (IB), and characterise possibly-optimal MISs: X is a POMIS iff IB(G_{\\bar X}, Y) = X, which
their Algorithm 1 (POMISs/subPOMISs) enumerates without trying every subset. Lee & Bareinboim,
"Structural Causal Bandits with Non-Manipulable Variables" (AAAI-19) add a set N of non-manipulable
variables: MISs are filtered (𝕄^N = {W ∈ 𝕄 : W ∩ N = ∅}), but POMISs are *not* — Theorem 4 gives
ℙ^N_{G,Y} = ℙ_{H,Y} with H the latent projection of G onto V \\ N.

Every set family is returned as a list of tuples of sorted names in canonical order (size, names).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations

from causal_bandits import checks
from causal_bandits.errors import CausalBanditsError, DiagramError
from causal_bandits.scm.diagram import CausalDiagram, Nodes, canonical_sets

Sets = list[tuple[str, ...]]


def _non_manipulable(G: CausalDiagram, Y: str, N: Nodes) -> frozenset[str]:
    """Validate the diagram, the reward and N; return N as a set."""
    checks.kind(G, CausalDiagram, "the diagram G", "give a causal_bandits.CausalDiagram")
    if not isinstance(Y, str) or Y not in G.nodes:
        raise DiagramError(f"reward {Y!r} is not a node of the diagram; choose one of {list(G.nodes)}")
    n = G.node_set(N)
    if Y in n:
        raise DiagramError(f"the reward {Y!r} cannot be non-manipulable; remove it from non_manipulable")
    return n


def _territory(G: CausalDiagram, Y: str) -> tuple[frozenset[str], frozenset[str]]:
    """(MUCT(G, Y), IB(G, Y)) — NeurIPS-18 Def. of MUCT and IB; docs/papers/nonmanip.md#nonmanip-pomis.

    T grows from {Y} by c-components and descendants inside H = G[An(Y)] until closed;
    IB = pa_G(T) \\ T.
    """
    H = G.subgraph(G.ancestors(Y))
    T = frozenset({Y})
    while True:
        grown = H.descendants(T).union(*(H.c_component(v) for v in T))
        if grown == T:
            return T, G.parents(T) - T
        T = grown


def muct(G: CausalDiagram, Y: str) -> tuple[str, ...]:
    """MUCT(G, Y): the minimal unobserved-confounders' territory of Y, sorted."""
    _non_manipulable(G, Y, ())
    return tuple(sorted(_territory(G, Y)[0]))


def interventional_border(G: CausalDiagram, Y: str) -> tuple[str, ...]:
    """IB(G, Y) = pa(MUCT(G, Y)) \\ MUCT(G, Y), sorted."""
    _non_manipulable(G, Y, ())
    return tuple(sorted(_territory(G, Y)[1]))


def brute_force_sets(G: CausalDiagram, Y: str, N: Nodes = ()) -> Sets:
    """BF: every intervention set X ⊆ V \\ {Y} \\ N (∅ included), in canonical order.

    Parameters
    ----------
    G : CausalDiagram
        The causal diagram.
    Y : str
        The reward variable.
    N : sequence of str, optional
        The non-manipulable variables (AAAI-19).

    Returns
    -------
    list of tuple of str
        The sets, each sorted, in canonical order (by size, then names).
    """
    candidates = sorted(set(G.nodes) - {Y} - _non_manipulable(G, Y, N))
    return [X for size in range(len(candidates) + 1) for X in combinations(candidates, size)]


#: The family size (MISs or POMISs) above which the ``pomis`` command stops unless given ``--limit``.
SET_LIMIT = 10_000


class TooManySets(CausalBanditsError):
    """A set family is larger than the caller's limit (enumeration stops at the ``limit + 1``-th set)."""

    def __init__(self, what: str, limit: int):
        super().__init__(f"{what} has more than the limit of {limit:,} sets")
        self.limit = limit


def _limit(limit: int | None, function: str) -> int | None:
    """``limit`` of :func:`pomis` or :func:`minimal_intervention_sets`: None (no limit) or a count >= 1."""
    return None if limit is None else checks.count(limit, f"{function}(limit)")


def _bits(mask: int) -> Iterator[int]:
    """The positions of the bits set in ``mask``, lowest first (as many steps as bits set, not as the mask is wide)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _ancestor_masks(G: CausalDiagram, Y: str) -> tuple[list[str], list[int], int]:
    """An(Y) as bit positions: (names, parent mask of each, bit of Y)."""
    H = G.subgraph(G.ancestors(Y))
    names = list(H.topological_order())
    bit = {v: i for i, v in enumerate(names)}
    parents = [sum(1 << bit[p] for p in H.parents(v)) for v in names]
    return names, parents, 1 << bit[Y]


def _reaches_y(parents: list[int], y: int, blocked: int) -> int:
    """an(Y) in G_{\\bar X} as a mask, X = ``blocked``: walk back from Y, never entering X's parents."""
    reach = frontier = y
    while frontier:
        grow, f = 0, frontier & ~blocked
        while f:
            low = f & -f
            grow |= parents[low.bit_length() - 1]
            f ^= low
        frontier = grow & ~reach
        reach |= frontier
    return reach


def _mis_levels(G: CausalDiagram, Y: str, N: Nodes):
    """Yield the MISs (as bit masks over An(Y)) level by level, by size, each as soon as it is found
    (a caller with a limit stops consuming).

    NeurIPS-18 (Lee & Bareinboim) characterise MISs as the X ⊆ an(Y)_{G_{\\bar X}}; every subset
    of a MIS is a MIS (intervening on fewer variables removes fewer edges, so an(Y) only grows),
    and no MIS leaves An(Y). The family is therefore enumerated inside An(Y) \\ N level-wise
    (Apriori): a set of size k+1 is a candidate only if it joins two size-k MISs with a common
    prefix and all its size-k subsets are MISs; only candidates get the graphical test. Pairs come
    from the dominator tree of the reversed graph (:func:`_pairs`), so a long chain costs one tree, not
    one walk per variable.
    """
    n = _non_manipulable(G, Y, N)
    names, parents, y = _ancestor_masks(G, Y)
    yield names, 0
    level = [1 << i for i, v in enumerate(names) if v != Y and v not in n]  # each variable alone is a MIS
    for m in level:
        yield names, m
    grow: Callable[[list[int], list[int], int], Iterator[int]] = _pairs
    while level:
        nxt = []
        for cand in grow(level, parents, y):
            nxt.append(cand)
            yield names, cand
        level, grow = nxt, _joins


def _pairs(singles: list[int], parents: list[int], y: int) -> Iterator[int]:
    """The MISs {a, b} of two of ``singles``: a reaches Y with b's incoming edges cut, and b with a's.

    b reaches Y in G_{\\bar a} iff some directed path from b to Y avoids a, i.e. iff a does not dominate b in
    the reversed graph rooted at Y (Lengauer & Tarjan's dominators; networkx's ``immediate_dominators``). So
    {a, b} is a MIS iff neither is an ancestor of the other in that dominator tree: in a pre-order of the tree,
    the singles after a's subtree. The work is one dominator tree plus the pairs found (a 5,000-node chain has
    none, and is done in milliseconds), not one walk per variable."""
    import networkx as nx

    n = len(parents)
    reverse = nx.DiGraph()
    reverse.add_nodes_from(range(n))
    reverse.add_edges_from((i, p) for i, mask in enumerate(parents) for p in _bits(mask))
    root = y.bit_length() - 1
    idom = nx.immediate_dominators(reverse, root)
    below: dict[int, list[int]] = {}
    for v, d in idom.items():
        if v != root:
            below.setdefault(d, []).append(v)
    pre: dict[int, int] = {}
    size: dict[int, int] = {}
    stack = [(root, False)]
    while stack:  # iterative DFS: pre-order number and subtree size of every node
        v, done = stack.pop()
        if done:
            size[v] = len(pre) - pre[v]
            continue
        pre[v] = len(pre)
        stack.append((v, True))
        stack.extend((c, False) for c in sorted(below.get(v, ()), reverse=True))
    ordered = sorted(singles, key=lambda m: pre[m.bit_length() - 1])
    keys = [pre[m.bit_length() - 1] for m in ordered]
    for a in ordered:
        i = a.bit_length() - 1
        for b in ordered[bisect.bisect_left(keys, pre[i] + size[i]) :]:
            yield a | b


def _joins(level: list[int], parents: list[int], y: int) -> Iterator[int]:
    """The MISs of size k + 1 from those of size k (``level``, k >= 2): Apriori joins of two with a common
    prefix whose every size-k subset is in ``level``, each given the graphical test."""
    members = set(level)
    by_prefix: dict[int, list[int]] = {}
    for m in level:
        top = 1 << (m.bit_length() - 1)
        by_prefix.setdefault(m ^ top, []).append(top)
    for prefix, tops in by_prefix.items():
        for i, a in enumerate(tops):
            for b in tops[i + 1 :]:
                cand = prefix | a | b
                rest = cand
                while rest:
                    low = rest & -rest
                    if (cand ^ low) not in members:
                        break
                    rest ^= low
                if not rest and cand & ~_reaches_y(parents, y, cand) == 0:
                    yield cand


def minimal_intervention_sets(G: CausalDiagram, Y: str, N: Nodes = (), limit: int | None = None, progress=None) -> Sets:
    """𝕄^N_{G,Y} (AAAI-19 Def. 2): X ⊆ V \\ {Y} \\ N with X ⊆ an(Y) in G_{\\bar X} (NeurIPS-18 test).

    Enumerated within An(Y) with pruning (:func:`_mis_levels`), never over all subsets of V. With
    ``limit``, a family of more than ``limit`` sets raises :class:`TooManySets` as soon as the
    ``limit + 1``-th set is found. ``progress(count)`` is called after each set.

    Parameters
    ----------
    G : CausalDiagram
        The causal diagram.
    Y : str
        The reward variable.
    N : sequence of str, optional
        The non-manipulable variables (AAAI-19).
    limit : int, optional
        Stop with :class:`TooManySets` once the family has more than ``limit`` sets.
    progress : callable, optional
        Called with the count of sets found after each one.

    Returns
    -------
    list of tuple of str
        The sets, each sorted, in canonical order (by size, then names).
    """
    limit = _limit(limit, "mis")
    found = []
    for names, mask in _mis_levels(G, Y, N):
        found.append(tuple(sorted(names[i] for i in _bits(mask))))
        if progress is not None:
            progress(len(found))
        if limit is not None and len(found) > limit:
            raise TooManySets("the MIS family", limit)
    return canonical_sets(found)


def _manipulable_projection(G: CausalDiagram, Y: str, N: Nodes) -> CausalDiagram:
    """H = proj(G, V \\ N) (H = G when N = ∅), the graph of AAAI-19 Theorem 4."""
    n = _non_manipulable(G, Y, N)
    return G.latent_projection(set(G.nodes) - n) if n else G


class _Masks:
    """An ADMG over An(Y) as bit masks, for Algorithm 1's many territory computations: every graph
    Algorithm 1 visits is H_{\\bar C}[S] for the start graph H, a set C of intervened nodes (incoming
    edges cut) and a node set S, so one table of parents, children and confounders serves them all."""

    def __init__(self, G: CausalDiagram, Y: str):
        self.names = list(G.topological_order())
        bit = {v: 1 << i for i, v in enumerate(self.names)}
        self.parents = [sum(bit[p] for p in G.parents(v)) for v in self.names]
        self.children = [sum(bit[c] for c in G.children(v)) for v in self.names]
        self.spouses = [0] * len(self.names)
        for edge in G.bidirected:
            u, v = sorted(edge)
            self.spouses[self.names.index(u)] |= bit[v]
            self.spouses[self.names.index(v)] |= bit[u]
        self.y, self.bit = bit[Y], bit

    def territory(self, nodes: int, cut: int) -> tuple[int, int]:
        """(MUCT, IB) of Y in H_{\\bar cut}[nodes], as :func:`_territory` computes them: T grows from
        {Y} by descendants and c-components inside the ancestors of Y until closed."""
        parents, children, spouses = self.parents, self.children, self.spouses
        an = frontier = self.y
        while frontier:  # An(Y): walk back from Y, never into a cut node's parents
            grow, f = 0, frontier & ~cut
            while f:
                low = f & -f
                grow |= parents[low.bit_length() - 1]
                f ^= low
            frontier = grow & nodes & ~an
            an |= frontier
        inside = an & ~cut  # cut nodes have no incoming edge: no descendant or confounder joins them
        T = frontier = self.y
        border = 0
        while frontier:
            grow, f = 0, frontier
            while f:
                low = f & -f
                i = low.bit_length() - 1
                grow |= children[i] | spouses[i]
                border |= parents[i]
                f ^= low
            frontier = grow & inside & ~T
            T |= frontier
        return T, border & nodes & ~T

    def sets(self, masks) -> Sets:
        return canonical_sets(tuple(self.names[i] for i in _bits(m)) for m in masks)


def pomis(G: CausalDiagram, Y: str, N: Nodes = (), limit: int | None = None, progress=None) -> Sets:
    """ℙ^N_{G,Y} by NeurIPS-18 Algorithm 1 (POMISs) on proj(G, V \\ N) (AAAI-19 Theorem 4).

    Projection, not filtering: {X ∈ ℙ_{G,Y} : X ∩ N = ∅} misses sets such as {X} in the front-door
    graph with N = {Z} (AAAI-19 Proposition 1 only gives the inclusion).

    The family can be exponential (k causes of Y each confounded with Y give 2^k POMISs), but the
    work is polynomial per POMIS: subPOMISs recurses only below a border it has just added, and each
    call makes at most |V| territory computations, O(|V| + |E|) each. With ``limit``, a family of more
    than ``limit`` sets raises :class:`TooManySets` as soon as the ``limit + 1``-th set is found;
    ``progress(count)`` is called after each new set.

    Parameters
    ----------
    G : CausalDiagram
        The causal diagram.
    Y : str
        The reward variable.
    N : sequence of str, optional
        The non-manipulable variables (AAAI-19).
    limit : int, optional
        Stop with :class:`TooManySets` once the family has more than ``limit`` sets.
    progress : callable, optional
        Called with the count of sets found after each one.

    Returns
    -------
    list of tuple of str
        The sets, each sorted, in canonical order (by size, then names).
    """
    limit = _limit(limit, "pomis")
    H = _manipulable_projection(G, Y, N)
    H = H.subgraph(H.ancestors(Y))
    M = _Masks(H, Y)
    everything = sum(M.bit.values())
    T, X = M.territory(everything, 0)
    found: set[int] = {X}

    def add(border: int) -> None:
        if border not in found:
            found.add(border)
            if limit is not None and len(found) > limit:
                raise TooManySets("the POMIS family", limit)
            if progress is not None:
                progress(len(found))

    order = [M.bit[v] for v in reversed(M.names) if M.bit[v] & T & ~M.y]
    _sub_pomis(M, T | X, X, order, 0, add)
    return M.sets(found)


def _sub_pomis(M: _Masks, nodes: int, cut: int, Ws: Sequence[int], obs: int, add) -> None:
    """subPOMISs of NeurIPS-18 Algorithm 1 on H_{\\bar cut}[nodes]: intervene on each W_i in turn,
    skipping borders that meet variables already explored earlier in this branch (``obs`` ∪
    W_1..W_{i-1})."""
    explored = obs
    for i, W in enumerate(Ws):
        if i:
            explored |= Ws[i - 1]
        T, X = M.territory(nodes, cut | W)
        if X & explored:
            continue
        add(X)
        rest = [w for w in Ws[i + 1 :] if w & T]
        if rest:
            _sub_pomis(M, T | X, cut | X, rest, explored, add)


def pomis_brute_force(G: CausalDiagram, Y: str, N: Nodes = ()) -> Sets:
    """Reference ℙ^N_{G,Y} = {X ⊆ V(H) \\ {Y} : IB(H_{\\bar X}, Y) = X}, H = proj(G, V \\ N)
    (NeurIPS-18 POMIS characterisation + AAAI-19 Theorem 4), checking every subset."""
    H = _manipulable_projection(G, Y, N)
    return [X for X in brute_force_sets(H, Y) if _territory(H.do(X), Y)[1] == set(X)]


def n_arms(sets: Iterable[Sequence[str]]) -> int:
    """Number of arms of a family of intervention sets over binary variables: Σ_X 2^|X|."""
    return sum(2 ** len(X) for X in sets)
