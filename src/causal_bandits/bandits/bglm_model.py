"""The binary generalised linear model of cpe §2 and its reward function σ(θ, a) (§4).

X_1 ≡ 1 is a parent of every other node, and P(X = 1 | Pa(X) = v) = f(θ_X · v) with f strictly
increasing (``logistic`` f(z) = 1/(1 + e^{−z}), or ``linear`` f(z) = z). Noise e_X does not change
the law of binary nodes (docs/papers/cpe.md#cpe-a8-noise). :class:`BGLMStructure` is the graph in value columns.

σ(θ, a) (:func:`sigma`) is μ_a under parameters θ: exact enumeration in topological order with
P(V = 1 | pa) = f(θ_V · pa) (clipped to [0, 1] for the linear link). When every non-constant X is
a root (the two-layer E4 graphs), a table over {0, 1, ∗}^k (∗ = marginalised with the root's
probability) gives every arm do(S = s) ⊆ roots in O(k 3^k) per seed; otherwise every configuration
is enumerated per arm. With the true θ* it gives the exact means of a BGLM instance; with the
estimate θ̂ it is CCPE-BGLM's observational estimate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from scipy.special import expit

from causal_bandits.bandits.pure_exploration import Arm
from causal_bandits.errors import ConfigError
from causal_bandits.scm.cpt import configurations


@dataclass(frozen=True)
class Link:
    """f, f′ and the bounds M^(1) >= |f′|, M^(2) >= |f″| of Assumption 1."""

    name: str
    f: Callable[[np.ndarray], np.ndarray]
    df: Callable[[np.ndarray], np.ndarray]
    M1: float
    M2: float


def _logistic_slope(z: np.ndarray) -> np.ndarray:
    p = expit(z)
    return p * (1.0 - p)


LINKS = {
    "logistic": Link("logistic", expit, _logistic_slope, 0.25, 1.0 / (6.0 * np.sqrt(3.0))),
    "linear": Link("linear", lambda z: np.asarray(z, dtype=float), np.ones_like, 1.0, 0.0),
}


def link(name: str) -> Link:
    if name not in LINKS:
        raise ConfigError(f"link = {name!r} is unknown; use one of {list(LINKS)}")
    return LINKS[name]


@dataclass(frozen=True)
class BGLMStructure:
    """A BGLM in value columns: observed X are columns 0..n_columns−1, Y is column ``n_columns``.

    ``nodes`` are the non-constant nodes in topological order (Y last) and ``parents[i]`` the
    parent columns of ``nodes[i]``, the constant column included (it carries the intercept).
    """

    n_columns: int
    constant: int
    nodes: tuple[int, ...]
    parents: tuple[tuple[int, ...], ...]
    link: str = "logistic"

    @property
    def reward(self) -> int:
        return self.n_columns

    @cached_property
    def varying_parents(self) -> tuple[tuple[int, ...], ...]:
        """Parents other than the constant, per node."""
        return tuple(tuple(p for p in ps if p != self.constant) for ps in self.parents)

    @cached_property
    def designs(self) -> tuple[np.ndarray, ...]:
        """Per node, V (2^|varying parents| × |parents|): every parent configuration, constant = 1."""
        out = []
        for ps, vs in zip(self.parents, self.varying_parents):
            conf = configurations(len(vs))
            V = np.ones((conf.shape[0], len(ps)))
            for j, p in enumerate(ps):
                if p != self.constant:
                    V[:, j] = conf[:, vs.index(p)]
            out.append(V)
        return tuple(out)

    @cached_property
    def is_two_layer(self) -> bool:
        """Every non-constant X has only the constant as parent (the ternary table applies)."""
        return all(vs == () for node, vs in zip(self.nodes, self.varying_parents) if node != self.reward)


def sigma(theta: Sequence[np.ndarray], structure: BGLMStructure, arms: Sequence[Arm]) -> np.ndarray:
    """σ(θ, a) for every arm, shape (seeds, arms)."""
    if structure.is_two_layer:
        return _sigma_two_layer(theta, structure, arms)
    return _sigma_enumerated(theta, structure, arms)


def _probabilities(theta: np.ndarray, V: np.ndarray, f: Link) -> np.ndarray:
    """P(X = 1 | v) = f(θ · v) for each row of V, per seed: (seeds, rows), clipped to [0, 1]."""
    return np.clip(f.f((theta[:, None, :] * V[None]).sum(axis=2)), 0.0, 1.0)


def _sigma_two_layer(theta, structure: BGLMStructure, arms: Sequence[Arm]) -> np.ndarray:
    f = link(structure.link)
    roots = [node for node in structure.nodes if node != structure.reward]
    k = len(roots)
    n_seeds = theta[0].shape[0]
    conf = configurations(k)
    y = structure.nodes.index(structure.reward)
    V = np.ones((conf.shape[0], len(structure.parents[y])))
    for j, p in enumerate(structure.parents[y]):
        if p != structure.constant:
            V[:, j] = conf[:, roots.index(p)]
    table = _probabilities(theta[y], V, f).reshape((n_seeds,) + (2,) * k)
    for i, node in enumerate(roots):
        q = _probabilities(theta[structure.nodes.index(node)], np.ones((1, 1)), f)[:, 0]
        q = q.reshape((n_seeds,) + (1,) * k)
        zero, one = np.take(table, [0], axis=i + 1), np.take(table, [1], axis=i + 1)
        table = np.concatenate([table, q * one + (1.0 - q) * zero], axis=i + 1)
    return table.reshape(n_seeds, 3**k)[:, _ternary_index(tuple(roots), tuple(arms))]


@lru_cache(maxsize=8)
def _ternary_index(roots: tuple[int, ...], arms: tuple[Arm, ...]) -> np.ndarray:
    """Each arm's cell of the {0, 1, ∗}^k table over ``roots`` (digit 2 = not set), computed once per arm list: a
    CCPE-BGLM refresh asks for it every iteration (2,187 string joins each time on E4 k = 7)."""
    position = {node: i for i, node in enumerate(roots)}
    index = np.zeros(len(arms), dtype=np.int64)
    for a, arm in enumerate(arms):
        digits = [2] * len(roots)
        for col, val in arm:
            digits[position[col]] = val
        index[a] = int("".join(map(str, digits)) or "0", 3)
    index.flags.writeable = False
    return index


def _sigma_enumerated(theta, structure: BGLMStructure, arms: Sequence[Arm]) -> np.ndarray:
    f = link(structure.link)
    xs = [node for node in structure.nodes if node != structure.reward]
    if len(xs) > 16:
        raise ConfigError("σ(θ, a) by enumeration needs at most 16 non-constant variables outside two-layer BGLMs")
    conf = configurations(len(xs))
    full = np.ones((conf.shape[0], structure.n_columns + 1))
    full[:, xs] = conf
    p = {}
    for i, (node, ps) in enumerate(zip(structure.nodes, structure.parents)):
        p[node] = _probabilities(theta[i], full[:, list(ps)], f)
    free = {node: np.where(conf[:, j] == 1, p[node], 1.0 - p[node]) for j, node in enumerate(xs)}
    out = np.empty((theta[0].shape[0], len(arms)))
    for a, arm in enumerate(arms):
        fixed = dict(arm)
        weight = np.ones_like(p[structure.reward])
        for j, node in enumerate(xs):
            weight = weight * (conf[:, j] == fixed[node] if node in fixed else free[node])
        out[:, a] = (weight * p[structure.reward]).sum(axis=1)
    return out
