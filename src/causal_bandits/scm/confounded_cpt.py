"""Binary SCMs over a causal diagram given by conditional probability tables, with exact P_x(V).

Every bidirected edge e = a <-> b of the diagram stands for one exogenous confounder U_e ~
Bern(p_e) that enters f_a and f_b; every endogenous V is drawn from P(V = 1 | pa(V), U_e for e at
V). This is the general binary SCM conforming to an ADMG whose confounders are pairwise (every
XOR-Bernoulli SCM of :mod:`causal_bandits.scm.xor_bernoulli` is one, see :meth:`from_xor_bernoulli`),
and the ``random_cpt`` family of docs/papers/nonmanip.md#nonmanip-r-scm-parameters (U_e ~ Bern(Unif[0.2, 0.8]), θ ~
Unif[0.05, 0.95]) is :meth:`ConfoundedCPT.random`.

:meth:`ConfoundedCPT.joint` computes P(V | do(x)) exactly by enumerating every configuration of
U and V (2^(|U| + |V|) terms, a few thousand for the papers' graphs): the ground truth against
which the identification expressions of :mod:`causal_bandits.causal.z2id` are validated, and the
exact arm means of the robustness experiment. :meth:`ConfoundedCPT.sample_values` draws every
node from uniforms (vectorised over seeds), with the interface of
:meth:`~causal_bandits.scm.xor_bernoulli.XorBernoulliSCM.sample_values`, so that
:class:`~causal_bandits.scm.xor_bernoulli.InterventionArms` plays its interventions as arms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import cast

import numpy as np

from causal_bandits import checks
from causal_bandits.errors import ArgumentError, ConfigError
from causal_bandits.scm.cpt import config_index, configurations
from causal_bandits.scm.diagram import CausalDiagram
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

#: The most variables (confounders plus nodes) whose joint distribution is computed exactly: every node's factor
#: holds one number per configuration of all of them (2^24 numbers, 128 MiB, per node at this limit).
MAX_VARIABLES = 24


def check_size(diagram: CausalDiagram) -> None:
    """A one-line ConfigError naming :data:`MAX_VARIABLES` when ``diagram`` has more confounders plus nodes
    than the exact distribution can enumerate (checked before any table is made)."""
    n_u, n_v = len(confounders(diagram)), len(diagram.nodes)
    if n_u + n_v > MAX_VARIABLES:
        raise ConfigError(
            f"the diagram has {n_v} nodes and {n_u} confounders; exact arm means enumerate 2^{n_u + n_v} "
            f"configurations, above the limit of 2^{MAX_VARIABLES} (MAX_VARIABLES): use a diagram with at most "
            f"{MAX_VARIABLES} nodes plus bidirected edges"
        )


def confounders(diagram: CausalDiagram) -> tuple[tuple[str, str], ...]:
    """The bidirected edges as sorted pairs, in sorted order (the order of U)."""
    return cast(tuple[tuple[str, str], ...], tuple(sorted(tuple(sorted(e)) for e in diagram.bidirected)))


def inputs(diagram: CausalDiagram, v: str) -> tuple[list[str], list[int]]:
    """(sorted parents of v, indices in U of the confounders at v): the columns of v's table."""
    return sorted(diagram.parents(v)), [i for i, e in enumerate(confounders(diagram)) if v in e]


