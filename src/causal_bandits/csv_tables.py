"""The CSV tables the workflow writes beside its Markdown ones, read back (claims, the report) with a damaged
file named as the run store names one (:func:`causal_bandits.store.damaged`).

Apart from :mod:`causal_bandits.store` so that the store, which the workflow imports when it plans, does not
load pandas.
"""

from __future__ import annotations

import os

import pandas as pd

from causal_bandits.store import damaged


def read_csv(path: str | os.PathLike) -> pd.DataFrame:
    """A CSV table this package wrote; one pandas cannot parse (empty, cut inside a quote, not text) raises
    :func:`~causal_bandits.store.damaged`."""
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as err:
        problem = (str(err).splitlines() or [type(err).__name__])[0]
        raise damaged(path, f"not a readable CSV table: {problem}") from None
