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


def discovery_settings(discovery: Mapping[str, Any]) -> list[tuple[float, float]]:
    """The (delta, c_B) grid of the V6 discovery runs (``discovery`` is the section's block), in the order of
    their table's rows: delta outer, c_B inner. One job per regime, height and setting: a height-9 setting
    costs about a minute of CPU, the whole height eight."""
    return [(delta, c_B) for delta in discovery["deltas"] for c_B in discovery["c_B"]]


def discovery_setting_name(delta: float, c_B: float) -> str:
    """A V6 setting in a file name, ``d0.01-c0.3`` (each float's shortest text that reads back as it)."""
    return f"d{delta!r}-c{c_B!r}"


def discovery_setting(discovery: Mapping[str, Any], name: str) -> tuple[float, float]:
    """The grid's (delta, c_B) named ``name`` (:func:`discovery_setting_name`); ValueError listing the grid's
    names if none is."""
    for pair in discovery_settings(discovery):
        if discovery_setting_name(*pair) == name:
            return pair
    names = ", ".join(discovery_setting_name(*pair) for pair in discovery_settings(discovery))
    raise ValueError(f"no V6 discovery setting {name!r}; the config's grid has {names}")
