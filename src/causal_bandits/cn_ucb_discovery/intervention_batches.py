"""What CN-UCB's discovery stage asks for and what it reads back (Lu, Meisami & Tewari 2021, §2.0 of our reading
(docs/papers/unknown_graph.md#unknown_graph-ambiguities)).

Every discovery algorithm (Alg. 3, 4, 7, 8, 9) is written as a Python generator: it yields a
:class:`Request` — ``Intervene(a, B)``, play a = do(node = value) (or do()) for B rounds and report
the values of ``observe`` — and receives an :class:`Estimate`: the mean of the B rewards and the
empirical law of every observed variable. Whoever drives it decides where the B samples come from
(a bandit environment, vectorised over seeds; or the exact laws, for noise-free tests). The tests
it applies to an estimate are the paper's:

* reward test RT(a): |R_hat - R_bar_a| > Delta / 2, R_hat the mean of the stage-0 do() batch;
* effect test ET(Z -> Y): |P(Y = y) - P_hat(Y = y | do(Z = z))| > eps / 2 for some y.

:class:`Reading` collects the switches between the pseudo-code as printed and our corrected
(docs/papers/unknown_graph.md#unknown_graph-ambiguities) reading (A3-A8); the defaults are the corrected reading.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from causal_bandits.cn_ucb_discovery.central_node import CENTRAL_RULES
from causal_bandits.cn_ucb_discovery.essential_graph import COMPONENT_ORDERS
from causal_bandits.errors import ConfigError

WEIGHT_UPDATES = ("intersect", "literal")
CLIQUE_RULES = ("corrected", "literal")


@dataclass(frozen=True)
class Request:
    """Intervene(do(node = value), B) observing ``observe``; node = value = -1 is do()."""

    node: int
    value: int
    observe: tuple[int, ...]
    stage: str  # obs | s1 | s2_center | s2_child | s1_clique | s2_clique | s2_child_clique


@dataclass(frozen=True)
class Estimate:
    """The B-sample answer: mean reward and P_hat(Y = y | a) per observed Y (rows follow ``observe``)."""

    reward_mean: float
    freqs: np.ndarray  # (len(observe), domain)


@dataclass(frozen=True)
class RewardTests:
    """RT and ET with the inputs the algorithms receive (R_hat, Delta, eps, observational marginals)."""

    r_hat: float
    Delta: float
    eps: float
    marginals: np.ndarray  # (n, domain)

    def reward(self, est: Estimate) -> bool:
        """RT(a): |R_hat - R_bar_a| > Delta / 2."""
        return abs(self.r_hat - est.reward_mean) > self.Delta / 2

    def effect(self, est: Estimate, row: int, y: int) -> bool:
        """ET(Z -> Y) on one batch: some value y' with |P(Y = y') - P_hat(Y = y' | a)| > eps / 2."""
        return bool(np.abs(self.marginals[y] - est.freqs[row]).max() > self.eps / 2)


@dataclass(frozen=True)
class Reading:
    """How to read the pseudo-code where it loops or answers wrongly
    (docs/papers/unknown_graph.md#unknown_graph-ambiguities; defaults: corrected).

    * ``weight_update`` (A4): ``intersect`` reads every "q <- 1 on S" as cand <- cand & S; ``literal``
      resets the weights to 1 on S (reviving eliminated nodes) and renormalises.
    * ``central`` (A3): see :mod:`causal_bandits.cn_ucb_discovery.central_node`.
    * ``final_return`` (A5): Alg. 4 / Alg. 8 return the last candidate when their loop ends; the paper
      has no such return, so ``False`` returns nothing (fall back to UCB on all arms).
    * ``break_alg4`` / ``break_alg8`` (A5): stop at the first child branch whose intervention moves the
      reward (Alg. 8 has the break, Alg. 4 does not: without it the last such child wins).
    * ``component_order`` (A7): see
      :meth:`causal_bandits.cn_ucb_discovery.essential_graph.EssentialGraph.component_order`.
    * ``clique_rules`` (A8): ``corrected`` leaves the separators shared with "up" neighbours out of
      Alg. 7's reward test, tests only Cc minus its parent clique in Alg. 8, drops Cc in Alg. 8's "up"
      case and intervenes on C_Y minus Cc for a child clique; ``literal`` follows the printed rules.
    """

    weight_update: str = "intersect"
    central: str = "lowest_index"
    final_return: bool = True
    break_alg4: bool = False
    break_alg8: bool = True
    component_order: str = "reverse_topological"
    clique_rules: str = "corrected"

    def __post_init__(self) -> None:
        for name, allowed in (
            ("weight_update", WEIGHT_UPDATES),
            ("central", CENTRAL_RULES),
            ("component_order", COMPONENT_ORDERS),
            ("clique_rules", CLIQUE_RULES),
        ):
            if getattr(self, name) not in allowed:
                raise ConfigError(f"cnucb.{name} = {getattr(self, name)!r}; use one of {list(allowed)}")

    @classmethod
    def literal(cls) -> Reading:
        """Every switch at the printed pseudo-code (Alg. 6's walk with ">= 1/2" included)."""
        return cls(
            weight_update="literal",
            central="walk_literal",
            final_return=False,
            break_alg4=False,
            break_alg8=True,
            component_order="index",
            clique_rules="literal",
        )


class NonTermination(RuntimeError):
    """A discovery stage ran past its round cap 4 ceil(log2 n) + 8
    (docs/papers/unknown_graph.md#unknown_graph-run-protocol)."""


def round_cap(size: int) -> int:
    """docs/papers/unknown_graph.md#unknown_graph-run-protocol loop guard for a stage searching ``size`` nodes or
    cliques."""
    return 4 * int(np.ceil(np.log2(max(size, 1)))) + 8


def support(q: dict[Any, Any]) -> set:
    return {v for v, w in q.items() if w > 0}


def update_weights(q: dict[Any, Any], keep: set, reading: Reading, untouched: frozenset = frozenset()) -> dict:
    """q_{t+1} from q_t after the pseudo-code's "q <- 1 on keep, q <- 0 on the rest".

    ``intersect``: uniform on cand & keep. ``literal``: 1 on ``keep`` (eliminated nodes come back),
    q_t on ``untouched`` (nodes the printed update assigns nothing), 0 elsewhere, then renormalised
    with exact fractions (all zero stays all zero).
    """
    if reading.weight_update == "intersect":
        return {v: 1 if (w > 0 and v in keep) else 0 for v, w in q.items()}
    new = {v: (Fraction(1) if v in keep else Fraction(w) if v in untouched else Fraction(0)) for v, w in q.items()}
    total = sum(new.values())
    return {v: w / total if total else Fraction(0) for v, w in new.items()}


@dataclass
class Step:
    """One round of a discovery stage, as Figure 1 and the events table need it."""

    stage: str
    component: int
    central: Any
    interventions: list[tuple[int, int, float, bool]]  # (node, value, reward mean, RT fired)
    down: tuple = ()
    cand_before: tuple = ()
    cand_after: tuple = ()
    note: str = ""


@dataclass
class DiscoveryResult:
    """What CN-UCB's stages 0-2 found, to be written beside the truth."""

    target: tuple[int, ...] | None  # (X_hat,) for trees/forests, the clique C0 for general graphs
    steps: list[Step] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    nonterminating: bool = False
    stage1_subtree: tuple | None = None

    @property
    def central_sequence(self) -> list[Any]:
        return [s.central for s in self.steps if s.stage != "obs"]

    def batches_per_stage(self) -> dict[str, int]:
        return dict(Counter(r.stage for r in self.requests))

    def to_document(self, B: int, truth: int | None = None) -> dict[str, Any]:
        """JSON-ready summary (docs/papers/unknown_graph.md#unknown_graph-documents): what was found, beside the true
        X_R when given."""
        doc: dict[str, Any] = {
            "target": None if self.target is None else [int(v) for v in self.target],
            "nonterminating": self.nonterminating,
            "discovery_rounds": B * len(self.requests),
            "rounds_per_stage": {k: B * v for k, v in self.batches_per_stage().items()},
            "central_sequence": [_plain(c) for c in self.central_sequence],
            "stage1_subtree": None if self.stage1_subtree is None else [_plain(c) for c in self.stage1_subtree],
            "B": int(B),
        }
        if truth is not None:
            doc.update(XR_true=int(truth), correct=self.target is not None and truth in self.target)
        return doc


def _plain(x: Any) -> Any:
    """Nodes and cliques as JSON values (ints, lists of ints)."""
    return [int(v) for v in x] if isinstance(x, tuple) else (None if x is None else int(x))
