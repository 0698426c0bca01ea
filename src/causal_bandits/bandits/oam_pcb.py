r"""Optimal allocation matching with prior causal bounds (Huang & Wu, Appendix D, Algorithm 5).

OAM (Hao, Lattimore & Szepesvári 2020) for a linear contextual bandit with finitely many contexts:
one shared $\theta$ over features $\phi(c, a)$, $G_t = \lambda I + \sum_s X_s X_s^\top$, least-squares
$\hat\theta$, estimated gaps $\hat\Delta_a^c = \max_b \hat\theta^\top\phi(c, b) - \hat\theta^\top\phi(c, a)$ and
$\hat\Delta_{\min}$ their smallest positive value. With
$f_{n,\delta} = 2(1 + 1/\log n)\log(1/\delta) + c\,d\log(d\log n)$ and $f_n = f_{n,1/n}$, each round $t$ in
context $c_t$:

* **exploit** (lines 4-9) when
  $\|\phi(c_t, a)\|^2_{G^{-1}} \le \max\{\hat\Delta^2_{\min}, (\hat\Delta_a^{c_t})^2\}/f_n$ for every arm: pull
  $\arg\max_a \max\{\min\{U_{a,c}, \hat\theta^\top\phi\}, L_{a,c}\}$;
* otherwise **explore** (lines 11-24), $s \leftarrow s + 1$: if every arm has
  $N_a^{c_t} \ge \min(T_a^{c_t}, f_n/\hat\Delta^2_{\min})$, pull
  $\arg\max_a \min\{\hat\theta^\top\phi + \sqrt{f_{n,1/s^2}}\,\|\phi\|_{G^{-1}}, U_{a,c}\}$ (Eq. 16); else
  $b_1 = \arg\min_a N_a / \min(T_a^{c_t}, f_n/\hat\Delta^2_{\min})$, $b_2 = \arg\min_a N_a$ (Eq. 17), and pull $b_2$ if
  $N_{b_2} \le \varepsilon_t s$ (forced exploration), else $b_1$.

$T(\hat\Delta)$ is the allocation of Eq. 18-19: $\min \sum_{c,a} T_a^c \hat\Delta_a^c$ subject to
$\|\phi(c, a)\|^2_{H^{-1}} \le (\hat\Delta_a^c)^2/f_n$ for every suboptimal cell,
$H = \lambda I + \sum T_a^c \phi\phi^\top$. Cells with $\hat\Delta = 0$ cost nothing and get the cap
$f_n/\hat\Delta^2_{\min}$ (the algorithm never uses more); the others are solved by scipy's SLSQP in $\log T$.

Choices where the paper is silent (docs/papers/bounds.md#bounds-a-oam-constants): c = 1; N counts pulls per (context,
arm) cell; a ridge λI replaces the initial spanning pulls; ε_t = 1/(m log log(t + 16)) with m the number of
cells — our 1/log log(t + 16) exceeds 1/m (docs/papers/bounds.md#bounds-a-oam-constants) for any practical t, and since
s counts every exploration round while N counts one cell, every exploration round would then be forced
(round-robin, linear regret); and — so that the allocation
problem is not solved every round for every seed — each seed re-solves T(Δ̂) at its exploration
rounds s = 1, 2, 4, 8, ... (a doubling schedule) and keeps it in between. Without bounds this is OAM.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import minimize

from causal_bandits.bandits.engine import Feedback
from causal_bandits.bandits.ties import random_argmax
from causal_bandits.rng import RoundBlocks, SeedStreams

GAP_TOLERANCE = 1e-12


def confidence_level(n: int, delta: np.ndarray | float, d: int, c: float) -> np.ndarray:
    """f_{n,δ} = 2(1 + 1/log n) log(1/δ) + c d log(d log n)."""
    log_n = np.log(n)
    return 2.0 * (1.0 + 1.0 / log_n) * np.log(1.0 / np.asarray(delta, dtype=float)) + c * d * np.log(d * log_n)


def allocation(features: np.ndarray, gaps: np.ndarray, f: float, lam: float) -> np.ndarray:
    """T(Δ̃) of Eq. 18-19 for one seed: ``features`` (cells, d), ``gaps`` (cells,) → T (cells,)."""
    positive = gaps > GAP_TOLERANCE
    if not positive.any():  # no estimated gap yet: nothing to allocate
        return np.full(gaps.shape, np.inf)
    cap = f / gaps[positive].min() ** 2
    out = np.full(gaps.shape, cap)
    phi, delta = features[positive], gaps[positive]
    base = lam * np.eye(features.shape[1]) + cap * features[~positive].T @ features[~positive]
    scale = float(np.sum(cap * delta))

    def inverse(z):
        return np.linalg.inv(base + (np.exp(z)[:, None] * phi).T @ phi)

    def constraints(z):  # 1 - f ‖φ_j‖²_{H⁻¹} / Δ_j² ≥ 0
        h_inv = inverse(z)
        return 1.0 - f * np.einsum("ji,ik,jk->j", phi, h_inv, phi) / delta**2

    def jacobian(z):
        cross = phi @ inverse(z) @ phi.T  # cross[j, i] = φ_jᵀ H⁻¹ φ_i
        return f * cross**2 * np.exp(z)[None, :] / delta[:, None] ** 2

    result = minimize(
        lambda z: float(np.exp(z) @ delta) / scale,
        np.full(delta.size, np.log(cap)),
        jac=lambda z: np.exp(z) * delta / scale,
        bounds=[(np.log(1e-6), np.log(cap))] * delta.size,
        constraints=[{"type": "ineq", "fun": constraints, "jac": jacobian}],
        method="SLSQP",
        options={"maxiter": 200, "ftol": 1e-9},
    )
    out[positive] = np.exp(result.x)
    return out


class OAMPCB:
    """Algorithm 5 for all seeds at once (bounds given) or OAM (no bounds); see the module docstring."""

    def __init__(
        self,
        features: np.ndarray,
        horizon: int,
        *,
        lower: np.ndarray | None = None,
        upper: np.ndarray | None = None,
        lam: float = 1.0,
        c: float = 1.0,
    ) -> None:
        if (lower is None) != (upper is None):
            raise ValueError("give both causal bounds or neither")
        self.features = np.asarray(features, dtype=float)  # (contexts, arms, d)
        self.horizon, self.lam, self.c = int(horizon), float(lam), float(c)
        n_ctx, n_arms, d = self.features.shape
        self.lower = np.full((n_ctx, n_arms), -np.inf) if lower is None else np.asarray(lower, float)
        self.upper = np.full((n_ctx, n_arms), np.inf) if upper is None else np.asarray(upper, float)
        self.f_n = float(confidence_level(self.horizon, 1.0 / self.horizon, d, self.c))
        self.solves = 0

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        n_ctx, k, d = self.features.shape
        if n_arms != k:
            raise ValueError(f"features are for {k} arms, the environment has {n_arms}")
        self._ties = RoundBlocks(stream("ties"), k)
        self._rows = np.arange(n_seeds)
        self._g_inv = np.broadcast_to(np.eye(d) / self.lam, (n_seeds, d, d)).copy()
        self._b = np.zeros((n_seeds, d))
        self._theta = np.zeros((n_seeds, d))
        self._pulls = np.zeros((n_seeds, n_ctx, k))
        self._s = np.zeros(n_seeds)
        self._alloc = np.full((n_seeds, n_ctx, k), np.inf)
        self._next_solve = np.ones(n_seeds)

    def select(self, t: int, contexts: np.ndarray) -> np.ndarray:
        rows, n_ctx, k, d = self._rows, *self.features.shape
        est = np.einsum("cai,si->sca", self.features, self._theta)
        gaps = est.max(axis=2, keepdims=True) - est
        positive = gaps > GAP_TOLERANCE
        gap_min = np.where(positive, gaps, np.inf).min(axis=(1, 2))
        gap_min = np.where(np.isfinite(gap_min), gap_min, 0.0)
        phi = self.features[contexts]
        norm2 = np.einsum("ski,sij,skj->sk", phi, self._g_inv, phi)
        est_t, gaps_t = est[rows, contexts], gaps[rows, contexts]
        lower, upper = self.lower[contexts], self.upper[contexts]
        threshold = np.maximum(gap_min[:, None] ** 2, gaps_t**2) / self.f_n
        exploit = (norm2 <= threshold).all(axis=1) & (gap_min > 0)
        arms = random_argmax(np.maximum(np.minimum(upper, est_t), lower), self._ties)  # lines 6-9

        explore = ~exploit
        self._s += explore
        for i in np.flatnonzero(explore & (self._s >= self._next_solve)):  # doubling schedule
            self._alloc[i] = allocation(self.features.reshape(-1, d), gaps[i].reshape(-1), self.f_n, self.lam).reshape(
                n_ctx, k
            )
            self._next_solve[i] *= 2
            self.solves += 1
        with np.errstate(divide="ignore"):
            cap = np.minimum(self._alloc[rows, contexts], self.f_n / gap_min[:, None] ** 2)
        pulls = self._pulls[rows, contexts]
        width = np.sqrt(confidence_level(self.horizon, 1.0 / np.maximum(self._s, 1.0) ** 2, d, self.c))
        ucb = random_argmax(np.minimum(est_t + width[:, None] * np.sqrt(norm2), upper), self._ties)  # Eq. 16
        b1 = random_argmax(-(pulls / cap), self._ties)  # Eq. 17
        b2 = random_argmax(-pulls, self._ties)
        forced = pulls[rows, b2] <= self._s / (n_ctx * k * np.log(np.log(t + 16.0)))
        explored = np.where((pulls >= cap).all(axis=1), ucb, np.where(forced, b2, b1))
        return np.where(explore, explored, arms)

    def update(self, feedback: Feedback) -> None:
        contexts, arms, rewards = feedback.contexts, feedback.arms, feedback.rewards
        rows = self._rows
        x = self.features[contexts, arms]
        u = np.einsum("sij,sj->si", self._g_inv, x)
        self._g_inv -= u[:, :, None] * u[:, None, :] / (1.0 + np.einsum("si,si->s", x, u))[:, None, None]
        self._b += rewards[:, None] * x
        self._theta = np.einsum("sij,sj->si", self._g_inv, self._b)
        self._pulls[rows, contexts, arms] += 1
