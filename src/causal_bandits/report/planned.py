"""The report's section on seeds planned before the run (:mod:`causal_bandits.planned_runs`:
results/planned/claims.json).

Per claim of the plan (:mod:`causal_bandits.seed_plans`): the seeds (or runs) of the main run and its verdict, the
planned seeds and the verdict on them alone, or, for a claim the plan does not run, why (its reason, or "above
budget: N seeds, X CPU-min"). The main run's verdict stays the claim's verdict in its paper's section; how the two
are read together is said in the section (:data:`READ`) and in docs/guide/reading-the-report.md#seed-plans.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TITLE = "Seeds planned before the run"
READ = (
    "For each claim the archived paper-scale run left *inconclusive at this scale*, the seeds (or runs) that would "
    "decide it were computed from its archived interval and recorded with the rules before this run "
    "(src/causal_bandits/preregistration/seed_plans.yaml, plan {plan}). A plan within its budget ran on fresh seeds "
    "(numbered from 1,000,000, streams disjoint from the main run's), and the claim is judged by the same rule on "
    "the planned seeds alone. The main run's verdict stays the claim's verdict above; the verdict on the planned "
    "seeds is a second test on independent seeds that decides a claim the main run leaves undecided. Where the two "
    "disagree, both stand, and the claim is read as not settled."
)
HEAD = (
    "| claim | seeds of the paper-scale run | main run's verdict | planned seeds | verdict on the planned seeds |",
    "|---|---|---|---|---|",
)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def not_run(entry: Mapping[str, Any]) -> str:
    """Why a claim has no verdict on planned seeds: for a plan of a count, ``above budget: N seeds, X CPU-min``
    (which budget after it) or why this run did not run it; else the plan's reason no count decides it."""
    if "plan" not in entry:
        return str(entry["not_run"])
    plan, why = entry["plan"], entry["not_run"]
    cost = f"{plan['planned']:,} {entry['unit']}, {plan['cpu_s'] / 60:.1f} CPU-min"
    if why.startswith("above "):
        return f"above budget: {cost} ({why.removeprefix('above ')}); stays inconclusive"
    return f"not run: {why} ({cost})"


def rows(planned: Mapping[str, Any]) -> list[str]:
    """The table's rows, one per claim of the plan."""
    out = []
    for key, item in planned["claims"].items():
        seen = f"{item['main_seeds']:,} {item['unit']}" if item["main_seeds"] else "–"
        main = f"*{item['main']['status']}*" if item["main"] else "not in this run"
        if "planned" in item:
            j = item["planned"]
            seeds = f"{j['planned_seeds']:,} ({j['seeds'][0]:,}–{j['seeds'][1]:,})"
            verdict = f"**{j['status']}**: {j['ours']}"
        else:
            seeds, verdict = "–", not_run(item)
        out.append(f"| `{key}` | {seen} | {_cell(main)} | {seeds} | {_cell(verdict)} |")
    return out


def markdown(planned: Mapping[str, Any]) -> str:
    """The section's text (without its heading): how to read it, then the table."""
    return "\n".join([READ.format(plan=planned["plan"][:12]), "", *HEAD, *rows(planned)]) + "\n"
