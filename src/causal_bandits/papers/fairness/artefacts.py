"""Huang, Zhang & Wu's tables and figures as the report shows them, each with the claims it supports
(:mod:`causal_bandits.artefacts`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.artefacts import Artefact, figure, table

#: The anchor of docs/papers/fairness.md's section comparing the paper's numbers with ours (the report links a
#: claim that cites no docs section there; a paper that declares none has ``<key>-numbers``).
NUMBERS = "fairness-results"

OUT = "figures/fairness"


def artefacts(section: Mapping[str, Any]) -> list[Artefact]:
    """Tables 1, 2, 4 and 5 and Figures 1, 2(a), 2(b) and 3."""
    return [
        table(
            "table1",
            "Table 1: Email Campaign, F-UCB's regret and the unfair decisions per τ",
            f"{OUT}/table1",
            sources=[r"\bTable 1\b"],
        ),
        figure(
            "figure2b",
            "Figure 2(b): cumulative regret of UCB, C-UCB, D-UCB and F-UCB on Email Campaign",
            f"{OUT}/figure2b",
            sources=[r"\bFig\. 2\(b\)"],
        ),
        figure(
            "figure2a",
            "Figure 2(a): the Email Campaign graph with its minimum d-separation set",
            f"{OUT}/figure2a",
            sources=[r"\bFig\. 2\(a\)"],
            caption="diagrams",
        ),
        table(
            "table4",
            "Table 4: the variables of the Email Campaign data, the paper's domains beside ours",
            f"{OUT}/table4",
            sources=[r"\bTable 4\b"],
            ids=[r"email-best-arm$"],
            caption="tables45",
        ),
        table(
            "table5",
            "Table 5: P(I4 | X1, X2, X3), read back from the network",
            f"{OUT}/table5",
            sources=[r"\bTable 5\b"],
            caption="tables45",
        ),
        table(
            "table2",
            "Table 2: Adult-Video, F-UCB's and Fair-LinUCB's regret and unfair decisions per τ",
            f"{OUT}/table2",
            sources=[r"\bTable 2\b"],
            ids=[r"table2-", r"adult-instances$", r"adult-sexes$", r"youtube-video-types$"],
        ),
        figure(
            "figure3",
            "Figure 3: the Adult-Video causal graph learned by PC-stable",
            f"{OUT}/figure3",
            sources=[r"\bFig\. 3\b"],
            ids=[r"adult-dsep$"],
        ),
        figure(
            "figure1",
            "Figure 1: the causal graph of a contextual bandit with a soft intervention",
            f"{OUT}/figure1",
            caption="diagrams",
        ),
    ]
