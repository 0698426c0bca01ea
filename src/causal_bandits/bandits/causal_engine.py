"""The round loop of the contextual causal bandits of Huang, Zhang & Wu (AAAI-22), all seeds at once.

Protocol (fairness SPEC §1.1): each round t a user with context x_t arrives, the policy picks an
arm, the environment reveals the reward *and* the values of all variables (hence the value of the
d-separation set W), and the policy updates. The fairness auditor inspects every decision before
the update. The nonmanip engine (:mod:`causal_bandits.bandits.engine`) has no contexts and no
intermediate observations, so this loop is separate; its randomness follows the same rules:

* the user sequence is given (drawn by the caller from the keyed ``context`` stream);
* the environment reads the stream ``(paper, experiment, seed, "environment")`` — the same for
  every algorithm of an experiment (common random numbers);
* the policy reads ``(paper, experiment, seed, "policy/<name>")`` streams, whose names do not
  depend on the algorithm, so two policies that compute the same scores make the same choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from causal_bandits.bandits.audit import FairnessAuditor
from causal_bandits.bandits.causal_environment import CausalEnvironment
from causal_bandits.rng import SeedStreams


class ContextualPolicy(Protocol):
    """What the loop needs from a contextual bandit algorithm."""

    name: str

    def reset(self, n_seeds: int, stream: Callable[[str], SeedStreams]) -> None:
        """Forget everything; ``stream(name)`` returns the policy's keyed uniform stream ``name``."""

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        """Arm per seed at round ``t`` (1-based) for the seeds' contexts (int arrays, (n_seeds,))."""

    def update(self, contexts: np.ndarray, arms: np.ndarray, values: np.ndarray, rewards: np.ndarray) -> None:
        """Observe value rows ``values`` (n_seeds, n_vars) and ``rewards`` of the played arms."""


@dataclass
class RunRecord:
    """Every round of every seed; arrays of shape (n_seeds, horizon) unless noted."""

    seeds: np.ndarray  # (n_seeds,)
    contexts: np.ndarray
    arms: np.ndarray
    w_cells: np.ndarray  # observed cell of the auditor's W
    rewards: np.ndarray
    regret: np.ndarray  # mu*(x_t) - mu_{a_t}(x_t), exact (Eq. 13)
    delta_true: np.ndarray  # exact counterfactual discrepancy of the chosen arm (signed)
    delta_hat: np.ndarray  # auditor's Delta_hat of the chosen arm
    ucb_delta: np.ndarray  # auditor's UCB_Delta of the chosen arm
    min_ucb_delta: np.ndarray  # auditor's smallest UCB_Delta over arms
    certified: np.ndarray | None  # F-UCB only: arm came from a non-empty conservative fair set
    n_fair: np.ndarray | None  # F-UCB only: size of that set


def simulate(
    policy: ContextualPolicy,
    env: CausalEnvironment,
    auditor: FairnessAuditor,
    contexts: np.ndarray,
    *,
    paper: str,
    experiment: str,
    seeds: Sequence[int],
    block: int = 4096,
) -> RunRecord:
    """Run ``policy`` for every seed over the user sequence ``contexts`` (n_seeds, horizon)."""
    seeds = np.asarray(seeds, dtype=np.int64)
    n, horizon = contexts.shape
    if n != seeds.size:
        raise ValueError(f"contexts has {n} rows for {seeds.size} seeds")
    env_stream = SeedStreams(paper, experiment, seeds, "environment", block)
    policy.reset(n, lambda name: SeedStreams(paper, experiment, seeds, f"policy/{name}", block))
    auditor.reset(n)
    fair = hasattr(policy, "certified")
    shape = (n, horizon)
    rec = RunRecord(
        seeds=seeds,
        contexts=contexts,
        arms=np.empty(shape, dtype=np.int64),
        w_cells=np.empty(shape, dtype=np.int64),
        rewards=np.empty(shape),
        regret=np.empty(shape),
        delta_true=np.empty(shape),
        delta_hat=np.empty(shape),
        ucb_delta=np.empty(shape),
        min_ucb_delta=np.empty(shape),
        certified=np.empty(shape, dtype=bool) if fair else None,
        n_fair=np.empty(shape, dtype=np.int64) if fair else None,
    )
    mu_star = env.mu.max(axis=1)
    for t in range(1, horizon + 1):
        i = t - 1
        ctx = contexts[:, i]
        arms = policy.select(t, ctx)
        rec.delta_hat[:, i], rec.ucb_delta[:, i], rec.min_ucb_delta[:, i] = auditor.inspect(t, ctx, arms)
        values, rewards = env.pull(ctx, arms, env_stream.uniform(env.noise_width))
        policy.update(ctx, arms, values, rewards)
        rec.w_cells[:, i] = auditor.update(values, rewards)
        rec.arms[:, i], rec.rewards[:, i] = arms, rewards
        if fair:
            rec.certified[:, i], rec.n_fair[:, i] = policy.certified, policy.n_fair
    rec.regret = mu_star[contexts] - env.mu[contexts, rec.arms]
    rec.delta_true = env.delta_true[contexts, rec.arms]
    return rec
