"""Lee & Bareinboim's tables and figures as the report shows them, each with the claims it supports
(:mod:`causal_bandits.artefacts`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.artefacts import Artefact, figure, table

OUT = "figures/nonmanip"
FIGURE5 = r"\bFig(\.|ure) 5"


def artefacts(section: Mapping[str, Any]) -> list[Artefact]:
    """Table 1, Figures 1-5, the optimal-arm addition to Figure 5 and the POMIS+ expression catalogue."""
    return [
        table(
            "table1",
            "Table 1: mean cumulative regret at T of TS and kl-UCB per arm set, POMIS+ and its reduction",
            f"{OUT}/table1",
            sources=[r"\bTable 1\b"],
            ids=[r"reduction-"],
        ),
        Artefact(
            "catalogue",
            "Addition (Alg. 3): the POMIS+ expression catalogue, z²ID expressions per Figure 5 task "
            "(not a table of the paper)",
            (f"{OUT}/catalogue.md",),
            ids=(r"expressions-",),
        ),
        figure(
            "figure5",
            "Figure 5: cumulative regret per task, one colour per arm set",
            f"{OUT}/figure5",
            sources=[FIGURE5, r"^footnote 4$"],
        ),
        figure(
            "figure5_optimal_arm",
            "Figure 5 (optimal arm): probability of playing an optimal arm (addition, not in the paper)",
            f"{OUT}/figure5_optimal_arm",
        ),
        figure(
            "figure1", "Figure 1: the front-door graph", f"{OUT}/figure1", ids=[r"pomis-frontdoor-"], caption="diagrams"
        ),
        figure(
            "figure2",
            "Figure 2: MUCT and interventional border of the Figure 2a graph",
            f"{OUT}/figure2",
            ids=[r"pomis-fig2a-N0$"],
            caption="diagrams",
        ),
        figure(
            "figure3",
            "Figure 3: a graph that projects onto the front-door graph (reconstructed)",
            f"{OUT}/figure3",
            ids=[r"pomis-fig3-"],
            caption="diagrams",
        ),
        figure(
            "figure4",
            "Figure 4: latent projections of the Figure 2a graph (one variable non-manipulable)",
            f"{OUT}/figure4",
            ids=[r"pomis-fig2a-N[A-Z]"],
            caption="diagrams",
        ),
    ]
