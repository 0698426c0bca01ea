"""Binary SCMs of the cpe paper as data: nodes, hidden nodes and one parametric mechanism per node.

The paper's causal graph is G = (X ∪ {Y} ∪ U, E) with binary observed X, reward Y and hidden U
(cpe §2, "Causal Models"). A node's mechanism gives P(V = 1 | pa(V)); the designed instances
(docs/papers/cpe.md#cpe-experiments) need four forms, none of which is a table (Y of E1 has 64 parents):

    linear    intercept + Σ_i w_i pa_i, times Π_i (1 − d_i pa_i) when ``damping`` d is given (E2)
    logistic  f(intercept + Σ_i w_i pa_i), f(z) = 1 / (1 + e^{−z})        (BGLM, cpe §2 and §4)
    max       intercept + scale · max_i w_i pa_i, w_i >= 0                  (E5)

(a parentless ``linear`` node is a Bernoulli(intercept) root). :meth:`BinarySCM.joint` enumerates
the whole model, hidden nodes included, under any intervention: the brute-force ground truth that
the families' closed forms are tested against. :meth:`BinarySCM.marginal` enumerates only the
ancestors of a small node set, which is how q^(G) (Eq. 15) is computed exactly on large instances.
Enumerating a parametric SCM is done by hand here: pgmpy needs full tables, which a 64-parent Y
cannot have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from scipy.special import expit

from causal_bandits.errors import ConfigError
from causal_bandits.scm.cpt import configurations

KINDS = ("linear", "logistic", "max")
#: Rounding slack of the [0, 1] check (0.15 − 0.10 − 0.05 is −2.8e-17 in floating point).
ROUNDING = 1e-12
#: Largest number of nodes that :meth:`BinarySCM.joint` enumerates (2**22 rows).
MAX_ENUMERATED = 22


@dataclass(frozen=True)
class Mechanism:
    """P(V = 1 | pa(V)) for one node; ``weights`` (and ``damping``) are aligned with ``parents``."""

    kind: str
    parents: tuple[str, ...] = ()
    weights: tuple[float, ...] = ()
    intercept: float = 0.0
    damping: tuple[float, ...] = ()
    scale: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"mechanism kind {self.kind!r} is unknown; use one of {list(KINDS)}")
        if len(self.weights) != len(self.parents):
            raise ConfigError(
                f"mechanism with parents {list(self.parents)} has {len(self.weights)} weights; "
                "give one weight per parent"
            )
        if self.damping and (self.kind != "linear" or len(self.damping) != len(self.parents)):
            raise ConfigError("damping needs a linear mechanism and one factor per parent")
        if self.kind == "max" and (min(self.weights, default=0.0) < 0 or self.scale < 0):
            raise ConfigError("a max mechanism needs non-negative weights and scale")

    @cached_property
    def effective(self) -> np.ndarray:
        """Positions of the parents that can change P(V = 1) (non-zero weight or damping)."""
        d = np.asarray(self.damping or (0.0,) * len(self.parents), dtype=float)
        return np.flatnonzero((np.asarray(self.weights, dtype=float) != 0) | (d != 0))

    @cached_property
    def _effective_weights(self) -> np.ndarray:
        return np.asarray(self.weights, dtype=float)[self.effective]

    def probability(self, pa: np.ndarray) -> np.ndarray:
        """P(V = 1) for each row of parent values ``pa`` (rows × |parents|, 0/1).

        Row-wise reductions only, so a row's value does not depend on the other rows.
        """
        eff, w = self.effective, self._effective_weights
        x = pa[:, eff]
        if self.kind == "max":
            return np.clip(self.intercept + self.scale * (x * w).max(axis=1, initial=0.0), 0.0, 1.0)
        z = self.intercept + (x * w).sum(axis=1)
        if self.kind == "logistic":
            return expit(z)
        if self.damping:
            z = z * (1.0 - x * np.asarray(self.damping, dtype=float)[eff]).prod(axis=1)
        return np.clip(z, 0.0, 1.0)  # removes rounding only: the model checks the range

    def extremes(self) -> tuple[float, float]:
        """(min, max) of P(V = 1 | pa) over all parent values, exactly.

        Linear and logistic forms are monotone in each parent, max forms too (weights >= 0); a
        damped linear form is a product of two non-negative factors on disjoint parents (E2) or
        is enumerated (at most 20 parents).
        """
        w = np.asarray(self.weights, dtype=float)
        if self.kind == "max":
            return float(self.intercept), float(self.intercept + self.scale * max(w.max(initial=0.0), 0.0))
        lo = self.intercept + w[w < 0].sum()
        hi = self.intercept + w[w > 0].sum()
        if self.kind == "logistic":
            return float(expit(lo)), float(expit(hi))
        if not self.damping:
            return float(lo), float(hi)
        d = np.asarray(self.damping, dtype=float)
        if not (w.astype(bool) & d.astype(bool)).any() and lo >= 0 and (d <= 1).all():
            damp = np.where(d > 0, 1.0 - d, 1.0).prod(), np.where(d < 0, 1.0 - d, 1.0).prod()
            return float(lo * min(damp)), float(hi * max(damp))
        if len(self.parents) > 20:
            raise ConfigError("a damped linear mechanism with shared parents needs at most 20 parents")
        p = self.probability(configurations(len(self.parents)))
        return float(p.min()), float(p.max())

    def to_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "kind": self.kind,
            "parents": list(self.parents),
            "weights": list(self.weights),
            "intercept": self.intercept,
        }
        if self.damping:
            doc["damping"] = list(self.damping)
        if self.kind == "max":
            doc["scale"] = self.scale
        return doc

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> Mechanism:
        return cls(
            kind=doc["kind"],
            parents=tuple(doc.get("parents", ())),
            weights=tuple(float(w) for w in doc.get("weights", ())),
            intercept=float(doc.get("intercept", 0.0)),
            damping=tuple(float(d) for d in doc.get("damping", ())),
            scale=float(doc.get("scale", 1.0)),
        )


def bernoulli(p: float) -> Mechanism:
    """A parentless node with P(V = 1) = p."""
    return Mechanism("linear", intercept=float(p))


@dataclass(frozen=True)
class BinarySCM:
    """Binary nodes in a declared topological order (parents first), the hidden ones named, the reward.

    Observed variables are the non-hidden nodes other than the reward, in declared order; they are
    the columns of the environment's value rows. A declared order with every parent first makes the
    graph acyclic by construction and is the sampling order, so run jobs need no graph library
    (networkx is imported only by the graph queries of the instance and quantity stages).
    """

    nodes: tuple[str, ...]
    mechanisms: Mapping[str, Mechanism]
    hidden: frozenset[str] = field(default_factory=frozenset)
    reward: str = "Y"

    def __post_init__(self) -> None:
        if len(set(self.nodes)) != len(self.nodes):
            raise ConfigError("node names must be unique; rename the duplicate node")
        if set(self.mechanisms) != set(self.nodes):
            missing = sorted(set(self.nodes) ^ set(self.mechanisms))
            raise ConfigError(f"node {missing[0]!r} needs exactly one mechanism; give one per node")
        if self.reward not in self.nodes or self.reward in self.hidden:
            raise ConfigError(f"the reward {self.reward!r} must be an observed node")
        unknown = sorted(self.hidden - set(self.nodes))
        if unknown:
            raise ConfigError(f"hidden node {unknown[0]!r} is not a node; list it under nodes")
        seen: set[str] = set()
        for v in self.nodes:
            mech = self.mechanisms[v]
            for p in mech.parents:
                if p not in self.nodes:
                    raise ConfigError(f"parent {p!r} of {v} is not a node; use one of {list(self.nodes)}")
                if p not in seen:
                    raise ConfigError(
                        f"parent {p!r} of {v} is listed after it; list the nodes in a topological order (parents first)"
                    )
                if p == self.reward:
                    raise ConfigError(f"the reward {self.reward} cannot be a parent (of {v}); it has no children")
            lo, hi = mech.extremes()
            if lo < -ROUNDING or hi > 1.0 + ROUNDING:
                bad = lo if lo < 0.0 else hi
                raise ConfigError(
                    f"the weights of {v} drive P({v}=1 | parents) to {bad:.6g}, outside [0, 1]; "
                    "choose an intercept and weights whose sums stay within [0, 1]"
                )
            seen.add(v)

    @cached_property
    def graph(self):
        """The causal DAG (a networkx DiGraph), hidden nodes included."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self.nodes)
        g.add_edges_from((p, v) for v in self.nodes for p in self.mechanisms[v].parents)
        return g

    @property
    def order(self) -> tuple[str, ...]:
        """A topological order: the declared one."""
        return self.nodes

    @cached_property
    def observed(self) -> tuple[str, ...]:
        """Observed variables X (not hidden, not the reward), in declared order."""
        return tuple(v for v in self.nodes if v not in self.hidden and v != self.reward)

    def parents(self, v: str) -> tuple[str, ...]:
        return self.mechanisms[v].parents

    def ancestral_closure(self, ws: Iterable[str]) -> tuple[str, ...]:
        """``ws`` and all their ancestors, in topological order."""
        import networkx as nx

        keep = set(ws)
        for w in list(keep):
            keep |= nx.ancestors(self.graph, w)
        return tuple(v for v in self.order if v in keep)

    def joint(
        self, intervention: Mapping[str, int] | None = None, nodes: Sequence[str] | None = None
    ) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
        """Brute force: every configuration of ``nodes`` (default: all) and its probability.

        ``nodes`` must be ancestrally closed. Intervened nodes are fixed to their values (their
        mechanism is cut). Returns (names in topological order, configurations (2**N, N), probabilities).
        """
        intervention = dict(intervention or {})
        names = self.order if nodes is None else tuple(v for v in self.order if v in set(nodes))
        if len(names) > MAX_ENUMERATED:
            raise ConfigError(
                f"enumerating {len(names)} nodes is too large (at most {MAX_ENUMERATED}); use the family's closed form"
            )
        col = {v: i for i, v in enumerate(names)}
        configs = configurations(len(names))
        prob = np.ones(configs.shape[0])
        for v in names:
            x = configs[:, col[v]]
            if v in intervention:
                prob *= x == intervention[v]
                continue
            mech = self.mechanisms[v]
            try:
                pa = configs[:, [col[p] for p in mech.parents]]
            except KeyError:
                raise ValueError(f"nodes {list(names)} are not ancestrally closed at {v}") from None
            p1 = mech.probability(pa)
            prob *= np.where(x == 1, p1, 1.0 - p1)
        return names, configs, prob

    def interventional_mean(self, intervention: Mapping[str, int]) -> float:
        """E[Y | do(intervention)] by enumerating every node, hidden ones included (brute force)."""
        names, configs, prob = self.joint(intervention)
        return float(prob @ configs[:, names.index(self.reward)])

    def marginal(self, ws: Sequence[str]) -> np.ndarray:
        """Observational P(W = w) over w ∈ {0,1}^|W| (first of ``ws`` most significant), exactly.

        Enumerates only the ancestral closure of W, so it is cheap for small W on large models.
        """
        names, configs, prob = self.joint(nodes=self.ancestral_closure(ws))
        cols = [names.index(w) for w in ws]
        index = configs[:, cols] @ (1 << np.arange(len(ws))[::-1]) if ws else np.zeros(len(prob), dtype=np.int64)
        return np.bincount(index, weights=prob, minlength=2 ** len(ws))

    def to_document(self) -> dict[str, Any]:
        return {
            "nodes": list(self.nodes),
            "hidden": [v for v in self.nodes if v in self.hidden],
            "reward": self.reward,
            "mechanisms": {v: self.mechanisms[v].to_document() for v in self.nodes},
        }

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> BinarySCM:
        mechanisms = doc.get("mechanisms", {})
        return cls(
            nodes=tuple(doc["nodes"]),
            mechanisms={v: Mechanism.from_document(m) for v, m in mechanisms.items()},
            hidden=frozenset(doc.get("hidden", ())),
            reward=doc.get("reward", "Y"),
        )
