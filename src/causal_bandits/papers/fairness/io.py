"""Small helpers the fairness workflow scripts share: one-line failures and atomic text outputs."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from logging import Logger

import pandas as pd

from causal_bandits.errors import CausalBanditsError
from causal_bandits.logs import logged
from causal_bandits.store import write_atomic


@contextmanager
def step(log_path: str | os.PathLike) -> Iterator[Logger]:
    """:func:`causal_bandits.logs.logged`, except that bad input ends the job with one line.

    A :class:`CausalBanditsError` (missing or corrupt file, malformed record, bad setting) is
    logged as a single ``error: ...`` line and the script exits with status 1; any other exception
    keeps its traceback.
    """
    failed = False
    with logged(log_path) as log:
        try:
            yield log
        except CausalBanditsError as err:
            log.error("error: %s", err)
            failed = True
    if failed:
        sys.exit(1)


def write_text(path: str | os.PathLike, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text))


def write_csv(path: str | os.PathLike, frame: pd.DataFrame) -> None:
    write_atomic(path, lambda tmp: frame.to_csv(tmp, index=False, float_format="%.6g"))
