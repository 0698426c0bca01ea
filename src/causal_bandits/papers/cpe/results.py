"""The aggregated cpe results that the tables, figures and claims rules read, loaded from their files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from causal_bandits import store


def load(stopping: Iterable[str], budget: Iterable[str], quantities: Iterable[str], theory: str) -> dict[str, Any]:
    """``stopping``/``budget``: per-experiment aggregates (``<exp>.parquet``, ``<exp>.budget.parquet``);
    ``quantities``: per-instance complexity JSON (``<exp>/<config>.json``); ``theory``: the E4b curves."""
    return {
        "stopping": {Path(x).name.removesuffix(".parquet"): store.read_table(x).to_pandas() for x in stopping},
        "budgets": {Path(x).name.removesuffix(".budget.parquet"): store.read_table(x).to_pandas() for x in budget},
        "quantities": {
            (Path(x).parent.name, Path(x).name.removesuffix(".json")): store.read_json(x) for x in quantities
        },
        "theory": store.read_json(theory),
    }
