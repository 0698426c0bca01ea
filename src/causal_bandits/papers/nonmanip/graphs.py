"""Causal diagrams of Lee & Bareinboim (AAAI-19) and their structural facts, as data.

``GRAPHS`` maps a graph key to its :class:`CausalDiagram` (reward ``REWARD`` = "Y" in all of them);
``CASES`` lists every (graph, N) row of docs/papers/nonmanip.md#nonmanip-numbers-structural with its POMIS sets and
BF/MIS/POMIS arm counts (binary variables). ``stated_in_paper`` marks rows whose facts the paper states (for fig5d/{A,C}
the paper states the arm counts 27/19/15; the sets come from the reconstructed graph); the other
rows are derived here. Graphs marked [R] are reconstructions (the paper only draws them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.scm.diagram import CausalDiagram

REWARD = "Y"


def frontdoor() -> CausalDiagram:
    """Fig. 1, the front-door graph: X → Z → Y, X ↔ Y (used by Fig. 5a with N = {Z})."""
    return CausalDiagram(["X", "Z", "Y"], [("X", "Z"), ("Z", "Y")], [("X", "Y")])


def fig2a() -> CausalDiagram:
    """Fig. 2a (also Fig. 4, Fig. 5b with N = {A}): A → C, B → C, A → Y, C → Y; A ↔ B, B ↔ Y.

    Decoded from the text (MUCT/IB statements of §"Characterizing POMIS", Fig. 2 caption ℙ =
    {∅, {A}, {A, C}}, Fig. 4 projections, footnote 2); every statement of the paper holds for it.
    """
    return CausalDiagram(
        ["A", "B", "C", "Y"],
        [("A", "C"), ("B", "C"), ("A", "Y"), ("C", "Y")],
        [("A", "B"), ("B", "Y")],
    )


def fig3() -> CausalDiagram:
    """Fig. 3 [R]: a larger graph whose projection onto {X, Z, Y} is Fig. 1.

    H → X, H → Y, X → W1 → Z → W2 → Y, shaded (marginalised) {H, W1, W2}. The paper gives no
    structure; this is an illustrative reconstruction (docs/papers/nonmanip.md#nonmanip-r-fig3-graph).
    """
    return CausalDiagram(
        ["H", "X", "W1", "Z", "W2", "Y"],
        [("H", "X"), ("H", "Y"), ("X", "W1"), ("W1", "Z"), ("Z", "W2"), ("W2", "Y")],
    )


def fig5d() -> CausalDiagram:
    """Fig. 5d [R], used by Fig. 5c with N = {A, C}: B → C, C → D, C → E, D → Y, E → Y, A → Y;
    A ↔ B, A ↔ D.

    Reconstructed (docs/papers/nonmanip.md#nonmanip-r-fig5d-graph) to meet the paper's BF 27 / MIS 19 / POMIS 15 arms;
    not unique.
    """
    return CausalDiagram(
        ["A", "B", "C", "D", "E", "Y"],
        [("B", "C"), ("C", "D"), ("C", "E"), ("D", "Y"), ("E", "Y"), ("A", "Y")],
        [("A", "B"), ("A", "D")],
    )


GRAPHS: dict[str, CausalDiagram] = {
    "frontdoor": frontdoor(),
    "fig2a": fig2a(),
    "fig3": fig3(),
    "fig5d": fig5d(),
}


def _case(
    graph: str, N: tuple[str, ...], pomis: list[tuple[str, ...]], arms: tuple[int, int, int], stated: bool
) -> dict[str, Any]:
    return {"graph": graph, "N": N, "pomis": pomis, "arms": arms, "stated_in_paper": stated}


CASES: list[dict[str, Any]] = [
    _case("frontdoor", (), [(), ("Z",)], (9, 5, 3), True),
    _case("frontdoor", ("Z",), [(), ("X",)], (3, 3, 3), True),
    _case("frontdoor", ("X",), [(), ("Z",)], (3, 3, 3), False),
    _case("fig2a", (), [(), ("A",), ("A", "C")], (27, 15, 7), True),
    _case("fig2a", ("A",), [(), ("B",), ("C",)], (9, 5, 5), True),
    _case("fig2a", ("B",), [(), ("A",), ("A", "C")], (9, 9, 7), True),
    _case("fig2a", ("C",), [(), ("A",), ("A", "B")], (9, 9, 7), True),
    _case("fig2a", ("A", "B"), [(), ("C",)], (3, 3, 3), False),
    _case("fig2a", ("A", "C"), [(), ("B",)], (3, 3, 3), False),
    _case("fig2a", ("B", "C"), [(), ("A",)], (3, 3, 3), False),
    _case("fig5d", ("A", "C"), [(), ("B",), ("D",), ("E",), ("B", "E"), ("D", "E")], (27, 19, 15), True),
    _case("fig5d", (), [("A", "D", "E")], (243, 87, 8), False),
    _case("fig5d", ("A",), [(), ("D",), ("E",), ("C", "E"), ("D", "E")], (81, 29, 13), False),
    _case("fig5d", ("C",), [("A", "D", "E")], (81, 57, 8), False),
    _case("fig3", ("H", "W1", "W2"), [(), ("Z",)], (9, 5, 3), False),
]


def panel_diagram(panel: Mapping[str, Any]) -> tuple[CausalDiagram, str]:
    """(diagram, reward) of a panel: a paper graph by name or an inline diagram."""
    graph = panel["graph"]
    if isinstance(graph, str):
        return GRAPHS[graph], REWARD
    diagram = CausalDiagram(graph["nodes"], graph.get("directed", ()), graph.get("bidirected", ()))
    return diagram, graph["reward"]
