"""Intervention arms on an XOR-Bernoulli SCM that report the value of every variable.

The environment of the z² solvers (AAAI-19 §4: pulling arm x returns a full sample v ~ P_x(V)),
on the one engine's Environment interface: ``pull(t, contexts, arms, noise)`` returns the rewards
(the reward variable's value, float) and ``values`` (n_seeds, n_vars), ints in ``variables`` order
(the diagram's sorted nodes). All variables are computed from the same uniforms, so the reward is
exactly what :class:`~causal_bandits.scm.xor_bernoulli.InterventionArms` would give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM


class InterventionValues:
    """Arms ``arms[i]`` (variable -> value; empty = observational) on ``scm``, reward ``target``."""

    def __init__(self, scm: XorBernoulliSCM, target: str, arms: Sequence[Mapping[str, int]]):
        self.scm, self.target, self.arms = scm, target, tuple(arms)
        self.variables = scm.diagram.nodes
        self.intervened = np.array([[v in a for v in self.variables] for a in self.arms], dtype=bool)
        self.settings = np.array([[bool(a.get(v, 0)) for v in self.variables] for a in self.arms], dtype=bool)
        self.means = np.array([[scm.interventional_mean(target, a) for a in self.arms]])
        self.noise_width = len(scm.exogenous)
        self.n_arms = len(self.arms)

    def contexts(self, t: int, noise: np.ndarray) -> None:
        return None

    def pull(self, t: int, contexts, arms: np.ndarray, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = np.stack(
            [self.scm.sample(v, noise, self.intervened[arms], self.settings[arms]) for v in self.variables], axis=1
        ).astype(np.int64)
        return values[:, self.variables.index(self.target)].astype(float), values
