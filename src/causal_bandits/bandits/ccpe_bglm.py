"""CCPE-BGLM (cpe Algorithm 1): combinatorial pure exploration on binary generalised linear models.

The loop of :mod:`~causal_bandits.bandits.ccpe_loop` with, in Step 1, the maximum-likelihood BGLM
parameters (Algorithm 2, :mod:`~causal_bandits.bandits.bglm_estimate`) from the observational
rounds, μ̂_O,a = σ(θ̂, a) for every arm (do() included) and the radius (Eq. 8, decoded in
docs/papers/cpe.md#cpe-ccpe-bglm)

    β_O^a(t) = α_O K sqrt(log(3 n t² / δ′) / (q_a^(L) t)),   q_a^(L) = 1 / (ℓ_S² D³)   (Eq. 7),

with K = M^(1) D^1.5 / (κ sqrt η) in the paper (``theory``; α_O = 6√2) and K = 1, α_O = 0.25 in
our ``practical`` profile (docs/papers/cpe.md#cpe-profiles); ℓ_S = |N_{S,Y}| (nodes other than X_1 and S with a directed
path to Y in G − S, Y included; docs/papers/cpe.md#cpe-a6-nsy), D = max_X |Pa(X)| counting X_1, n = |X|
counting X_1. The radius uses Eq. (7) for do() too (S = ∅; ambiguity 11).

Stopping also needs t >= t_0(t) (Algorithm 1 line 5, c = 1):
t_0(t) = max{c D/η² log(n t²/δ′), 1024 (M^(2))² (4D² − 3) D / (κ⁴ η) (D² + log(3 n t²/δ′))}
(``theory``), or t_0 = 10 D (``practical``). Theorem 1 runs the algorithm with δ′ = δ/2.

θ̂ and σ are refreshed every iteration while t <= 1000, then whenever t >= 1.01 t_ref (docs/papers/cpe.md#cpe-ccpe-bglm;
the intervals computed at t_ref stay valid), or every iteration with ``refresh="every"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from causal_bandits.bandits.bglm_estimate import BGLMCounts, fit
from causal_bandits.bandits.bglm_model import BGLMStructure, link, sigma
from causal_bandits.bandits.ccpe_loop import CCPELoop
from causal_bandits.bandits.pure_exploration import Arm
from causal_bandits.errors import ConfigError

ALPHA_O = {"theory": 6.0 * np.sqrt(2.0), "practical": 0.25}
REFRESH = ("geometric", "every")
#: Geometric refresh: every iteration up to this t, then when t >= GROWTH · t_ref.
EVERY_UNTIL, GROWTH = 1000, 1.01


@dataclass(frozen=True)
class BGLMConstants:
    """Assumption constants of the instance: M^(1), M^(2) (Ass. 1), κ (Ass. 2), η (Ass. 3), D, n."""

    M1: float
    M2: float
    kappa: float
    eta: float
    D: int
    n: int

    @classmethod
    def of(cls, structure: BGLMStructure, kappa: float, eta: float) -> BGLMConstants:
        """M^(1), M^(2) from the link, D and n (X_1 counted) from the graph, κ and η given."""
        f = link(structure.link)
        return cls(f.M1, f.M2, float(kappa), float(eta), max_in_degree(structure), structure.n_columns)


def ell(structure: BGLMStructure, S: Iterable[int]) -> int:
    """ℓ_S = |N_{S,Y}|: non-constant nodes outside S with a directed path to Y in G − S, Y included."""
    import networkx as nx  # only CCPE-BGLM jobs need it

    G = nx.DiGraph()
    G.add_nodes_from(structure.nodes)
    G.add_edges_from((p, v) for v, ps in zip(structure.nodes, structure.parents) for p in ps if p != structure.constant)
    G.remove_nodes_from(S)
    return len(nx.ancestors(G, structure.reward)) + 1


def max_in_degree(structure: BGLMStructure) -> int:
    """D = max_X |Pa(X)|, X_1 counted."""
    return max(len(ps) for ps in structure.parents)


def ells(structure: BGLMStructure, arms: Sequence[Arm]) -> np.ndarray:
    """ℓ_S of every arm (computed once per distinct S)."""
    cache: dict[frozenset[int], int] = {}
    out = np.empty(len(arms), dtype=np.int64)
    for a, arm in enumerate(arms):
        S = frozenset(c for c, _ in arm)
        if S not in cache:
            cache[S] = ell(structure, S)
        out[a] = cache[S]
    return out


def bglm_observability(structure: BGLMStructure, arms: Sequence[Arm]) -> np.ndarray:
    """q_a^(L) = 1 / (ℓ_S² D³) of Eq. (7) for every arm (graph-only)."""
    return observability(ells(structure, arms), max_in_degree(structure))


def observability(ell_S: np.ndarray, D: int) -> np.ndarray:
    """q_a^(L) = 1 / (ℓ_S² D³) of Eq. (7) from each arm's ℓ_S."""
    return 1.0 / (ell_S.astype(float) ** 2 * D**3)


