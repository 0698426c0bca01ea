"""Huang & Wu's tables and figures as the report shows them, each with the claims it supports
(:mod:`causal_bandits.artefacts`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.artefacts import Artefact, figure, table

OUT = "figures/bounds"


#: Tables 1-2, Figures 2-4 and the two additions (α sensitivity, appendix algorithms).
ARTEFACTS: tuple[Artefact, ...] = (
    table(
        "table1_paper_marginal",
        "Table 1 (paper-marginal): reward estimation on the synthetic data, the estimand the published numbers match",
        f"{OUT}/table1_paper_marginal",
        sources=[r"^Table 1\b"],
        caption="table1",
    ),
    table(
        "table1_conditional",
        "Table 1 (conditional): reward estimation on the synthetic data, "
        "every column conditional on the context as the text defines it",
        f"{OUT}/table1_conditional",
        sources=[r"^Table 1$"],
        caption="table1",
    ),
    table(
        "table2",
        "Table 2: the conditional probability table of the offline data, with our rows' frequencies",
        f"{OUT}/table2",
        ids=["selected-rows$"],
    ),
    figure(
        "figure2",
        "Figure 2: the causal graph of the synthetic data",
        f"{OUT}/figure2",
        ids=["findrsi$", "cfactor-set$"],
    ),
    figure(
        "figure3_paper_marginal",
        "Figure 3 (paper-marginal): BCE bounds, CP, Biased and the truth per Table 1 index",
        f"{OUT}/figure3_paper_marginal",
        sources=[r"Fig\. 3\b"],
        caption="figure3",
    ),
    figure(
        "figure3_conditional",
        "Figure 3 (conditional): BCE bounds, CP, Biased and the truth per Table 1 index",
        f"{OUT}/figure3_conditional",
        sources=[r"Fig\. 3\b"],
        caption="figure3",
    ),
    figure(
        "figure4",
        "Figure 4: cumulative regret of LinUCB-PCB and the baselines",
        f"{OUT}/figure4",
        sources=[r"Fig\. 4$"],
    ),
    Artefact(
        "figure4_final",
        "Figure 4 (final values): mean cumulative regret at the horizon",
        (f"{OUT}/figure4_final.csv",),
        sources=(r"Fig\. 4$",),
        caption="figure4",
    ),
    figure(
        "figure4_alpha",
        "Figure 4 per α: Figure 4 for each LinUCB α (addition, not in the paper)",
        f"{OUT}/figure4_alpha",
        sources=[r"Fig\. 4, α"],
    ),
    figure(
        "figure_appendix",
        "Appendix algorithms: UCB-PCB and OAM-PCB against their baselines (addition: "
        "the paper specifies but never runs them)",
        f"{OUT}/figure_appendix",
        sources=[r"^App\. [DF]\b"],
    ),
)


def artefacts(section: Mapping[str, Any]) -> list[Artefact]:
    """The paper's artefacts (:data:`ARTEFACTS`); the same for every config of its section."""
    return list(ARTEFACTS)
