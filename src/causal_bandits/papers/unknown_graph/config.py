"""Lu, Meisami & Tewari: the config checks a schema cannot make (run when the workflow parses the config,
and by ``causal-bandits check-config``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks; raises a one-line ConfigError."""
    for n in section["general"]["n"]:
        for k in section["general"]["k"]:
            if k >= n:
                raise ConfigError(f"unknown_graph.general: k = {k} needs n > k (got n = {n}); lower k or raise n")
