"""What the studies say of a paper claim that differs.

A study (:mod:`causal_bandits.studies`) names the paper claims whose cause it locates
(:attr:`~causal_bandits.studies.Study.locates`). Under such a claim whose verdict is *differs*, the report
writes one line per study: the study's finding about that claim when the study ran in this run (its claims
document's ``findings``, by claim id), else where the study is documented and the command that runs it. The
claim keeps its verdict: no claim of a paper reads a study's outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import studies
from causal_bandits.claims import DIFFERS


def located(paper: str, row: Mapping[str, Any], ran: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The lines under claim ``row`` of ``paper``; ``ran``: the claims documents of the studies this run made, by
    study name."""
    if row["status"] != DIFFERS:
        return []
    out = []
    for name in studies.STUDIES:
        record = studies.study(name)
        if record.paper != paper or not record.about(row["id"]):
            continue
        if name in ran:
            finding = ran[name].get("findings", {}).get(row["id"])
            out.append(f"Study {name}: {finding}." if finding else f"Study {name}: see its section.")
        else:
            out.append(f"Study {name} ({record.title}) locates its cause: docs/{record.docs}; run `{record.command}`.")
    return out
