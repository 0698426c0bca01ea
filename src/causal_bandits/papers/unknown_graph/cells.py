"""Lu, Meisami & Tewari: the experiment cells of V1-V4 and the algorithms each runs (read by the
workflow and by the table and figure jobs)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Algorithms of the regret runs (names in paths) per experiment.
ALGORITHMS_OF = {
    "V2": ("cn_ucb", "ucb", "oracle"),
    "V3": ("cn_ucb", "ucb", "oracle"),
    "V4": ("cn_ucb", "cn_ucb_literal", "ucb", "oracle"),
}


def cells(section: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every V1-V4 cell: name (the run store's ``experiment``) -> its family and parameters.

    V1 reuses the V2 runs. Names: ``V2-tree{regime}-h{h}``, ``V3-forest-C{C}``,
    ``V4-path_power-n{n}-k{k}``.
    """
    trees, forests, general = section["trees"], section["forests"], section["general"]
    out = {
        f"V2-tree{r}-h{h}": {"experiment": "V2", "family": "tree", "regime": r, "h": h}
        for r in trees["regimes"]
        for h in trees["heights"]
    }
    out |= {
        f"V3-forest-C{c}": {"experiment": "V3", "family": "forest", "regime": "B", "C": c, "h": forests["height"]}
        for c in forests["components"]
    }
    out |= {
        f"V4-path_power-n{n}-k{k}": {"experiment": "V4", "family": "path_power", "regime": "B", "n": n, "k": k}
        for n in general["n"]
        for k in general["k"]
    }
    return out