def check_tables(
    diagram: CausalDiagram, p_u, p1: Mapping, where: str = "ConfoundedCPT"
) -> tuple[tuple[float, ...], dict[str, np.ndarray]]:
    """(p_u, p1) as the model holds them, every size and probability checked against ``diagram`` first:
    ``p_u`` has one P(U_e = 1) per bidirected edge (in :func:`confounders` order), ``p1[v]`` has
    2^(|pa(v)| + |U at v|) entries, each a probability; anything else raises a one-line
    :class:`~causal_bandits.errors.ArgumentError` naming ``where`` and the fix."""
    checks.kind(diagram, CausalDiagram, f"{where} diagram", "give a causal_bandits.CausalDiagram")
    check_size(diagram)
    pairs = confounders(diagram)
    p_u = checks.probabilities(p_u, f"{where}.p_u", empty=True)
    if p_u.shape != (len(pairs),):
        raise ArgumentError(
            f"{where}.p_u has {p_u.size} entries; give one P(U = 1) per bidirected edge, "
            f"{len(pairs)} in this order: {[f'{a}<->{b}' for a, b in pairs]}"
        )
    checks.kind(p1, Mapping, f"{where}.p1", "give a mapping of each node to its table")
    if set(p1) != set(diagram.nodes):
        missing, extra = sorted(set(diagram.nodes) - set(p1)), sorted(set(p1) - set(diagram.nodes), key=str)
        raise ArgumentError(
            f"{where}.p1 must have one table per node {list(diagram.nodes)}: missing {missing}, unknown {extra}"
        )
    tables = {}
    for v in diagram.nodes:
        parents, conf = inputs(diagram, v)
        need = 2 ** (len(parents) + len(conf))
        table = checks.probabilities(p1[v], f"{where}.p1.{v}")
        if table.shape != (need,):
            raise ArgumentError(
                f"{where}.p1.{v} has {table.size} entries, but {v} has parents {parents} and "
                f"{len(conf)} confounder(s): give 2^{len(parents) + len(conf)} = {need} "
                "(first column most significant)"
            )
        tables[v] = table
    return tuple(float(p) for p in p_u), tables


