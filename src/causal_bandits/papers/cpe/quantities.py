r"""Every exact per-instance quantity of docs/papers/cpe.md#cpe-quantities, docs/papers/cpe.md#cpe-outputs (arms table
and one-row summary).

Per arm: $\mu_a$, $\Delta_a$, whether it is best, $q^{(G)}_a$ (Eq. 15), identifiable, $Z_a$, $q^{(L)}_a$ (Eq. 7) and
$\ell_S$ for BGLMs, $E[Y \mid S = s]$. Per instance: $\mu^*$, $\Delta_{\min}$, $H$, $(m, m_{\varepsilon,\Delta},
H_{m_{\varepsilon,\Delta}})$ for $q^{(G)}$ and,
for BGLMs, q^(L) (with q_do() = 1 in both, docs/papers/cpe.md#cpe-a11-q-do), the upper-bound term of Theorems
1-2, Theorem 3's lower bound and whether the instance is in Theorem 3's class, Lattimore et al.'s
non-adaptive term m/Δ_min², and for BGLMs D, κ, η (Assumptions 1-3) and the theory burn-in of
Algorithm 1. All are plain floats and lists, ready for JSON (``to_document``) and Parquet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from causal_bandits.bandits.ccpe_bglm import (
    BGLMConstants,
    ells,
    max_in_degree,
    observability,
    theory_burn_in_length,
)
from causal_bandits.bandits.parallel_bandit import observation_threshold
from causal_bandits.bandits.pure_exploration import check_confidence
from causal_bandits.papers.cpe.actions import atomic_actions
from causal_bandits.papers.cpe.complexity import (
    H_prefix,
    effective_gaps,
    gap_dependent_threshold,
    gaps,
    lower_bound_thm3,
    upper_bound_term,
)
from causal_bandits.papers.cpe.instance import CPEInstance


def bglm_constants(instance: CPEInstance) -> BGLMConstants:
    """The constants CCPE-BGLM takes as input (Algorithm 1 line 1), κ and η from the instance."""
    assert instance.kappa is not None and instance.eta is not None  # families.bglm sets both
    return BGLMConstants.of(instance.bglm_structure(), instance.kappa, instance.eta)


def in_theorem3_class(instance: CPEInstance, epsilon: float) -> bool:
    """Theorem 3's class ξ: a parallel graph, atomic actions plus do(), p_max + 2Δ_(|A|) + 2ε <= 0.9
    and p_min + Δ_min >= 0.1, p_max/min = max/min_x P(Y = 1 | X = x)."""
    scm = instance.scm
    xs = scm.observed
    parallel = not scm.hidden and all(not scm.parents(x) for x in xs) and set(scm.parents(scm.reward)) == set(xs)
    if not parallel or instance.actions != atomic_actions(xs):
        return False
    p_min, p_max = scm.mechanisms[scm.reward].extremes()
    d = gaps(instance.mu, epsilon)
    return bool(p_max + 2 * d.max() + 2 * epsilon <= 0.9 and p_min + d.min() >= 0.1)


@dataclass(frozen=True)
class Quantities:
    """The arms table (column -> list) and the summary (name -> value) of one instance."""

    arms: dict[str, list]
    summary: dict[str, Any]

    def to_document(self) -> dict[str, Any]:
        return {"arms": self.arms, "summary": self.summary}

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> Quantities:
        return cls(arms=dict(doc["arms"]), summary=dict(doc["summary"]))


def _thresholds(q: np.ndarray, g: np.ndarray) -> tuple[int, int, float]:
    m_eps = gap_dependent_threshold(q, g)
    return int(observation_threshold(q)[0]), m_eps, float(H_prefix(q, g)[m_eps - 1])


def quantities(
    instance: CPEInstance, epsilon: float, delta: float, *, with_burn_in: bool = True, with_arms: bool = True
) -> Quantities:
    """Every quantity of docs/papers/cpe.md#cpe-quantities for ``instance`` at (ε, δ), exactly.

    ``with_arms=False`` leaves the arms table empty: the summary alone (E4b's curves, up to 3^12 arms).
    """
    delta, epsilon = check_confidence(delta, epsilon)
    mu = np.asarray(instance.mu, dtype=float)
    d, g = gaps(mu, epsilon), effective_gaps(mu, epsilon)
    q_G = instance.q_general()
    ell_S = q_L = None
    if instance.link is not None:
        ell_S = ells(instance.bglm_structure(), instance.policy_arms())
        q_L = observability(ell_S, max_in_degree(instance.bglm_structure()))  # q_a^(L) of Eq. (7)
    summary = _summary(instance, epsilon, delta, mu, d, g, q_G)
    if q_L is not None:
        summary.update(_bglm_summary(instance, q_L, g, delta, with_burn_in))
    return Quantities(_arms(instance, mu, d, q_G, ell_S, q_L) if with_arms else {}, summary)


def _arms(
    instance: CPEInstance,
    mu: np.ndarray,
    d: np.ndarray,
    q_G: np.ndarray,
    ell_S: np.ndarray | None,
    q_L: np.ndarray | None,
) -> dict[str, list]:
    """The arms table; q_L and ℓ_S only for a BGLM (both given)."""
    n = instance.n_arms
    return {
        "arm_id": list(range(n)),
        "label": instance.labels,
        "S": [list(a.S) for a in instance.actions],
        "s": [list(a.s) for a in instance.actions],
        "mu": mu.tolist(),
        "gap": d.tolist(),
        "is_best": (np.arange(n) == int(mu.argmax())).tolist(),
        "q_G": q_G.tolist(),
        "identifiable": [a == 0 or s is not None for a, s in enumerate(instance.sequences)],
        "Z": [None if s is None else list(s.Z) for s in instance.sequences],
        "q_L": [None] * n if q_L is None else q_L.tolist(),
        "ell_S": [None] * n if ell_S is None else ell_S.tolist(),
        "naive_mu": np.asarray(instance.naive_mu, dtype=float).tolist(),
    }


def _summary(
    instance: CPEInstance,
    epsilon: float,
    delta: float,
    mu: np.ndarray,
    d: np.ndarray,
    g: np.ndarray,
    q_G: np.ndarray,
) -> dict[str, Any]:
    """The summary with the q^(G) quantities; the BGLM entries are None here (:func:`_bglm_summary` fills them)."""
    m_G, m_eps_G, H_m_G = _thresholds(q_G, g)
    return {
        "family": instance.family,
        **{f"param_{k}": v for k, v in instance.params.items()},
        "n_nodes": len(instance.scm.nodes),
        "n_arms": instance.n_arms,
        "epsilon": epsilon,
        "delta": delta,
        "mu_star": float(mu.max()),
        "delta_min": float(d.min()),
        "H": float(H_prefix(q_G, g)[-1]),
        "m_G": m_G,
        "m_eps_G": m_eps_G,
        "H_m_G": H_m_G,
        "m_L": None,
        "m_eps_L": None,
        "H_m_L": None,
        "UB_L": None,
        "UB": upper_bound_term(q_G, g, delta),
        "LB_thm3": lower_bound_thm3(q_G, g, delta),
        "in_thm3_class": in_theorem3_class(instance, epsilon),
        "lattimore_term": float(m_G / d.min() ** 2),
        "D": None,
        "kappa": None,
        "eta": None,
        "theory_burnin": None,
    }


def _bglm_summary(
    instance: CPEInstance, q_L: np.ndarray, g: np.ndarray, delta: float, with_burn_in: bool
) -> dict[str, Any]:
    """The BGLM entries of the summary (Theorem 1): the q^(L) thresholds, the upper-bound term, the constants D, κ,
    η and, ``with_burn_in``, the burn-in."""
    q_L = q_L.copy()
    q_L[0] = 1.0  # complexity terms use q_do() = 1; the radius uses Eq. (7) (ambiguity 11)
    m_L, m_eps_L, H_m_L = _thresholds(q_L, g)
    constants = bglm_constants(instance)
    entries: dict[str, Any] = {
        "m_L": m_L,
        "m_eps_L": m_eps_L,
        "H_m_L": H_m_L,
        "UB_L": upper_bound_term(q_L, g, delta),
        "D": constants.D,
        "kappa": constants.kappa,
        "eta": constants.eta,
    }
    if with_burn_in:  # Theorem 1 runs CCPE-BGLM with δ/2
        entries["theory_burnin"] = theory_burn_in_length(constants, delta / 2.0)
    return entries
