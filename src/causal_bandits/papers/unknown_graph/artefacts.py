"""Lu, Meisami & Tewari's Figure 1 and the validation suite V1-V6 as the report shows them, each with
the claims it supports (:mod:`causal_bandits.artefacts`). The paper has no experiment: only Figure 1
is the paper's; V1-V6 are designed for this replication."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.artefacts import Artefact, figure, table

#: The anchor of docs/papers/unknown_graph.md's section comparing the paper's numbers with ours (the report links a
#: claim that cites no docs section there; a paper that declares none has ``<key>-numbers``).
NUMBERS = "unknown_graph-results"

OUT = "figures/unknown_graph"
DESIGNED = "designed for this replication, not from the paper"
REGRET = [r"thm1-"]
FORESTS = r"thm2-forests$"


#: Figure 1 with its trace and instance, and the figures and tables of V1-V6.
ARTEFACTS: tuple[Artefact, ...] = (
    figure(
        "figure1",
        "Figure 1: CN-UCB's stages 0-2 on the reconstructed 9-node tree",
        f"{OUT}/figure1",
        ids=[r"fig1-trace$"],
    ),
    Artefact(
        "figure1_trace",
        "Figure 1 (trace): the run's constants and steps; the instance as data "
        "(graph, CPTs, the exact mean of every single-node intervention) in figure1_instance.json",
        (f"{OUT}/figure1_trace.md", f"{OUT}/figure1_trace.csv", f"{OUT}/figure1_instance.json"),
        ids=(r"fig1-trace$",),
        caption="figure1",
    ),
    figure(
        "figV1",
        f"Figure V1: regret curves on trees [{DESIGNED}]",
        f"{OUT}/figV1_regret_curves_trees",
        ids=REGRET,
        caption="validation",
    ),
    figure(
        "figV2",
        f"Figure V2: regret at T against the number of nodes n [{DESIGNED}]",
        f"{OUT}/figV2_regret_vs_n",
        ids=REGRET,
        caption="validation",
    ),
    table(
        "table_final_regret",
        f"Table R_T: regret at T per cell of V1-V4 [{DESIGNED}]",
        f"{OUT}/table_final_regret",
        ids=[*REGRET, FORESTS],
        caption="validation",
    ),
    figure(
        "figV3",
        f"Figure V3: regret on forests [{DESIGNED}]",
        f"{OUT}/figV3_forests",
        ids=[FORESTS],
        caption="validation",
    ),
    figure(
        "figV4",
        f"Figure V4: regret on general graphs [{DESIGNED}]",
        f"{OUT}/figV4_general",
        ids=[r"thm3-cliques$"],
        caption="validation",
    ),
    table(
        "tableV4",
        f"Table V4: success of the key-clique search (Theorem 3) [{DESIGNED}]",
        f"{OUT}/tableV4_clique_success",
        ids=[r"thm3-cliques$"],
        caption="validation",
    ),
    figure(
        "figV5",
        f"Figure V5: the lower-bound families of Theorems 4 and 5 [{DESIGNED}]",
        f"{OUT}/figV5_lower_bounds",
        ids=[r"thm45$"],
        caption="validation",
    ),
    table(
        "tableV5",
        f"Table V5: regret on the lower-bound families [{DESIGNED}]",
        f"{OUT}/tableV5_lower_bounds",
        ids=[r"thm45$"],
        caption="validation",
    ),
    figure(
        "figV6",
        f"Figure V6: reliability of the discovery stage [{DESIGNED}]",
        f"{OUT}/figV6_discovery",
        ids=[r"lemma1$"],
        caption="validation",
    ),
    table(
        "tableV6_discovery",
        f"Table V6: discovery reliability on tree(h) [{DESIGNED}]",
        f"{OUT}/tableV6_discovery",
        ids=[r"lemma1$"],
        caption="validation",
    ),
    table(
        "tableV6_readings",
        f"Table V6 (readings): exact tests of the printed and corrected readings of the pseudo-code [{DESIGNED}]",
        f"{OUT}/tableV6_readings",
        ids=[r"alg3-printed$", r"alg78-printed$", r"component-order$"],
        caption="validation",
    ),
)


def artefacts(section: Mapping[str, Any]) -> list[Artefact]:
    """The paper's artefacts (:data:`ARTEFACTS`); the same for every config of its section."""
    return list(ARTEFACTS)
