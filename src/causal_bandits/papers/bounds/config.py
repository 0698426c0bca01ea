"""Huang & Wu: the config checks a schema cannot make (run when the workflow parses the config, and by
``causal-bandits check-config``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError
from causal_bandits.papers.bounds.scm import model


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks the schema cannot make; raises a one-line CausalBanditsError."""
    m = model(section)
    online, offline = section["online"], section["offline"]
    if online["context_source"] == "offline_rows" and section["horizon"] > offline["n_rows"]:
        raise ConfigError(
            f"bounds.horizon = {section['horizon']} exceeds bounds.offline.n_rows = "
            f"{offline['n_rows']}, so context_source: offline_rows has too few rows; use iid "
            "or generate more rows"
        )
    for v in offline["biased_adjust"]:
        if v not in m.variables or v == m.selection:
            raise ConfigError(
                f"bounds.offline.biased_adjust names {v!r}, not a variable of the SCM; use "
                f"variables among {sorted(set(m.variables) - {m.selection})}"
            )
