"""A contextual causal environment: user context, arm, intermediate variables, linear reward.

Each round a user with context x_t arrives, the learner chooses an arm (values of the arm
features A), the intermediate variables I are drawn from their conditional probability tables in
topological order, and the reward is a linear function of variable values plus Gaussian noise:

    I_k = inverse CDF of P(I_k | pa(I_k)) at u_k,     R = sum_v c_v v + sigma Phi^{-1}(u_R)

The uniforms (u_1, ..., u_m, u_R) of a round are drawn from the environment stream *before* the
arm is known, so every algorithm meets the same exogenous noise (common random numbers; fairness
docs/papers/fairness.md#fairness-simulator). Users arrive from each seed's keyed ``context`` stream, shared by
all algorithms of an experiment: i.i.d. contexts from P(X) (Email Campaign), or every online user
once in an order permuted per seed (Adult-Video). The exact means ``mu[c, a]`` and counterfactual discrepancies
``delta_true[c, a]`` are computed elsewhere (exactly, from the SCM) and carried along for regret
and auditing; :meth:`CausalEnvironment.pull` never uses them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from scipy.special import ndtri

from causal_bandits.bandits.cells import cell_ids
from causal_bandits.bandits.engine import Streams


@dataclass(frozen=True)
class IntermediateNode:
    """A variable drawn from its CPT: ``cumulative[parent_config, j] = P(V <= value j)``."""

    column: int
    parent_columns: tuple[int, ...]
    parent_cards: tuple[int, ...]
    cumulative: np.ndarray  # (n_parent_configs, card - 1)

    def draw(self, values: np.ndarray, u: np.ndarray) -> np.ndarray:
        config = cell_ids(values[:, list(self.parent_columns)], self.parent_cards)
        return (u[:, None] >= self.cumulative[config]).sum(axis=1)


@dataclass
class CausalEnvironment:
    """Variables are columns of a value row (domain indices); ``domains[v]`` gives their values."""

    variables: tuple[str, ...]
    domains: tuple[tuple[float, ...], ...]
    context_values: np.ndarray  # (n_contexts, n_user_features): domain indices
    context_columns: tuple[int, ...]
    arm_values: np.ndarray  # (n_arms, n_arm_features)
    arm_columns: tuple[int, ...]
    nodes: tuple[IntermediateNode, ...]
    reward_coef: np.ndarray  # (n_vars,) coefficient of each variable's value
    sigma: float
    mu: np.ndarray  # (n_contexts, n_arms) exact E[R | do(a), x]
    delta_true: np.ndarray  # (n_contexts, n_arms) exact counterfactual discrepancy
    context_probs: np.ndarray | None = None  # P(X) for i.i.d. users (Email)
    user_contexts: np.ndarray | None = None  # context id of every online user (Adult-Video)

    @property
    def n_arms(self) -> int:
        return self.mu.shape[1]

    @property
    def means(self) -> np.ndarray:
        return self.mu

    @cached_property
    def _levels(self) -> np.ndarray:
        """Domain values padded to a (n_vars, max_card) table."""
        width = max(len(d) for d in self.domains)
        return np.array([list(d) + [0.0] * (width - len(d)) for d in self.domains], dtype=float)

    @property
    def noise_width(self) -> int:
        return len(self.nodes) + 1

    def reset(self, streams: Streams, horizon: int) -> None:
        """Draw each seed's user sequence (context ids, (n_seeds, horizon)) from its ``context`` stream."""
        sequences = []
        for rng in streams.generators("context"):
            if self.user_contexts is not None:
                sequences.append(self.user_contexts[rng.permutation(len(self.user_contexts))[:horizon]])
            else:
                sequences.append(rng.choice(len(self.context_values), horizon, p=self.context_probs))
        self._users = np.stack(sequences)

    def contexts(self, t: int, noise: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return self._users[rows, t - 1]

    def pull(
        self, t: int, contexts: np.ndarray, arms: np.ndarray, uniforms: np.ndarray, observe: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rewards (n,), value rows (n, n_vars)) for each seed's context and arm."""
        n = contexts.shape[0]
        values = np.zeros((n, len(self.variables)), dtype=np.int64)
        values[:, list(self.context_columns)] = self.context_values[contexts]
        values[:, list(self.arm_columns)] = self.arm_values[arms]
        for k, node in enumerate(self.nodes):
            values[:, node.column] = node.draw(values, uniforms[:, k])
        level = self._levels[np.arange(len(self.variables)), values]  # (n, n_vars) variable values
        rewards = self.sigma * ndtri(uniforms[:, -1])
        for v in np.flatnonzero(self.reward_coef):  # term by term: no BLAS, so bit-identical for any n
            rewards = rewards + self.reward_coef[v] * level[:, v]
        return rewards, values

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> CausalEnvironment:
        """The environment of an experiment instance document (see ``papers/fairness/instance``)."""
        names = [v["name"] for v in doc["variables"]]
        col = {name: i for i, name in enumerate(names)}
        cards = {v["name"]: len(v["domain"]) for v in doc["variables"]}
        nodes = tuple(
            IntermediateNode(
                column=col[node["name"]],
                parent_columns=tuple(col[p] for p in node["parents"]),
                parent_cards=tuple(cards[p] for p in node["parents"]),
                cumulative=np.cumsum(np.asarray(node["cpt"], dtype=float), axis=1)[:, :-1],
            )
            for node in doc["intermediate"]
        )
        coef = np.zeros(len(names))
        for name, c in doc["reward"]["coef"].items():
            coef[col[name]] = c
        return cls(
            variables=tuple(names),
            domains=tuple(tuple(v["domain"]) for v in doc["variables"]),
            context_values=np.asarray(doc["contexts"], dtype=np.int64),
            context_columns=_columns(col, doc["user_features"]),
            arm_values=np.asarray(doc["arms"], dtype=np.int64),
            arm_columns=_columns(col, doc["arm_features"]),
            nodes=nodes,
            reward_coef=coef,
            sigma=float(doc["reward"]["sigma"]),
            mu=np.asarray(doc["mu"], dtype=float),
            delta_true=np.asarray(doc["delta_true"], dtype=float),
            context_probs=np.asarray(doc["context_probs"]) if "users" not in doc else None,
            user_contexts=np.asarray(doc["users"]["context"]) if "users" in doc else None,
        )


def _columns(col: Mapping[str, int], names: Sequence[str]) -> tuple[int, ...]:
    return tuple(col[n] for n in names)
