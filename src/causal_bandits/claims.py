"""Claims as data: what a paper reports, where, and how we check it on our results.

A :class:`Claim` pairs a paper's statement (a value, an ordering, a set) with a function that
evaluates it on the pipeline's results and returns a :class:`Verdict`: *reproduced*, *differs*
(both numbers shown, the difference is a finding), *not specified by the paper* (the paper gives
nothing to compare with), or *not evaluated* (this run cannot check it, e.g. a paper-scale value
in a quick run, or a method not implemented yet; the note says which).

A verdict's ``note`` is what it alone says; what several claims of a paper say alike (the scale of the
run, a rule they share, the reconstruction they rest on) is a *shared note*, listed once in the paper's
claims module (a ``NOTES`` mapping from key to text, or to a function of the results writing the text)
and cited by key in :attr:`Verdict.notes`. The claims document carries the texts of the notes its rows
cite (:func:`note_texts`), so the report says each once per paper.
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
#: A shared note: its text, or a function writing it from the results (for the run's scale, say).
Note = str | Callable[[Results], str]


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict: ``note`` is what this verdict alone says, ``notes`` the keys of the paper's
    shared notes it also cites, in the order a reader should read them."""

    status: str
    paper: str
    ours: str
    note: str = ""
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")


@dataclass(frozen=True)
class Claim:
    id: str
    source: str  # where the paper says it: "Table 1", "§3, Prop. 1", "Fig. 5b"
    statement: str
    evaluate: Callable[[Results], Verdict]

    def check(self, results: Results) -> dict[str, Any]:
        """Evaluate on ``results``; the row the report prints (``notes``: a list of shared-note keys)."""
        verdict = self.evaluate(results)
        row = {"id": self.id, "source": self.source, "statement": self.statement, **asdict(verdict)}
        return {**row, "notes": list(verdict.notes)}


def note_texts(notes: Mapping[str, Note], rows: Sequence[Mapping[str, Any]], results: Results) -> dict[str, str]:
    """The texts of the shared ``notes`` (a paper's ``NOTES``) that ``rows`` cite, by key, in order of first
    citation; a function is called on ``results``. Raises ``KeyError`` naming a key no note has."""
    cited = dict.fromkeys(key for row in rows for key in row.get("notes", ()))
    unknown = [key for key in cited if key not in notes]
    if unknown:
        raise KeyError(f"claims cite shared notes {unknown} that the paper's NOTES does not list")
    return {key: text if isinstance(text, str) else text(results) for key in cited for text in (notes[key],)}


def document(
    paper: str,
    section: Mapping[str, Any],
    rows: list[dict[str, Any]],
    scale: str | None = None,
    notices: Sequence[str] = (),
    notes: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A paper's evaluated claims as the report reads them, with the scale of the run that made them.

    Every paper's config section holds ``horizon`` and ``n_seeds`` at its top level; by default the
    scale line reads ``"T = <horizon>, <n_seeds> seeds"``, and a paper whose horizon means something else
    (a pure-exploration sample cap) gives its own ``scale`` text. ``notices`` are what a reader must
    know before any verdict of the paper (synthetic stand-in data, say): the report puts them at its
    top and in the paper's header. A document without notices has no ``notices`` key. ``notes`` are the
    texts of the shared notes the rows cite (:func:`note_texts`), by key.
    """
    scale = scale or f"T = {section['horizon']:,}, {section['n_seeds']:,} seeds"
    doc = {"paper": paper, "scale": scale, "claims": rows, "notes": dict(notes or {})}
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


def holds(condition: bool, paper: str, ours: str, note: str = "", notes: Sequence[str] = ()) -> Verdict:
    """Verdict for a qualitative statement: reproduced when it holds on our results."""
    return Verdict(REPRODUCED if condition else DIFFERS, paper, ours, note, tuple(notes))
