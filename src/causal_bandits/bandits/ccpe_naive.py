"""The naive ablation of CCPE-General (docs/papers/cpe.md#cpe-baselines, designed for this replication): confounding
ignored.

CCPE-General with Z_a := ∅ for every arm, unidentifiable ones included, so that its observational
estimate of do(S = s) is the conditional mean E[Y | S = s]. Under hidden confounding this is not
μ_do(S=s) and its intervals are wrong; E3 shows how often the ablation then returns a wrong arm.
"""

from __future__ import annotations

from collections.abc import Sequence

from causal_bandits.bandits.ccpe_general import CCPEGeneral
from causal_bandits.bandits.pure_exploration import Arm


class NaiveCCPE(CCPEGeneral):
    """CCPE-General whose observational estimate of every arm is E[Y | S = s]."""

    name = "CCPE-naive"

    def __init__(
        self,
        arms: Sequence[Arm],
        *,
        delta: float = 0.05,
        epsilon: float = 0.0,
        profile: str = "practical",
        alpha_O: float | None = None,
        alpha_I: float | None = None,
    ):
        sequences = [(tuple(c for c, _ in arm), ((),) * len(arm)) for arm in arms]
        super().__init__(
            arms, sequences, delta=delta, epsilon=epsilon, profile=profile, alpha_O=alpha_O, alpha_I=alpha_I
        )
