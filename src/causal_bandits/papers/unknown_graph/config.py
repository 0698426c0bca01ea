"""Lu, Meisami & Tewari: config checks a schema cannot make, and the experiment cells of V1-V4."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError

#: Algorithms of the regret runs (names in paths) per experiment (SPEC §3.3).
ALGORITHMS_OF = {"V2": ("CNUCB", "UCB", "Oracle"), "V3": ("CNUCB", "UCB", "Oracle"),
                 "V4": ("CNUCB", "CNUCB_literal", "UCB", "Oracle")}


def cells(section: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every V1-V4 cell: name (the run store's ``experiment``) -> its family and parameters.

    V1 reuses the V2 runs (SPEC §3.3). Names: ``V2-tree{regime}-h{h}``, ``V3-forest-C{C}``,
    ``V4-path_power-n{n}-k{k}``.
    """
    trees, forests, general = section["trees"], section["forests"], section["general"]
    out = {f"V2-tree{r}-h{h}": {"experiment": "V2", "family": "tree", "regime": r, "h": h}
           for r in trees["regimes"] for h in trees["heights"]}
    out |= {f"V3-forest-C{c}": {"experiment": "V3", "family": "forest", "regime": "B", "C": c, "h": forests["h"]}
            for c in forests["components"]}
    out |= {f"V4-path_power-n{n}-k{k}": {"experiment": "V4", "family": "path_power", "regime": "B", "n": n, "k": k}
            for n in general["n"] for k in general["k"]}
    return out


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks; raises a one-line ConfigError."""
    for n in section["general"]["n"]:
        for k in section["general"]["k"]:
            if k >= n:
                raise ConfigError(f"unknown_graph.general: k = {k} needs n > k (got n = {n}); lower k or raise n")
