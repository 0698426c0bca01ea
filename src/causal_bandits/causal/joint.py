"""A discrete joint distribution as a table of weights: a sample's counts or exact probabilities.

Every offline estimator of Huang & Wu (CP, Biased, the BCE bounds) is a ratio of sums over the
selected data, P̂(· | ·, S=1). :class:`Joint` holds those data as counts over the binary variables
(one cell per configuration), so the same code evaluates an estimator on a finite sample and on
the population distribution P(v | S=1) computed by enumeration; only the notion of an *empty* cell
differs (fewer than ``min_count`` rows in a sample, probability zero in a population).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from pgmpy.factors.discrete import DiscreteFactor

from causal_bandits.errors import DataError
from causal_bandits.scm.cpt import DOMAIN, config_index


class Joint:
    """Weights over all configurations of binary ``variables`` (axis i = variables[i])."""

    def __init__(self, variables: Sequence[str], weights: np.ndarray, *, sample: bool) -> None:
        self.variables = tuple(variables)
        self.weights = np.asarray(weights, dtype=float).reshape((2,) * len(self.variables))
        self.sample = sample

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, variables: Sequence[str]) -> Joint:
        """Counts of the rows of ``frame`` (one column per variable, values in {0, 1})."""
        missing = [v for v in variables if v not in frame.columns]
        if missing:
            raise DataError(f"offline table has no column {missing[0]!r}; expected columns {list(variables)}")
        values = frame[list(variables)].to_numpy()
        bad = ~np.isin(values, DOMAIN)
        if bad.any():
            row, col = map(int, np.argwhere(bad)[0])
            raise DataError(
                f"offline table row {row}: {variables[col]}={values[row, col].item()!r} is not in the domain "
                "{0, 1}; regenerate the data or drop the row"
            )
        counts = np.bincount(config_index(values.astype(np.int64)), minlength=2 ** len(variables))
        return cls(variables, counts, sample=True)

    @classmethod
    def from_factor(cls, factor: DiscreteFactor) -> Joint:
        """A population distribution (e.g. exact P(v | S=1) from :meth:`CPTModel.joint`)."""
        return cls(factor.variables, factor.values, sample=False)

    @property
    def total(self) -> float:
        return float(self.weights.sum())

    def table(self, variables: Sequence[str]) -> np.ndarray:
        """Marginal weights over ``variables`` (axes in that order)."""
        unknown = [v for v in variables if v not in self.variables]
        if unknown:
            raise DataError(f"joint has no variable {unknown[0]!r}; it covers {list(self.variables)}")
        drop = tuple(i for i, v in enumerate(self.variables) if v not in variables)
        kept = [v for v in self.variables if v in variables]
        marginal = self.weights.sum(axis=drop)
        return np.transpose(marginal, [kept.index(v) for v in variables])

    def factor(self) -> DiscreteFactor:
        """The normalised distribution as a pgmpy factor."""
        return DiscreteFactor(list(self.variables), [2] * len(self.variables), self.weights / self.total)

    def marginal(self, variables: Sequence[str]) -> Joint:
        return Joint(variables, self.table(variables), sample=self.sample)

    def empty(self, weights: np.ndarray, min_count: int) -> np.ndarray:
        """Which cells of ``weights`` (taken from this joint) are too thin to estimate from."""
        return weights < min_count if self.sample else weights <= 0.0

    def conditional(self, target: str, given: Sequence[str], min_count: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """(P(target = 1 | given), weight of each ``given`` cell); NaN where the cell is empty.

        Arrays have one axis per variable of ``given``, in that order.
        """
        t = self.table([*given, target])
        n = t.sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = t[..., 1] / n
        return np.where(self.empty(n, min_count), np.nan, p), n
