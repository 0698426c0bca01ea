"""Small helpers the fairness workflow scripts share: one-line failures and atomic text outputs."""

from __future__ import annotations

import os

import pandas as pd

from causal_bandits.logs import logged
from causal_bandits.store import write_atomic


def step(log_path: str | os.PathLike):
    """:func:`causal_bandits.logs.logged` (bad input ends the job with one line), by the name the
    fairness scripts use."""
    return logged(log_path)


def write_text(path: str | os.PathLike, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text))


def write_csv(path: str | os.PathLike, frame: pd.DataFrame) -> None:
    write_atomic(path, lambda tmp: frame.to_csv(tmp, index=False, float_format="%.6g"))
