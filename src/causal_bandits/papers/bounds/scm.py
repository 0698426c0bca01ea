"""Huang & Wu: the SCM of the config (Table 2's CPT, Figure 2's roles), as the jobs build it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.scm.cpt import CPTModel


def model(config: Mapping[str, Any]) -> CPTModel:
    """The SCM of the ``bounds`` config section."""
    return CPTModel.from_config(config["scm"])
