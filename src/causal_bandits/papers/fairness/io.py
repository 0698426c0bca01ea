"""Small helpers the fairness workflow scripts share: atomic text outputs (their one-line failures come from
:func:`causal_bandits.logs.logged`, as every script's)."""

from __future__ import annotations

import os

import pandas as pd

from causal_bandits.store import write_atomic


def write_text(path: str | os.PathLike, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text))


def write_csv(path: str | os.PathLike, frame: pd.DataFrame) -> None:
    write_atomic(path, lambda tmp: frame.to_csv(tmp, index=False, float_format="%.6g"))
