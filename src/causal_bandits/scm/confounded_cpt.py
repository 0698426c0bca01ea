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

from causal_bandits.errors import ConfigError
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

    def _inputs(self, v: str) -> tuple[list[str], list[int]]:
        """(sorted parents of v, indices in U of the confounders at v)."""
        return sorted(self.diagram.parents(v)), [i for i, e in enumerate(confounders(self.diagram)) if v in e]

    @classmethod
    def random(cls, diagram: CausalDiagram, rng: np.random.Generator) -> ConfoundedCPT:
        """docs/papers/nonmanip.md#nonmanip-r-scm-parameters ``random_cpt``: p_e ~ Unif[0.2, 0.8], every table entry ~
        Unif[0.05, 0.95]; a diagram above :data:`MAX_VARIABLES` raises a one-line ConfigError first."""
        check_size(diagram)
        p_u = tuple(rng.uniform(0.2, 0.8, len(confounders(diagram))))
        model = cls(diagram, p_u, {})
        tables = {}
        for v in diagram.nodes:
            parents, conf = model._inputs(v)
            tables[v] = rng.uniform(0.05, 0.95, 2 ** (len(parents) + len(conf)))
        return cls(diagram, p_u, tables)

    @classmethod
    def from_xor_bernoulli(cls, scm: XorBernoulliSCM) -> ConfoundedCPT:
        """The same SCM with each own noise U_V absorbed into V's table:
        P(V = 1 | pa, U_e's) = q_V if c_V xor (xor of pa and U_e's) = 0, else 1 - q_V."""
        diagram = scm.diagram
        pairs = confounders(diagram)
        p_u = tuple(scm.q[f"U_{''.join(e)}"] for e in pairs)
        model = cls(diagram, p_u, {})
        tables = {}
        for v in diagram.nodes:
            parents, conf = model._inputs(v)
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
        """A model from tables a user wrote, every size and probability checked first: ``p_u`` has one
        P(U_e = 1) per bidirected edge (in :func:`confounders` order), ``p1[v]`` has 2^(|pa(v)| + |U at v|)
        entries; a bad table raises a one-line ConfigError that names ``where`` and the fix.

        >>> d = CausalDiagram(["X", "Y"], [("X", "Y")], [("X", "Y")])
        >>> ConfoundedCPT.from_tables(d, [0.5], {"X": [0.2, 0.8], "Y": [0.1, 0.9, 0.3]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        causal_bandits.errors.ConfigError: scm.p1.Y has 3 entries, but Y has parents ['X'] and 1 confounder(s): ...
        """
        check_size(diagram)
        pairs = confounders(diagram)
        if len(p_u) != len(pairs):
            raise ConfigError(
                f"{where}.p_u has {len(p_u)} entries; give one P(U = 1) per bidirected edge, "
                f"{len(pairs)} in this order: {[f'{a}<->{b}' for a, b in pairs]}"
            )
        if set(p1) != set(diagram.nodes):
            missing, extra = sorted(set(diagram.nodes) - set(p1)), sorted(set(p1) - set(diagram.nodes))
            raise ConfigError(
                f"{where}.p1 must have one table per node {list(diagram.nodes)}: missing {missing}, unknown {extra}"
            )
        model = cls(diagram, tuple(float(p) for p in p_u), {})
        for v in diagram.nodes:
            parents, conf = model._inputs(v)
            need = 2 ** (len(parents) + len(conf))
            if len(p1[v]) != need:
                raise ConfigError(
                    f"{where}.p1.{v} has {len(p1[v])} entries, but {v} has parents {parents} and "
                    f"{len(conf)} confounder(s): give 2^{len(parents) + len(conf)} = {need} "
                    "(first column most significant)"
                )
        for name, values in [("p_u", p_u), *((f"p1.{v}", p1[v]) for v in diagram.nodes)]:
            bad = [p for p in values if not 0.0 <= p <= 1.0]
            if bad:
                raise ConfigError(f"{where}.{name} holds {bad[0]}, not a probability; use values in [0, 1]")
        return cls(diagram, model.p_u, {v: np.asarray(p1[v], dtype=float) for v in diagram.nodes})

    @classmethod
    def from_dict(cls, diagram: CausalDiagram, d: Mapping) -> ConfoundedCPT:
        """Inverse of :meth:`to_dict`."""
        return cls(diagram, tuple(d["p_u"]), {v: np.asarray(t, dtype=float) for v, t in d["p1"].items()})

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
            parents, conf = self._inputs(v)
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
            parents, conf = self._inputs(v)
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
