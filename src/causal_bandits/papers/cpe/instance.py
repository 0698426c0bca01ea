"""A cpe problem instance as one JSON document: SCM, action set, admissible sequences, exact means.

An instance holds the binary SCM (hidden nodes included), the actions in canonical order (arm 0 =
do()), one admissible sequence (Definition 3) or none per arm, the exact means μ_a and the exact
conditional means E[Y | S = s] (what the naive ablation estimates), both from the family's closed
form, the generator's name and arguments, and for a BGLM its link, constant node and the
constants κ, η of Assumptions 2-3. ``from_document`` rebuilds and validates the instance;
:func:`causal_bandits.papers.cpe.families.check_document` also checks that a document is what its
generator makes.

:meth:`CPEInstance.q_general` gives q^(G)_a = min_z P(S = s, Z_a = z) (Eq. 15; 0 without a
sequence, 1 for do()) exactly, enumerating the ancestors of S ∪ Z_a once per distinct set.
The ``policy_*`` methods translate names into the value columns the policies and the environment use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from causal_bandits.bandits.bglm_model import BGLMStructure, link
from causal_bandits.bandits.pure_exploration import Arm, ColumnSequence
from causal_bandits.errors import ConfigError
from causal_bandits.papers.cpe.actions import Action, canonical, make_action
from causal_bandits.papers.cpe.admissible import AdmissibleSequence, is_constant
from causal_bandits.papers.cpe.scm import BinarySCM

PAPER = "cpe"


@dataclass(frozen=True)
class CPEInstance:
    """One designed instance; ``link`` names f when the SCM is a BGLM (X1 ≡ 1 its constant node)."""

    family: str
    params: Mapping[str, Any]
    scm: BinarySCM
    actions: tuple[Action, ...]
    sequences: tuple[AdmissibleSequence | None, ...]
    mu: np.ndarray
    naive_mu: np.ndarray
    link: str | None = None
    constant: str | None = None
    kappa: float | None = None
    eta: float | None = None

    def __post_init__(self) -> None:
        scm = self.scm
        allowed = [v for v in scm.observed if v != self.constant]
        checked = canonical([make_action(a.as_dict(), allowed) for a in self.actions], scm.observed)
        if checked != tuple(self.actions):
            raise ConfigError(
                "actions must be unique and in canonical order (|S|, S, s) with do() first; regenerate the instance"
            )
        if (
            len(self.sequences) != len(self.actions)
            or len(self.mu) != len(self.actions)
            or len(self.naive_mu) != len(self.actions)
        ):
            raise ConfigError("give one admissible sequence (or null), one mean and one naive mean per action")
        for a, seq in zip(self.actions, self.sequences):
            if seq is None:
                continue
            if sorted(seq.order) != sorted(a.S):
                raise ConfigError(
                    f"the admissible sequence of {a.label} orders {list(seq.order)}, not its "
                    f"intervened variables {list(a.S)}"
                )
            unknown = [z for z in seq.Z if z not in scm.observed]
            if unknown:
                raise ConfigError(
                    f"the admissible sequence of {a.label} names {unknown[0]!r}, which is not an "
                    f"observed variable; use variables of {list(scm.observed)}"
                )
        if self.link is not None:
            link(self.link)
            if self.constant is None or not is_constant(self.scm, self.constant):
                raise ConfigError("a BGLM needs its constant node X1 (a parentless node with P = 1)")
            for v in scm.nodes:
                mech = scm.mechanisms[v]
                if v != self.constant and (self.constant not in mech.parents or mech.kind != self._kind()):
                    raise ConfigError(
                        f"BGLM node {v} must have the constant {self.constant} among its parents "
                        f"and a {self._kind()} mechanism"
                    )

    def _kind(self) -> str:
        return "logistic" if self.link == "logistic" else "linear"

    @property
    def n_arms(self) -> int:
        return len(self.actions)

    @property
    def labels(self) -> list[str]:
        return [a.label for a in self.actions]

    @property
    def columns(self) -> dict[str, int]:
        """Observed variable -> value column."""
        return {v: i for i, v in enumerate(self.scm.observed)}

    def policy_arms(self) -> list[Arm]:
        return policy_arms(self.scm, self.actions)

    def policy_sequences(self) -> list[ColumnSequence | None]:
        col = self.columns
        return [
            None if s is None else (tuple(col[v] for v in s.order), tuple(tuple(col[z] for z in b) for b in s.blocks))
            for s in self.sequences
        ]

    def bglm_structure(self) -> BGLMStructure:
        if self.link is None:
            raise ConfigError(f"instance family {self.family!r} is not a BGLM; CCPE-BGLM needs a BGLM instance")
        assert self.constant is not None  # __post_init__ rejects a BGLM without its constant node
        return bglm_structure(self.scm, self.constant, self.link)

    def bglm_theta(self) -> list[np.ndarray]:
        """θ*_X per non-constant node in the structure's order, each (1, |Pa(X)|)."""
        return bglm_theta(self.scm, self.constant)

    def q_general(self) -> np.ndarray:
        """q^(G)_a = min_z P(S = s, Z_a = z) (Eq. 15); 1 for do(), 0 for arms without a sequence."""
        q = np.zeros(self.n_arms)
        q[0] = 1.0
        minima: dict[tuple[tuple[str, ...], tuple[str, ...]], np.ndarray] = {}
        for a, (act, seq) in enumerate(zip(self.actions, self.sequences)):
            if a == 0 or seq is None:
                continue
            key = act.S, seq.Z
            if key not in minima:
                minima[key] = self._min_over_z(*key)
            q[a] = minima[key][act.s]
        return q

    def _min_over_z(self, S: tuple[str, ...], Z: tuple[str, ...]) -> np.ndarray:
        """min_z P(S = s, Z = z) for every s, indexed by s (the marginal over S ∪ Z enumerated once)."""
        table = self.scm.marginal([*S, *Z]).reshape((2,) * (len(S) + len(Z)))
        return table.min(axis=tuple(range(len(S), len(S) + len(Z))))

    def to_document(self) -> dict[str, Any]:
        return {
            "paper": PAPER,
            "family": self.family,
            "params": dict(self.params),
            "scm": self.scm.to_document(),
            "bglm": None
            if self.link is None
            else {"link": self.link, "constant": self.constant, "kappa": self.kappa, "eta": self.eta},
            "actions": [a.as_dict() for a in self.actions],
            "labels": self.labels,
            "sequences": [None if s is None else s.to_document() for s in self.sequences],
            "mu": [float(m) for m in self.mu],
            "naive_mu": [float(m) for m in self.naive_mu],
        }

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> CPEInstance:
        scm = BinarySCM.from_document(doc["scm"])
        bglm = doc.get("bglm") or {}
        constant = bglm.get("constant")
        allowed = [v for v in scm.observed if v != constant]
        actions = tuple(make_action(a, allowed) for a in doc["actions"])
        return cls(
            family=doc["family"],
            params=dict(doc.get("params", {})),
            scm=scm,
            actions=actions,
            sequences=tuple(None if s is None else AdmissibleSequence.from_document(s) for s in doc["sequences"]),
            mu=np.asarray(doc["mu"], dtype=float),
            naive_mu=np.asarray(doc["naive_mu"], dtype=float),
            link=bglm.get("link"),
            constant=constant,
            kappa=bglm.get("kappa"),
            eta=bglm.get("eta"),
        )


def policy_arms(scm: BinarySCM, actions: Sequence[Action]) -> list[Arm]:
    """Each action as (value column, value) pairs."""
    col = {v: i for i, v in enumerate(scm.observed)}
    return [tuple((col[v], x) for v, x in a.assignment) for a in actions]


def bglm_structure(scm: BinarySCM, constant: str, link_name: str) -> BGLMStructure:
    """The BGLM of ``scm`` in value columns (Y is the column after the observed X)."""
    col = {v: i for i, v in enumerate(scm.observed)}
    col[scm.reward] = len(scm.observed)
    nodes = [v for v in scm.order if v != constant]
    return BGLMStructure(
        n_columns=len(scm.observed),
        constant=col[constant],
        nodes=tuple(col[v] for v in nodes),
        parents=tuple(tuple(col[p] for p in scm.parents(v)) for v in nodes),
        link=link_name,
    )


def bglm_theta(scm: BinarySCM, constant: str | None) -> list[np.ndarray]:
    """θ*_X per non-constant node in topological order, each (1, |Pa(X)|)."""
    return [np.asarray(scm.mechanisms[v].weights, dtype=float)[None, :] for v in scm.order if v != constant]
