"""The UCI Adult (Census Income) file: parsing with line-level validation.

Format (``adult.names``; Kohavi & Becker 1996): no header, one record per line, 15 fields
separated by a comma and a space, ``?`` for a missing value, the label ``<=50K`` / ``>50K`` last
(``adult.test`` starts with a ``|1x3 Cross validator`` line and ends its labels with a period).
A line with another number of fields — a truncated line, a different file — stops the parse
with one line naming the file, the line number, what was found and the fix. Blank lines and
``|`` comment lines are skipped.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from causal_bandits.data.raw import read_lines
from causal_bandits.errors import DataError

COLUMNS = (
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education_num",
    "marital_status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
    "native_country",
    "income",
)
SEXES = ("Female", "Male")
INCOMES = ("<=50K", ">50K")
_FIX = "the line is truncated or the file is not the UCI adult.data — replace the file"


def read_adult(path: str | os.PathLike) -> pd.DataFrame:
    """The records of an Adult file with ``row_id`` (0-based line number) and the 15 columns.

    ``age`` is an integer; ``income`` has any trailing period removed; other fields are strings.
    """
    rows, row_ids = [], []
    for number, line in enumerate(read_lines(path)):
        if not line.strip() or line.startswith("|"):
            continue
        fields = [f.strip() for f in line.split(",")]
        where = f"{path}, line {number + 1}"
        if len(fields) != len(COLUMNS):
            raise DataError(
                f"{where}: {len(fields)} comma-separated fields, expected {len(COLUMNS)} ({', '.join(COLUMNS)}); {_FIX}"
            )
        record = dict(zip(COLUMNS, fields))
        record["income"] = record["income"].removesuffix(".")
        if not record["age"].isdigit():
            raise DataError(f"{where}: age {record['age']!r} is not a whole number; {_FIX}")
        if record["sex"] not in SEXES:
            raise DataError(f"{where}: sex {record['sex']!r} is not one of {SEXES}; {_FIX}")
        if record["income"] not in INCOMES:
            raise DataError(f"{where}: income {record['income']!r} is not one of {INCOMES}; {_FIX}")
        rows.append(record)
        row_ids.append(number)
    if not rows:
        raise DataError(f"{path}: no records; replace it with the UCI adult.data file")
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame.insert(0, "row_id", np.asarray(row_ids, dtype=np.int64))
    frame["age"] = frame["age"].astype(np.int16)
    return frame