def theory_burn_in(t: float, c: BGLMConstants, delta: float, c_lemma4: float = 1.0) -> float:
    """t_0(t) of Algorithm 1 line 5 with the Lemma 4 constant c (not in our copy; c = 1)."""
    first = c_lemma4 * c.D / c.eta**2 * np.log(c.n * t**2 / delta)
    second = (
        1024.0 * c.M2**2 * (4 * c.D**2 - 3) * c.D / (c.kappa**4 * c.eta) * (c.D**2 + np.log(3 * c.n * t**2 / delta))
    )
    return float(max(first, second))


def theory_burn_in_length(c: BGLMConstants, delta: float) -> float:
    """The first t with t >= t_0(t) (t_0 grows like log t; fixed-point iteration from t = 1)."""
    t = 1.0
    for _ in range(200):
        nxt = max(t, np.ceil(theory_burn_in(t, c, delta)))
        if nxt == t:
            return t
        t = nxt
    raise RuntimeError("the burn-in fixed point did not converge")


class CCPEBGLM(CCPELoop):
    """CCPE-BGLM over ``arms`` (arm 0 = do(), none on the constant X_1) of the BGLM ``structure``.

    κ and η (Assumptions 2-3) enter only the ``theory`` profile (K_BGLM and the burn-in).
    """

    name = "CCPE-BGLM"
    delta_share = 2.0
    _per_seed = (*CCPELoop._per_seed, "_counts", "_ones", "_theta_rows", "_LOr", "_UOr")

    def __init__(
        self,
        arms: Sequence[Arm],
        structure: BGLMStructure,
        *,
        kappa: float | None = None,
        eta: float | None = None,
        delta: float = 0.05,
        epsilon: float = 0.0,
        profile: str = "practical",
        alpha_O: float | None = None,
        alpha_I: float | None = None,
        K: float | None = None,
        ridge: float = 1.0,
        refresh: str = "geometric",
    ):
        super().__init__(delta=delta, epsilon=epsilon, profile=profile, alpha_I=alpha_I)
        if self.profile == "theory" and (kappa is None or eta is None):
            raise ConfigError("the theory profile of CCPE-BGLM needs the instance's kappa and eta (Assumptions 2-3)")
        constants = BGLMConstants.of(structure, 1.0 if kappa is None else kappa, 1.0 if eta is None else eta)
        if arms[0]:
            raise ValueError("arm 0 must be do()")
        if any(c == structure.constant for arm in arms for c, _ in arm):
            raise ConfigError("an action intervenes on the constant X1; BGLM actions may only set X2..Xn")
        if refresh not in REFRESH:
            raise ConfigError(f"refresh = {refresh!r} is unknown; use one of {list(REFRESH)}")
        self.arms, self.structure, self.constants = tuple(arms), structure, constants
        self.alpha_O = ALPHA_O[self.profile] if alpha_O is None else float(alpha_O)
        theory = self.profile == "theory"
        self.K = (
            (constants.M1 * constants.D**1.5 / (constants.kappa * np.sqrt(constants.eta)) if theory else 1.0)
            if K is None
            else float(K)
        )
        self.ridge, self.refresh = float(ridge), refresh
        self.q_L = bglm_observability(structure, arms)
        self.tables = BGLMCounts(structure)

    def _reset_observational(self, n_seeds: int) -> None:
        if self.n_arms != len(self.arms):
            raise ValueError(f"the policy has {len(self.arms)} arms, the environment {self.n_arms}")
        self._counts, self._ones = self.tables.empty(n_seeds)
        widths = [len(ps) for ps in self.structure.parents]
        self._theta_rows = np.zeros((n_seeds, sum(widths)))  # θ̂ of all nodes side by side
        self._splits = np.cumsum(widths)[:-1]
        self._LOr, self._UOr = np.full((n_seeds, self.n_arms), -np.inf), np.full((n_seeds, self.n_arms), np.inf)
        self._t_ref = 0

    def _observe(self, values: np.ndarray, rewards: np.ndarray) -> None:
        self.tables.add(self._counts, self._ones, values, rewards)

    def _observational_intervals(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        if self.refresh == "every" or t <= EVERY_UNTIL or t >= GROWTH * self._t_ref:
            theta = fit(
                np.split(self._theta_rows, self._splits, axis=1),
                self.tables,
                self._counts,
                self._ones,
                ridge=self.ridge,
            )
            self._theta_rows = np.concatenate(theta, axis=1)
            mu = sigma(theta, self.structure, self.arms)
            c = self.constants
            radius = self.alpha_O * self.K * np.sqrt(np.log(3 * c.n * t**2 / self.delta_internal) / (self.q_L * t))
            self._LOr, self._UOr = mu - radius, mu + radius
            self._t_ref = t
        return self._LOr, self._UOr

    def _may_stop(self, t: int) -> bool:
        if self.profile == "theory":
            return t >= theory_burn_in(t, self.constants, self.delta_internal)
        return t >= 10 * self.constants.D
