"""Admissible sequences (cpe Definition 3) and the do-calculus estimand of Eq. (10).

For S = (S_1, ..., S_k) in a topological order, Z_1, ..., Z_k ⊆ X is admissible when
(1) every node of Z_i is a non-descendant of {S_i, ..., S_k}, and
(2) Y ⊥ S_i | S_1..S_{i−1}, Z_1..Z_i in G with the in-edges of S_{i+1..k} and the out-edges of
    S_i removed.
Then (Eq. 10)

    μ_do(S=s) = Σ_z P(Y=1 | S=s, Z_a=z) Π_{l=1..k} P(Z_l = z_l | Z_i = z_i, S_i = s_i, i <= l−1).

:func:`is_admissible` checks (1)-(2) with networkx's d-separation on the graph with hidden nodes;
:func:`eq10_mean` evaluates Eq. (10) on the exact observational joint; :func:`parent_sequence` is
the construction for graphs without hidden variables (the paper's Theorem 4, cited in §5.1):
Z_j = Pa(S_j) \\ (Z_1 ∪ ... ∪ Z_{j−1} ∪ {S_1, ..., S_{j−1}}), constant nodes dropped (docs/papers/cpe.md#cpe-paper).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe.scm import BinarySCM


@dataclass(frozen=True)
class AdmissibleSequence:
    """S in the sequence's order and the blocks Z_1..Z_k aligned with it."""

    order: tuple[str, ...]
    blocks: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if len(self.blocks) != len(self.order):
            raise ConfigError(
                f"admissible sequence for {list(self.order)} has {len(self.blocks)} blocks; "
                "give one block Z_i per intervened variable"
            )

    @cached_property
    def Z(self) -> tuple[str, ...]:
        """Z_a = Z_1 ∪ ... ∪ Z_k, in block order."""
        return tuple(z for block in self.blocks for z in block)

    def to_document(self) -> dict[str, Any]:
        return {"order": list(self.order), "blocks": [list(b) for b in self.blocks]}

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> AdmissibleSequence:
        return cls(tuple(doc["order"]), tuple(tuple(b) for b in doc["blocks"]))


def adjustment_sequence(S: Sequence[str], Z: Sequence[str]) -> AdmissibleSequence:
    """An adjustment set Z as the sequence Z_1 = Z, Z_{i>1} = ∅ (docs/papers/cpe.md#cpe-paper, special case (a))."""
    return AdmissibleSequence(tuple(S), (tuple(Z),) + ((),) * (len(S) - 1) if S else ())


def is_admissible(scm: BinarySCM, seq: AdmissibleSequence) -> bool:
    """Definition 3, conditions (1) and (2), on the causal graph with its hidden nodes.

    Constant nodes (the BGLM's X_1 ≡ 1) are removed from the graph first: a deterministic node
    opens no path (it is "conditioned on" in every sample), which is why Z may leave it out.
    """
    import networkx as nx  # not at module level: run jobs import this module and need no graph library

    S, Y = seq.order, scm.reward
    G = scm.graph.subgraph([v for v in scm.nodes if not is_constant(scm, v)])
    if any(z in scm.hidden or z == Y or z in S for z in seq.Z):
        return False
    for i, Si in enumerate(S):
        later = set(S[i:])
        desc = set().union(*(nx.descendants(G, v) for v in later))
        if set(seq.blocks[i]) & (desc | later):
            return False
        H = G.copy()
        H.remove_edges_from(list(G.out_edges(Si)))
        H.remove_edges_from([e for v in S[i + 1 :] for e in G.in_edges(v)])
        given = set(S[:i]).union(*seq.blocks[: i + 1])
        if not nx.is_d_separator(H, {Y}, {Si}, given):
            return False
    return True


def eq10_mean(scm: BinarySCM, seq: AdmissibleSequence, values: Mapping[str, int]) -> float:
    """Eq. (10) for do(S = values) evaluated on the exact observational distribution.

    Needs P(S = s, Z_a = z) > 0 for every z (else the estimand is undefined: ValueError).
    """
    S, Z = list(seq.order), list(seq.Z)
    names = S + Z + [scm.reward]
    p = scm.marginal(names).reshape((2,) * len(names))
    s = tuple(values[v] for v in S)
    col = {v: i for i, v in enumerate(names)}
    total = 0.0
    for z in np.ndindex(*(2,) * len(Z)):
        zv = dict(zip(Z, z))
        joint = p[s + tuple(z)]  # (2,) over Y
        if joint.sum() <= 0.0:
            raise ValueError(f"P(S={s}, Z={z}) = 0: Eq. (10) is undefined")
        term = joint[1] / joint.sum()
        for l, block in enumerate(seq.blocks):
            if not block:
                continue
            fixed = {**{v: values[v] for v in S[:l]}, **{v: zv[v] for b in seq.blocks[:l] for v in b}}
            num = _probability(p, col, {**fixed, **{v: zv[v] for v in block}})
            term *= num / _probability(p, col, fixed)
        total += term
    return float(total)


def _probability(p: np.ndarray, col: Mapping[str, int], fixed: Mapping[str, int]) -> float:
    """P(fixed) from a full table ``p`` over the variables of ``col``."""
    index = tuple(fixed[v] if v in fixed else slice(None) for v in col)
    return float(np.sum(p[index]))


def parent_sequence(scm: BinarySCM, S: Sequence[str]) -> AdmissibleSequence:
    """Theorem 4's admissible sequence for a graph without hidden variables.

    S is put in topological order; constant (deterministic parentless) nodes are dropped from Z.
    """
    if scm.hidden:
        raise ConfigError("the parent construction (Theorem 4) needs a graph without hidden variables")
    rank = {v: i for i, v in enumerate(scm.order)}
    order = tuple(sorted(S, key=rank.__getitem__))
    used: set[str] = set()
    blocks = []
    for j, Sj in enumerate(order):
        block = tuple(p for p in scm.parents(Sj) if p not in used and p not in order[:j] and not is_constant(scm, p))
        used |= set(block)
        blocks.append(block)
    return AdmissibleSequence(order, tuple(blocks))


def parent_sequences(scm: BinarySCM, sets: Sequence[tuple[str, ...]]) -> list[AdmissibleSequence | None]:
    """:func:`parent_sequence` of each S (None for S = ∅), built once per distinct S: E4's 3^k arms have 2^k."""
    built: dict[tuple[str, ...], AdmissibleSequence] = {}
    for S in sets:
        if S and S not in built:
            built[S] = parent_sequence(scm, S)
    return [built[S] if S else None for S in sets]


def is_constant(scm: BinarySCM, v: str) -> bool:
    """A parentless node with P(v = 1) ∈ {0, 1} (the BGLM's global X_1 ≡ 1)."""
    mech = scm.mechanisms[v]
    return not mech.parents and mech.kind == "linear" and mech.intercept in (0.0, 1.0)
