"""d-separation sets of the reward, chosen by domain size (Huang, Zhang & Wu, AAAI-22, §3.2).

A set W of user, arm and intermediate features is a d-separation set when it d-separates the
reward R from every user and arm feature outside W in the causal graph (including the policy
edges X -> A); then (Eq. 2)

    E[R | do(a), x] = sum_z E[R | w] P(z | x, a),   Z = W minus (A and X),

and a learner only needs the means of the |W| value combinations of W. Algorithm 1 asks for "the
d-separation set W with minimum subset Z in terms of domain space", the text for "W with the
minimum domain space" (ambiguity A6). :func:`min_domain_dseparator` enumerates every subset
(brute force, at most 2^11 here) and orders the valid ones by domain of W, then of Z, then
lexicographically in the declared variable order (``criterion="W_then_Z"``) or by Z first
(``"Z_then_W"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import prod

import networkx as nx

CRITERIA = ("W_then_Z", "Z_then_W")


@dataclass(frozen=True)
class DSeparator:
    """A chosen d-separation set with its domain sizes and how many sets were valid."""

    W: tuple[str, ...]
    Z: tuple[str, ...]
    domain_W: int
    domain_Z: int
    n_valid: int


def is_dseparator(graph: nx.DiGraph, reward: str, w: Sequence[str], observed: Sequence[str]) -> bool:
    """Whether ``w`` d-separates ``reward`` from the ``observed`` (user and arm) features outside it."""
    rest = set(observed) - set(w)
    return not rest or nx.is_d_separator(graph, {reward}, rest, set(w))


def min_domain_dseparator(
    graph: nx.DiGraph,
    reward: str,
    candidates: Sequence[str],
    observed: Sequence[str],
    cards: Mapping[str, int],
    criterion: str = "W_then_Z",
) -> DSeparator:
    """The valid d-separation set of minimum domain among subsets of ``candidates``.

    ``observed`` are the user and arm features (X and A); ``candidates`` their union with the
    intermediate features, in the declared order that breaks the last ties.
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")
    rank = {v: i for i, v in enumerate(candidates)}
    best, n_valid = None, 0
    for size in range(len(candidates) + 1):
        for w in combinations(candidates, size):
            if not is_dseparator(graph, reward, w, observed):
                continue
            n_valid += 1
            z = tuple(v for v in w if v not in set(observed))
            dom_w, dom_z = prod(cards[v] for v in w), prod(cards[v] for v in z)
            key: tuple[int | tuple[int, ...], ...] = (dom_w, dom_z) if criterion == "W_then_Z" else (dom_z, dom_w)
            key += (tuple(rank[v] for v in w),)
            if best is None or key < best[0]:
                best = (key, DSeparator(w, z, dom_w, dom_z, 0))
    if best is None:
        raise ValueError(f"no subset of {list(candidates)} d-separates {reward}")
    chosen = best[1]
    return DSeparator(chosen.W, chosen.Z, chosen.domain_W, chosen.domain_Z, n_valid)
