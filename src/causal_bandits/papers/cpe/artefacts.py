"""The cpe replication's tables and figures as the report shows them, each with the claims it
supports (:mod:`causal_bandits.artefacts`). All are designed for this replication: the paper's main
body has no experiment, table or figure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.artefacts import Artefact, figure, table
from causal_bandits.papers.cpe.design import experiments_run

#: The anchor of docs/papers/cpe.md's section comparing the paper's numbers with ours (the report links a
#: claim that cites no docs section there; a paper that declares none has ``<key>-numbers``).
NUMBERS = "cpe-results"

OUT = "figures/cpe"
DESIGNED = "designed for this replication, not from the paper"
#: Figure number, subject and the claims (by id) of each experiment's figure.
FIGURES = {
    "E0": (0, "CI coverage: violations and samples per α_O", [r"ci-validity-E0$"]),
    "E1": (1, "samples to stop against the number of arms |A|", [r"pac-E1-", r"e1-"]),
    "E2": (2, "samples against the gap and the rarity of the parents", [r"pac-E2-", r"e2-"]),
    "E3": (3, "samples and correctness against confounding ρ", [r"pac-E3-", r"e3-", r"naive-fails-E3$"]),
    "E4": (4, "samples against the BGLM size k, with the E4b theory curves", [r"pac-E4-", r"e4"]),
    "E5": (5, "samples against Theorem 3's lower bound", [r"pac-E5-", r"e5-"]),
}


def artefacts(section: Mapping[str, Any]) -> list[Artefact]:
    """Tables 1-4 and Figures 0-6; a figure of an experiment this config leaves out is listed as absent."""
    run = experiments_run(section)
    out = [
        table(
            "table1_instances",
            f"Table 1: exact complexity quantities of every instance [{DESIGNED}]",
            f"{OUT}/table1_instances",
            ids=[r"lemma1$", r"thm2-vs-lucb$"],
            caption="tables",
        ),
        table(
            "table2_pac",
            f"Table 2: PAC correctness (Wilson 95 %), censoring and samples to stop [{DESIGNED}]",
            f"{OUT}/table2_pac",
            ids=[r"pac-", r"naive-fails-E3$", r"ci-validity-E0$"],
            caption="tables",
        ),
        table(
            "table3_lower_bound",
            f"Table 3: samples against Theorem 3's lower bound (E5) [{DESIGNED}]",
            f"{OUT}/table3_lower_bound",
            ids=[r"e5-"],
            caption="tables",
        ),
        table(
            "table4_slopes",
            f"Table 4: log-log slopes of samples against the number of arms [{DESIGNED}]",
            f"{OUT}/table4_slopes",
            ids=[r"e1-slopes$"],
            caption="tables",
        ),
    ]
    for experiment, (number, subject, ids) in FIGURES.items():
        if experiment not in section["experiments"]:
            continue
        absent = "" if experiment in run else f"{experiment} is not in cpe.run_experiments of this config"
        out.append(
            figure(
                f"figure{number}",
                f"Figure {number}: {experiment}, {subject} [{DESIGNED}]",
                f"{OUT}/figure{number}",
                ids=ids,
                absent=absent,
                caption="figures",
            )
        )
    out.append(
        figure(
            "figure6", f"Figure 6: error probability against samples [{DESIGNED}]", f"{OUT}/figure6", caption="figures"
        )
    )
    return out
