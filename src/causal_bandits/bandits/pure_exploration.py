r"""What the fixed-confidence pure-exploration policies share (docs/papers/cpe.md#cpe-conventions,
docs/papers/cpe.md#cpe-beta-i).

* Settings: δ ∈ (0, 1), ε ∈ [0, 1), the constant profile (``theory``: the paper's constants,
  ``practical``: our designed ones (docs/papers/cpe.md#cpe-experiments)), a sample cap of at least |A| (one line
  errors).
* The interventional radius β_I(N) = α_I sqrt(log(|A| log(2N) / δ′) / N), β_I(0) = ∞ (docs/papers/cpe.md#cpe-beta-i;
  cpe §4 "β_I(t)", the log printed without a square, docs/papers/cpe.md#cpe-a3-beta-i-log).
* The LUCB pair: $h = \arg\max_a \hat\mu_a$, $l = \arg\max_{a \ne h} U_a$, ties to the lowest index
  (Kalyanakrishnan et al. 2012; cpe Algorithm 1 line 4), and the stop test $U_l \le L_h + \varepsilon$ (line 5).
* :class:`PureExplorationPolicy`: per-seed state arrays whose rows are dropped by ``retain`` when the
  engine removes stopped seeds.

An arm is given to the causal policies as a tuple of (value column, value) pairs: do(S = s) on the
observed variables, whose values the environment reports in those columns; ``()`` is do().
"""

from __future__ import annotations

import numpy as np

from causal_bandits.errors import ConfigError

Arm = tuple[tuple[int, int], ...]
#: An admissible sequence in value columns: (S in its order, blocks Z_1..Z_k), or None (no sequence).
ColumnSequence = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
PROFILES = ("theory", "practical")
#: α_I of every interventional radius (CCPE, LUCB, SE) per profile (docs/papers/cpe.md#cpe-conventions).
ALPHA_I = {"theory": 2.0, "practical": 1.0}


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ConfigError(f"profile = {profile!r} is unknown; set profile to one of {list(PROFILES)}")
    return profile


def check_confidence(delta: float, epsilon: float) -> tuple[float, float]:
    """δ ∈ (0, 1) and ε ∈ [0, 1) (cpe §2, "PAC pure exploration"), else a one-line error."""
    if not 0.0 < delta < 1.0:
        raise ConfigError(f"delta = {delta} is outside (0, 1); set delta to a confidence level such as 0.05")
    if not 0.0 <= epsilon < 1.0:
        raise ConfigError(
            f"epsilon = {epsilon} is outside [0, 1); set epsilon to 0 (exact best arm) "
            "or a small tolerance such as 0.05"
        )
    return float(delta), float(epsilon)


def check_sample_cap(cap: int, n_arms: int, key: str = "T_max") -> int:
    """The sample cap (config key ``key``) must allow one pull of every arm."""
    if cap < n_arms:
        raise ConfigError(
            f"{key} = {cap} is below the number of arms ({n_arms}); "
            f"set {key} to at least {n_arms} (the designed runs use 5000000)"
        )
    return int(cap)


def interventional_radius(N: np.ndarray, n_arms: int, delta: float, alpha: float) -> np.ndarray:
    """β_I(N) = α sqrt(log(|A| log(2N) / δ′) / N) elementwise, ∞ where N = 0 (docs/papers/cpe.md#cpe-beta-i)."""
    N = np.asarray(N, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = alpha * np.sqrt(np.log(n_arms * np.log(2.0 * N) / delta) / N)
    return np.where(N > 0, r, np.inf)


class RadiusTable:
    """β_I(N) of :func:`interventional_radius` for whole sample counts N, by look-up: each entry is that function's
    value, computed once (the table doubles as larger counts come), so a policy that asks every round pays an index."""

    def __init__(self, n_arms: int, delta: float, alpha: float, size: int = 1024):
        self.n_arms, self.delta, self.alpha = n_arms, delta, alpha
        self._table = interventional_radius(np.arange(size), n_arms, delta, alpha)

    def covering(self, top: int) -> np.ndarray:
        """The table, holding β_I(N) for N = 0 .. ``top`` at least."""
        if top >= self._table.size:
            self._table = interventional_radius(np.arange(2 * top + 1), self.n_arms, self.delta, self.alpha)
        return self._table

    def __call__(self, N: np.ndarray) -> np.ndarray:
        """β_I(N) elementwise for an integer array ``N`` (>= 0)."""
        return self.covering(int(N.max()))[N]


def lucb_pair(mu_hat: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(h, l) per row: h = argmax μ̂, l = argmax_{a≠h} U, ties to the lowest index."""
    rows = np.arange(mu_hat.shape[0])
    h = mu_hat.argmax(axis=1)
    masked = upper.copy()
    masked[rows, h] = -np.inf
    return h, masked.argmax(axis=1)


class PureExplorationPolicy:
    """Base of the adaptive-stopping policies: ``retain`` slices every per-seed array.

    Subclasses list the attribute names of their per-seed arrays (leading axis = seeds) in
    ``_per_seed`` and keep ``_stop`` (bool, per seed) and ``_best`` (recommended arm, per seed).
    """

    _per_seed: tuple[str, ...] = ()
    _stop: np.ndarray
    _best: np.ndarray

    def done(self) -> np.ndarray:
        """Which seeds have met their stopping rule (bool, (n_active,))."""
        return self._stop.copy()

    def recommend(self) -> np.ndarray:
        """Each seed's current recommendation (int, (n_active,)); the output once it has stopped."""
        return self._best.copy()

    def retain(self, keep: np.ndarray) -> None:
        """Keep only the rows of ``keep`` (bool over the active seeds): the others have left."""
        keep = np.asarray(keep, dtype=bool)
        for name in ("_stop", "_best", *self._per_seed):
            setattr(self, name, getattr(self, name)[keep])
        self._rows = np.arange(int(keep.sum()))
