"""The complexity quantities of the cpe paper (docs/papers/cpe.md#cpe-quantities), exactly, from arm means and q_a.

* gaps Δ_a (cpe §2) and g_a = max{Δ_a, ε/2};
* the observation threshold m (Definition 1, from Lattimore et al. 2016);
* H_r (Eq. 3): arms sorted by q_a g_a² (stable, ties by arm index), H_r = Σ_{i<=r} g_{a_i}^{−2};
* the gap-dependent observation threshold m_{ε,Δ} (Definition 2); Lemma 1 says m_{ε,Δ} <= 2m;
* the upper-bound term H_m log(|A| H_m / δ) of Theorems 1 and 2 and Theorem 3's lower bound.

"q_a < 1/τ" and "q_a g_a² < 1/H_τ" are evaluated as q_a τ < 1 − 1e-12 and q_a g_a² H_τ < 1 − 1e-12,
so that a tie that is exact on paper (q = 1/10, τ = 10) stays a tie after rounding.
"""

from __future__ import annotations

import numpy as np

from causal_bandits.errors import ConfigError

#: Relative slack of the strict inequalities of Definitions 1 and 2 (see the module docstring).
TIE = 1e-12
#: With ε = 0 the best arm must beat the runner-up by more than this (docs/papers/cpe.md#cpe-paper, "Gaps").
UNIQUE_BEST = 1e-9


def gaps(mu: np.ndarray, epsilon: float = 0.0) -> np.ndarray:
    """Δ_a of cpe §2 for ``a*`` the lowest-index best arm: ``Δ_{a*} = μ_{a*} − max_{a≠a*} μ_a``, else
    ``μ_{a*} − μ_a``."""
    mu = np.asarray(mu, dtype=float)
    if mu.size < 2:
        raise ConfigError("an instance needs at least two arms; add actions")
    best = int(mu.argmax())
    delta = mu[best] - mu
    delta[best] = mu[best] - np.delete(mu, best).max()
    if epsilon == 0 and delta[best] <= UNIQUE_BEST:
        raise ConfigError(
            f"the best arm is not unique (runner-up within {UNIQUE_BEST}); with epsilon = 0 "
            "the instance needs a unique best arm: change its parameters or set epsilon > 0"
        )
    return delta


def effective_gaps(mu: np.ndarray, epsilon: float) -> np.ndarray:
    """g_a = max{Δ_a, ε/2}."""
    return np.maximum(gaps(mu, epsilon), epsilon / 2.0)


def observation_threshold(q: np.ndarray) -> int:
    """Definition 1: m = min{τ ∈ [|A|] : |{a : q_a < 1/τ}| <= τ}."""
    q = np.sort(np.asarray(q, dtype=float))
    tau = np.arange(1, q.size + 1)
    # count[τ] = |{a : q_a τ < 1 − TIE}|, via the sorted q against the thresholds (1 − TIE)/τ.
    count = np.searchsorted(q, (1.0 - TIE) / tau, side="left")
    return int(tau[np.argmax(count <= tau)])


def hardness_order(q: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Arms a_1, ..., a_|A| sorted increasingly by q_a g_a², stable (ties by arm index) (Eq. 3)."""
    return np.argsort(np.asarray(q) * np.asarray(g) ** 2, kind="stable")


def H_prefix(q: np.ndarray, g: np.ndarray) -> np.ndarray:
    """(H_1, ..., H_|A|) of Eq. (3); H_|A| = H = Σ_a g_a^{−2}, the LUCB complexity."""
    order = hardness_order(q, g)
    return np.cumsum(1.0 / np.asarray(g, dtype=float)[order] ** 2)


def gap_dependent_threshold(q: np.ndarray, g: np.ndarray) -> int:
    """Definition 2: m_{ε,Δ} = min{τ ∈ [|A|] : |{a : q_a g_a² < 1/H_τ}| <= τ}. O(|A| log |A|)."""
    keys = np.sort(np.asarray(q, dtype=float) * np.asarray(g, dtype=float) ** 2)
    H = H_prefix(q, g)
    tau = np.arange(1, keys.size + 1)
    count = np.searchsorted(keys, (1.0 - TIE) / H, side="left")
    return int(tau[np.argmax(count <= tau)])


def upper_bound_term(q: np.ndarray, g: np.ndarray, delta: float) -> float:
    """H_m log(|A| H_m / δ), m = m_{ε,Δ}: the order of Theorems 1 and 2 (constants unknown)."""
    H_m = H_prefix(q, g)[gap_dependent_threshold(q, g) - 1]
    return float(H_m * np.log(len(g) * H_m / delta))


def lower_bound_thm3(q: np.ndarray, g: np.ndarray, delta: float, null_arm: int = 0) -> float:
    """Theorem 3: (H_{m−1} − 1/min_{i<m} g_{a_i}² − 1/g_{do()}²) log(1/δ), m = m_{ε,Δ}.

    H_0 = 0 and the middle term is 0 when m = 1. The Ω constant is unknown, so the value may be
    <= 0 (vacuous); it is returned as is (docs/papers/cpe.md#cpe-quantities).
    """
    g = np.asarray(g, dtype=float)
    m = gap_dependent_threshold(q, g)
    order = hardness_order(q, g)
    H = H_prefix(q, g)
    head = H[m - 2] if m >= 2 else 0.0
    smallest = 1.0 / (g[order[: m - 1]] ** 2).min() if m >= 2 else 0.0
    return float((head - smallest - 1.0 / g[null_arm] ** 2) * np.log(1.0 / delta))
