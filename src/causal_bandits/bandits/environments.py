"""Environments of the engine (:mod:`causal_bandits.bandits.engine`) that are not a paper's own SCM.

* :class:`ContextFree` — the no-context part of the Environment interface, for environments to
  inherit (nothing to prepare per job, no context per round).
* :class:`BernoulliArms` — independent Bernoulli arms, reward of arm a is ``u < means[a]``.
* :class:`ContextualBernoulli` — contexts drawn i.i.d. each round (or a fixed sequence), Bernoulli
  rewards with means per (context, arm) (Huang & Wu's contextual bandit, docs/papers/bounds.md#bounds-linucb).
* :class:`InterventionArms` — arms that are interventions do(X = x) on an SCM (Lee & Bareinboim's
  SCM-MAB), optionally observing every variable of each pull.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from causal_bandits import checks
from causal_bandits.bandits.engine import Streams
from causal_bandits.errors import ArgumentError, ArgumentTypeError

if TYPE_CHECKING:
    from causal_bandits.scm.confounded_cpt import ConfoundedCPT
    from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM


class ContextFree:
    """Environment methods for a bandit without contexts."""

    def reset(self, streams: Streams, horizon: int) -> None:
        """Nothing to prepare per job."""

    def contexts(self, t: int, noise: np.ndarray, rows: np.ndarray) -> None:
        return None


@dataclass(frozen=True)
class BernoulliArms(ContextFree):
    """Independent Bernoulli arms: the reward of arm a is ``u < means[a]`` (one uniform per round).

    Parameters
    ----------
    means : numpy.ndarray
        The arms' success probabilities, each in [0, 1].
    noise_width : int, optional
        Uniforms read per seed and round (the first decides the reward).
    """

    means: np.ndarray
    noise_width: int = 1

    def __post_init__(self) -> None:
        """At least one arm, each mean a probability (one-line :class:`~causal_bandits.errors.ArgumentError`)."""
        means = checks.probabilities(self.means, "BernoulliArms(means)")
        if means.ndim != 1:
            raise ArgumentError(f"BernoulliArms(means) has shape {means.shape}; give one mean per arm (a flat list)")
        object.__setattr__(self, "means", means)
        checks.count(self.noise_width, "BernoulliArms(noise_width)")

    @property
    def n_arms(self) -> int:
        return len(self.means)

    def pull(
        self, t: int, contexts: None, arms: np.ndarray, noise: np.ndarray, observe: np.ndarray | None = None
    ) -> tuple[np.ndarray, None]:
        return (noise[:, 0] < self.means[arms]).astype(np.int8), None


@dataclass(frozen=True)
class ContextualBernoulli:
    """Contexts i.i.d. from ``context_probs``; arm a in context k pays 1{V_a < means[k, a]}.

    Each round takes 1 + n_arms uniforms per seed: the context (inverse CDF of the first), then
    one V per arm, so the rewards of all arms are fixed before the policy acts. With
    ``fixed_contexts`` the contexts are that sequence instead (the same for every seed; the first
    uniform is still read, so the reward uniforms do not depend on the choice).

    Parameters
    ----------
    context_probs : numpy.ndarray
        P(context = k), (n_contexts,), summing to 1.
    means : numpy.ndarray
        Success probability of every arm in every context, (n_contexts, n_arms).
    fixed_contexts : numpy.ndarray, optional
        A context sequence (ids, one per round) to use instead of drawing them.
    """

    context_probs: np.ndarray
    means: np.ndarray  # (n_contexts, n_arms)
    fixed_contexts: np.ndarray | None = None

    def __post_init__(self) -> None:
        """``context_probs`` a distribution, ``means`` one probability per (context, arm), ``fixed_contexts``
        context ids (one-line :class:`~causal_bandits.errors.ArgumentError`)."""
        probs = checks.distribution(self.context_probs, "ContextualBernoulli(context_probs)")
        means = checks.probabilities(self.means, "ContextualBernoulli(means)")
        if means.ndim != 2 or means.shape[0] != probs.size or means.shape[1] == 0:
            raise ArgumentError(
                f"ContextualBernoulli(means) has shape {means.shape}; give one row per context ({probs.size}) "
                "and one column per arm (at least one)"
            )
        object.__setattr__(self, "context_probs", probs)
        object.__setattr__(self, "means", means)
        if self.fixed_contexts is not None:
            ids = np.asarray(self.fixed_contexts)
            if ids.ndim != 1 or ids.dtype.kind not in "iu" or ((ids < 0) | (ids >= probs.size)).any():
                raise ArgumentError(
                    f"ContextualBernoulli(fixed_contexts) must be context ids 0..{probs.size - 1}, one per round"
                )

    @property
    def n_arms(self) -> int:
        return self.means.shape[1]

    @property
    def noise_width(self) -> int:
        return 1 + self.n_arms

    @cached_property
    def _cdf(self) -> np.ndarray:
        """Context CDF without its last point (so a uniform maps to at most the last context)."""
        return np.cumsum(self.context_probs)[:-1]

    def reset(self, streams: Streams, horizon: int) -> None:
        """Nothing to prepare per job."""

    def contexts(self, t: int, noise: np.ndarray, rows: np.ndarray) -> np.ndarray:
        if self.fixed_contexts is None:
            return np.searchsorted(self._cdf, noise[:, 0], side="right")
        return np.full(noise.shape[0], self.fixed_contexts[t - 1])

    def pull(
        self, t: int, contexts: np.ndarray, arms: np.ndarray, noise: np.ndarray, observe: np.ndarray | None = None
    ) -> tuple[np.ndarray, None]:
        rewards = (noise[np.arange(arms.size), 1 + arms] < self.means[contexts, arms]).astype(np.int8)
        return rewards, None


#: What :class:`InterventionArms` calls on its SCM.
SCM_MEMBERS = ("diagram", "exogenous", "sample_values", "interventional_mean")


def _checked_arms(scm, target: str, arms) -> tuple[Mapping[str, int], ...]:
    """``arms`` as a tuple after checking ``scm`` (an SCM object), ``target`` (one of its nodes) and each arm (a
    mapping of other nodes to 0 or 1); at least one arm."""
    missing = [m for m in SCM_MEMBERS if not hasattr(scm, m)]
    if missing:
        raise ArgumentTypeError(
            f"InterventionArms(scm) is a {type(scm).__name__}, not an SCM (it lacks {', '.join(missing)}); give a "
            "causal_bandits.XorBernoulliSCM or ConfoundedCPT"
        )
    nodes = scm.diagram.nodes
    checks.node(target, nodes, "InterventionArms(target)")
    arms = tuple(checks.listed(arms, "InterventionArms(arms)", "assignments"))
    if not arms:
        raise ArgumentError("InterventionArms(arms) is empty; give at least one arm ({} is the observational arm)")
    for i, arm in enumerate(arms):
        checks.kind(arm, Mapping, f"InterventionArms(arms)[{i}]", "give a mapping of node to 0 or 1, e.g. {'X': 1}")
        for v, x in arm.items():
            checks.node(v, [n for n in nodes if n != target], f"InterventionArms(arms)[{i}] key")
            if x not in (0, 1):
                raise ArgumentError(f"InterventionArms(arms)[{i}][{v!r}] = {x!r}; set a node to 0 or 1")
    return arms


@dataclass(frozen=True)
class InterventionArms(ContextFree):
    """Bandit arms that are interventions do(X = x) on an SCM; rewards are the target's value.

    Implements the engine's Environment interface. ``arms[i]`` maps the intervened variables to
    their values (the empty mapping is the observational arm); ``means`` are the exact
    E[target | do(arms[i])], computed once by :meth:`exact` (the instance stage) and passed on.
    With ``observe`` a pull also returns the value of every node (``diagram.nodes`` order), which
    solvers that learn from other arms' data need.

    Parameters
    ----------
    scm : XorBernoulliSCM or ConfoundedCPT
        The model sampled; any SCM with ``exogenous``, ``diagram`` and ``sample_values``.
    target : str
        The reward variable.
    arms : tuple of mapping
        Each arm's intervention, variable to 0/1 (the empty mapping: observe only).
    means : numpy.ndarray
        The exact E[target | do(arm)] of every arm (:meth:`exact`), used for the regret.
    observe : bool, optional
        Whether a pull also returns the value of every variable.
    """

    scm: XorBernoulliSCM | ConfoundedCPT  # or any SCM with ``exogenous``, ``diagram`` and ``sample_values``
    target: str
    arms: tuple[Mapping[str, int], ...]
    means: np.ndarray
    observe: bool = False

    def __post_init__(self) -> None:
        """The SCM, the target, every arm and mean checked against each other (one-line
        :class:`~causal_bandits.errors.ArgumentError`)."""
        arms = _checked_arms(self.scm, self.target, self.arms)
        means = checks.probabilities(self.means, "InterventionArms(means)")
        if means.shape != (len(arms),):
            raise ArgumentError(f"InterventionArms(means) has shape {means.shape}; give one mean per arm ({len(arms)})")
        object.__setattr__(self, "arms", arms)
        object.__setattr__(self, "means", means)

    @classmethod
    def exact(cls, scm: XorBernoulliSCM | ConfoundedCPT, target: str, arms) -> InterventionArms:
        """The arms with exact means from the SCM (pgmpy; instance stage only, never in a run job)."""
        arms = _checked_arms(scm, target, arms)
        return cls(scm, target, arms, np.array([scm.interventional_mean(target, a) for a in arms]))

    @property
    def noise_width(self) -> int:
        return len(self.scm.exogenous)

    @cached_property
    def _masks(self) -> tuple[np.ndarray, np.ndarray]:
        nodes = self.scm.diagram.nodes
        intervened = np.array([[v in arm for v in nodes] for arm in self.arms], dtype=bool)
        values = np.array([[bool(arm.get(v, 0)) for v in nodes] for arm in self.arms], dtype=bool)
        return intervened.reshape(len(self.arms), len(nodes)), values.reshape(len(self.arms), len(nodes))

    @property
    def n_arms(self) -> int:
        return len(self.arms)

    def pull(
        self, t: int, contexts: None, arms: np.ndarray, noise: np.ndarray, observe: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray | None]:
        intervened, values = self._masks
        state = self.scm.sample_values(noise, intervened[arms], values[arms])
        rewards = state[:, self.scm.diagram.nodes.index(self.target)].astype(np.int8)
        return rewards, (state.astype(np.int8) if self.observe else None)
