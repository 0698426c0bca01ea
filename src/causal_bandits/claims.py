"""Claims as data: what a paper reports, where, and how we check it on our results.

A :class:`Claim` pairs a paper's statement (a value, an ordering, a set) with a function that
evaluates it on the pipeline's results and returns a :class:`Verdict`: *reproduced*, *differs*
(both numbers shown, the difference is a finding), *not specified by the paper* (the paper gives
nothing to compare with), or *not evaluated* (this run cannot check it, e.g. a paper-scale value
in a quick run, or a method not implemented yet; the note says which).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

REPRODUCED = "reproduced"
DIFFERS = "differs"
NOT_SPECIFIED = "not specified by the paper"
NOT_EVALUATED = "not evaluated"
STATUSES = (REPRODUCED, DIFFERS, NOT_SPECIFIED, NOT_EVALUATED)

Results = Mapping[str, Any]


@dataclass(frozen=True)
class Verdict:
    status: str
    paper: str
    ours: str
    note: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")


@dataclass(frozen=True)
class Claim:
    id: str
    source: str  # where the paper says it: "Table 1", "§3, Prop. 1", "Fig. 5b"
    statement: str
    evaluate: Callable[[Results], Verdict]

    def check(self, results: Results) -> dict[str, str]:
        """Evaluate on ``results``; the row the report prints."""
        verdict = self.evaluate(results)
        return {"id": self.id, "source": self.source, "statement": self.statement, **asdict(verdict)}


def document(
    paper: str,
    section: Mapping[str, Any],
    rows: list[dict[str, str]],
    scale: str | None = None,
    notices: Sequence[str] = (),
) -> dict[str, Any]:
    """A paper's evaluated claims as the report reads them, with the scale of the run that made them.

    Every paper's config section holds ``horizon`` and ``n_seeds`` at its top level; by default the
    scale line reads "T = <horizon>, <n_seeds> seeds", and a paper whose horizon means something else
    (a pure-exploration sample cap) gives its own ``scale`` text. ``notices`` are what a reader must
    know before any verdict of the paper (synthetic stand-in data, say): the report puts them at its
    top and in the paper's header. A document without notices has no ``notices`` key.
    """
    scale = scale or f"T = {section['horizon']:,}, {section['n_seeds']:,} seeds"
    doc = {"paper": paper, "scale": scale, "claims": rows}
    return {**doc, "notices": list(notices)} if notices else doc


def fmt(x: float, digits: int = 2) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def within(ours: float, paper: float, rel_tol: float, ours_text: str | None = None) -> Verdict:
    """Verdict for a number the paper reports, with a relative tolerance fixed in advance."""
    diff = (ours - paper) / paper
    status = REPRODUCED if abs(diff) <= rel_tol else DIFFERS
    return Verdict(
        status,
        fmt(paper),
        ours_text or fmt(ours),
        f"{diff:+.1%} from the paper (tolerance ±{rel_tol:.0%})",
    )


def holds(condition: bool, paper: str, ours: str, note: str = "") -> Verdict:
    """Verdict for a qualitative statement: reproduced when it holds on our results."""
    return Verdict(REPRODUCED if condition else DIFFERS, paper, ours, note)
