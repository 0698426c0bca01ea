"""C-UCB (Lu, Meisami, Tewari & Yan, AISTATS 2020), the causal baseline of the AAAI-22 experiments.

C-UCB learns E[R | Pa(R)] for the parents of the reward and weights those means by the known
P(pa_Z | x, a), Z = Pa(R) minus (A and X), with the radius of Eq. 6 and delta_t = 1/t^2 (fairness
docs/papers/fairness.md#fairness-cucb). It is D-UCB's estimator on W := Pa(R): the algorithm is D-UCB and only the model
differs (Pa(R) is always a valid d-separation set, but usually not the one of minimum domain), so
this module adds nothing but the name and the construction from the parents of R.
"""

from __future__ import annotations

from causal_bandits.bandits.ducb import DUCB


class CUCB(DUCB):
    """C-UCB: D-UCB whose :class:`~causal_bandits.bandits.cells.CellModel` has W = Pa(R)."""

    name = "C-UCB"