@dataclass(frozen=True)
class ConfoundedCPT:
    """``p_u[i]`` = P(U_i = 1) for the i-th pair of :func:`confounders`; ``p1[v]`` = P(v = 1 | ·)
    over the configurations of (sorted parents of v, then v's confounders in U order), first
    column most significant (:func:`causal_bandits.scm.cpt.config_index`).

    Parameters
    ----------
    diagram : CausalDiagram
        The causal diagram; each bidirected edge is a binary latent confounder.
    p_u : tuple of float
        P(U_i = 1) of each confounder, in :func:`confounders` order, each in [0, 1].
    p1 : mapping of str to numpy.ndarray
        P(v = 1 | parents, confounders) of every node, one entry per configuration.
    """

    diagram: CausalDiagram
    p_u: tuple[float, ...]
    p1: Mapping[str, np.ndarray]

    def __post_init__(self) -> None:
        """Check the model against its diagram (:func:`check_tables`): a probability outside [0, 1], a table
        of the wrong length or a missing node is refused here, not met as a wrong arm mean later."""
        p_u, p1 = check_tables(self.diagram, self.p_u, self.p1)
        object.__setattr__(self, "p_u", p_u)
        object.__setattr__(self, "p1", p1)

    @classmethod
    def random(cls, diagram: CausalDiagram, rng: np.random.Generator) -> ConfoundedCPT:
        """docs/papers/nonmanip.md#nonmanip-r-scm-parameters ``random_cpt``: p_e ~ Unif[0.2, 0.8], every table entry ~
        Unif[0.05, 0.95]; a diagram above :data:`MAX_VARIABLES` raises a one-line ConfigError first."""
        check_size(diagram)
        p_u = tuple(rng.uniform(0.2, 0.8, len(confounders(diagram))))
        tables = {}
        for v in diagram.nodes:
            parents, conf = inputs(diagram, v)
            tables[v] = rng.uniform(0.05, 0.95, 2 ** (len(parents) + len(conf)))
        return cls(diagram, p_u, tables)

    @classmethod
    def from_xor_bernoulli(cls, scm: XorBernoulliSCM) -> ConfoundedCPT:
        """The same SCM with each own noise U_V absorbed into V's table:
        P(V = 1 | pa, U_e's) = q_V if c_V xor (xor of pa and U_e's) = 0, else 1 - q_V."""
        diagram = scm.diagram
        pairs = confounders(diagram)
        p_u = tuple(scm.q[f"U_{''.join(e)}"] for e in pairs)
        tables = {}
        for v in diagram.nodes:
            parents, conf = inputs(diagram, v)
            parity = configurations(len(parents) + len(conf)).sum(axis=1) % 2
            flips = parity ^ scm.c[v]
            tables[v] = np.where(flips == 1, 1.0 - scm.q[f"U_{v}"], scm.q[f"U_{v}"])
        return cls(diagram, p_u, tables)

    def to_dict(self) -> dict:
        """``{"family": "random_cpt", "p_u": [...], "p1": {v: [...]}}`` (the diagram is stored apart)."""
        return {
            "family": "random_cpt",
            "p_u": list(self.p_u),
            "p1": {v: list(map(float, t)) for v, t in self.p1.items()},
        }

    @classmethod
    def from_tables(cls, diagram: CausalDiagram, p_u, p1: Mapping, where: str = "scm") -> ConfoundedCPT:
        """A model from tables a user wrote, checked first (:func:`check_tables`, naming ``where``).

        >>> d = CausalDiagram(["X", "Y"], [("X", "Y")], [("X", "Y")])
        >>> ConfoundedCPT.from_tables(d, [0.5], {"X": [0.2, 0.8], "Y": [0.1, 0.9, 0.3]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        causal_bandits.errors.ArgumentError: scm.p1.Y has 3 entries, but Y has parents ['X'] and 1 confounder(s): ...
        """
        return cls(diagram, *check_tables(diagram, p_u, p1, where))

    @classmethod
    def from_dict(cls, diagram: CausalDiagram, d: Mapping) -> ConfoundedCPT:
        """Inverse of :meth:`to_dict`."""
        return cls(diagram, tuple(d["p_u"]), dict(d["p1"]))

    @property
    def exogenous(self) -> tuple[str, ...]:
        """The uniforms of one draw: the confounders ``U_<ab>`` (in :func:`confounders` order), then one
        per node (V = 1 iff its uniform < P(V = 1 | pa, U))."""
        return tuple(f"U_{a}{b}" for a, b in confounders(self.diagram)) + tuple(f"U_{v}" for v in self.diagram.nodes)

    def sample_values(self, noise: np.ndarray, intervened: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Draws of every node, (n, n_nodes) bool in ``diagram.nodes`` order, from ``noise`` (n,
        len(exogenous)) uniforms; where ``intervened`` (n, n_nodes) the node is set to ``values``."""
        n_u = len(self.p_u)
        u = noise[:, :n_u] < np.array(self.p_u)
        col = {v: i for i, v in enumerate(self.diagram.nodes)}
        state = np.zeros((noise.shape[0], len(col)), dtype=bool)
        for v in self.diagram.topological_order():
            parents, conf = inputs(self.diagram, v)
            bits = np.concatenate([state[:, [col[p] for p in parents]], u[:, conf]], axis=1)
            j = col[v]
            draw = noise[:, n_u + j] < self.p1[v][config_index(bits)]
            state[:, j] = np.where(intervened[:, j], values[:, j], draw)
        return state

    @cached_property
    def _factors(self) -> dict[str, np.ndarray]:
        """P(V = 1 | pa, U) for every (U configuration, V configuration): (2^|U|, 2^|V|) per V."""
        nodes = self.diagram.nodes
        col = {v: i for i, v in enumerate(nodes)}
        values = configurations(len(nodes))
        u = configurations(len(self.p_u))
        out = {}
        for v in nodes:
            parents, conf = inputs(self.diagram, v)
            bits = np.concatenate(
                [
                    np.broadcast_to(values[None, :, [col[p] for p in parents]], (len(u), len(values), len(parents))),
                    np.broadcast_to(u[:, None, conf], (len(u), len(values), len(conf))),
                ],
                axis=2,
            )
            out[v] = self.p1[v][config_index(bits)]
        return out

    def joint(self, do: Mapping[str, int] | None = None) -> np.ndarray:
        """P(V = v | do(x)) for every v, shape (2,) * |V| over ``diagram.nodes`` (axis i = node i)."""
        do = do or {}
        nodes = self.diagram.nodes
        values = configurations(len(nodes))
        u = configurations(len(self.p_u))
        p_u = np.array(self.p_u)
        prob = np.prod(np.where(u == 1, p_u, 1.0 - p_u), axis=1)[:, None] * np.ones((1, len(values)))
        for i, v in enumerate(nodes):
            if v in do:
                prob = prob * (values[None, :, i] == do[v])
            else:
                p = self._factors[v]
                prob = prob * np.where(values[None, :, i] == 1, p, 1.0 - p)
        return prob.sum(axis=0).reshape((2,) * len(nodes))

    def interventional_mean(self, target: str, do: Mapping[str, int] | None = None) -> float:
        """E[target | do(x)] = P(target = 1 | do(x)), exactly."""
        joint = self.joint(do)
        i = self.diagram.nodes.index(target)
        return float(np.take(joint, 1, axis=i).sum())
