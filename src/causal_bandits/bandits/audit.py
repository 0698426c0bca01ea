"""The fairness auditor: a recorder that judges every decision of any algorithm the way F-UCB would.

docs/papers/fairness.md#fairness-auditor, docs/papers/fairness.md#fairness-a12-unfair): the paper reports "unfair
decisions" for UCB, C-UCB, D-UCB and Fair-LinUCB without saying how it judged them. The auditor is a cell estimator over
the experiment's d-separation set W fed with every run's observations; before each update it computes
F-UCB's UCB_Delta of the chosen arm (Eqs. 10-12, same counterfactual mode, radius and delta_t;
:mod:`causal_bandits.bandits.certificate`). A decision is *certified-unfair* at tau when that
UCB_Delta exceeds tau (F-UCB's own criterion, so for F-UCB these are exactly its uncertified
rounds); it is *truly unfair* when the exact counterfactual discrepancy of the SCM
(``env.delta_true``) exceeds tau. Counts are kept per seed for every tau of the config, so one run
of a tau-free algorithm serves every tau. For a policy that reports ``certified`` (F-UCB), the
auditor also counts its uncertified rounds (those where its conservative fair set was empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from causal_bandits.bandits.cells import CellEstimator, CellModel
from causal_bandits.bandits.certificate import certificate
from causal_bandits.bandits.engine import Environment, Policy, Step

if TYPE_CHECKING:
    from causal_bandits.bandits.causal_environment import CausalEnvironment
    from causal_bandits.bandits.fucb import FUCB

#: The summary columns the auditor adds (names or prefixes), declared to the run store.
COLUMNS = ("uncertified", "unfair_cert_tau", "unfair_true_tau")


def tau_column(kind: str, tau: float) -> str:
    """Summary column of an unfair-decision count: ``unfair_cert_tau0.1``, ``unfair_true_tau0.1``."""
    return f"unfair_{kind}_tau{tau:g}"


class FairnessAuditor:
    """Per-seed counts of unfair decisions at each tau, a recorder of the engine."""

    def __init__(self, model: CellModel, taus: Sequence[float], alpha_c: float = 1.0):
        self.model, self.taus, self.alpha_c = model, np.asarray(taus, dtype=float), float(alpha_c)

    def start(self, seeds: np.ndarray, horizon: int, env: Environment, policy: Policy) -> None:
        n = seeds.size
        self.estimator = CellEstimator(n, self.model.n_cells)
        self.delta_true, self.policy = np.abs(cast("CausalEnvironment", env).delta_true), policy
        self.cert = np.zeros((n, self.taus.size), dtype=np.int64)
        self.true = np.zeros((n, self.taus.size), dtype=np.int64)
        self.uncertified = np.zeros(n, dtype=np.int64) if hasattr(policy, "certified") else None

    def ucb_delta(self, t: int, contexts: np.ndarray, arms: np.ndarray) -> np.ndarray:
        """F-UCB's UCB_Delta of each seed's chosen arm, before this round's update (Eq. 12)."""
        _, ucb_delta = certificate(self.model, self.estimator, contexts, t, self.alpha_c)
        return ucb_delta[np.arange(arms.size), arms]

    def record(self, step: Step) -> None:
        fb = step.feedback
        assert fb.contexts is not None and fb.values is not None  # CausalEnvironment provides both
        ucb_delta = self.ucb_delta(step.t, fb.contexts, fb.arms)
        self.estimator.update(self.model.cell_of(fb.values), fb.rewards)
        self.cert[step.rows] += ucb_delta[:, None] > self.taus
        self.true[step.rows] += self.delta_true[fb.contexts, fb.arms][:, None] > self.taus
        if self.uncertified is not None:
            self.uncertified[step.rows] += ~cast("FUCB", self.policy).certified  # start() saw it has one

    def finish(self):
        summary = {} if self.uncertified is None else {"uncertified": self.uncertified}
        for j, tau in enumerate(self.taus):
            summary[tau_column("cert", tau)] = self.cert[:, j]
            summary[tau_column("true", tau)] = self.true[:, j]
        return None, {}, summary
