"""What the studies found about a paper claim the run could not confirm.

A study (:mod:`causal_bandits.studies`) names the paper claims it examines
(:attr:`~causal_bandits.studies.Study.locates`) and writes a finding record for each
(:func:`causal_bandits.studies.finding`: *located*, *ruled out*, *partly*, *inconclusive*, with its numbers and one
sentence). Under such a claim whose verdict is *differs* or *inconclusive at this scale*, the report writes one
line per study: its record when the study ran in this run (its claims document's ``findings``, by claim id); that
it recorded none; or, when it did not run, which study examines the claim and the command that runs it, and
nothing about an outcome. Only a *located* record says a cause was located. The claim keeps its verdict: no claim
of a paper reads a study's outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits import studies
from causal_bandits.claims import DIFFERS, INCONCLUSIVE

#: The verdicts under which the report prints what the studies found.
EXAMINED = (DIFFERS, INCONCLUSIVE)
#: How a line introduces each outcome.
SAYS = {
    studies.LOCATED: "located the cause",
    studies.RULED_OUT: "ruled this cause out",
    studies.PARTLY: "explains part of the gap",
    studies.INCONCLUSIVE: "inconclusive",
}


def line(name: str, record: Mapping[str, str]) -> str:
    """The report's line for study ``name``'s finding ``record``."""
    numbers = f" ({record['numbers']})" if record.get("numbers") else ""
    if record["outcome"] == studies.LOCATED:  # its numbers (causal_bandits.studies.Located)
        numbers += (
            f" At {record['setting']} (the main run: {record['main_setting']}): {record['at_setting']}; "
            f"the other claims there: {record['others']}"
        )
    return f"Study {name} — {SAYS[record['outcome']]}: {record['sentence']}{numbers}."


def located(paper: str, row: Mapping[str, Any], ran: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The lines under claim ``row`` of ``paper``; ``ran``: the claims documents of the studies this run made, by
    study name."""
    if row["status"] not in EXAMINED:
        return []
    out = []
    for name in studies.STUDIES:
        record = studies.study(name)
        if record.paper != paper or not record.about(row["id"]):
            continue
        if name in ran:
            found = ran[name].get("findings", {}).get(row["id"])
            out.append(line(name, found) if found else f"Study {name} ran but recorded no finding for this claim.")
        else:
            out.append(
                f"Study {name} ({record.title}) examines this claim; it did not run here: `{record.command}` "
                f"(docs/{record.docs})."
            )
    return out
