"""Where an array's batch axes sit: the evaluation of a compiled expression programme
(:mod:`causal_bandits.causal.evaluation`) and its compiled steps (:mod:`causal_bandits.causal.compiled_program`) keep
the batch of replicates last and move it first where a step reads it so."""

from __future__ import annotations

import numpy as np


def batch_last(arr: np.ndarray, nb: int) -> np.ndarray:
    """The ``nb`` leading (batch) axes of ``arr`` moved last."""
    return np.moveaxis(arr, range(nb), range(arr.ndim - nb, arr.ndim))


def batch_first(arr: np.ndarray, nb: int) -> np.ndarray:
    """The ``nb`` trailing (batch) axes of ``arr`` moved first."""
    return np.moveaxis(arr, range(arr.ndim - nb, arr.ndim), range(nb))
