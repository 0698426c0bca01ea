"""Uniform tie-breaking among maximisers, vectorised over seeds.

Our reading (docs/papers/fairness.md#fairness-cells) breaks ties "uniformly at random among maximisers (tolerance 1e-12)
with the algorithm's RNG stream": every candidate within ``tol`` of its row's maximum gets one fresh
uniform from the seed's stream, and the candidate with the largest uniform wins. One uniform is
drawn per column whether or not it ties, so a seed's stream is consumed identically whatever the
scores are (two policies that agree on their scores make identical draws).
"""

from __future__ import annotations

import numpy as np

from causal_bandits.rng import RoundBlocks, SeedStreams

TIE_TOLERANCE = 1e-12


def random_argmax(scores: np.ndarray, ties: SeedStreams | RoundBlocks, allowed: np.ndarray | None = None) -> np.ndarray:
    """Per row of ``scores`` (n_seeds, n), a uniformly random index among the (allowed) maxima.

    ``allowed`` (bool, same shape) restricts the candidates; each row must allow at least one.
    """
    u = ties.uniform(scores.shape[1])
    masked = scores if allowed is None else np.where(allowed, scores, -np.inf)
    best = masked >= masked.max(axis=1, keepdims=True) - TIE_TOLERANCE
    if allowed is not None:
        best &= allowed
    return np.where(best, u, -1.0).argmax(axis=1)
