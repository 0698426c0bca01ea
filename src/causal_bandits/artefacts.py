"""A paper's final tables and figures, and which of its claims each one supports.

Every paper package has an ``artefacts`` module whose ``artefacts(section)`` lists, from the paper's
config section, the final outputs its rules write (paths relative to the working directory), named
after the paper's own numbering (or marked as designed for this replication), each with the claims
it supports: regular expressions searched in a claim's ``source`` label ("Table 1", "Fig. 5") or
matched at the start of its ``id`` (for sources that name a section, not an artefact).

The report embeds the artefacts beside the claims (:mod:`causal_bandits.report.page`) and the
workflow's report rule takes their paths as inputs. A claim no artefact supports links to its
paper's section instead (:func:`supporting`); nothing fails on an unknown source label.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath
from typing import Any

from causal_bandits.errors import CausalBanditsError

#: Suffixes the report can show, in the order it prefers them (a figure's PNG, a table's Markdown).
FIGURE_SUFFIXES = (".png",)
TABLE_SUFFIXES = (".md", ".csv")


@dataclass(frozen=True)
class Artefact:
    """One table or figure: ``key`` is unique within its paper (the page anchor is ``<paper>-<key>``);
    ``title`` starts with the paper's name for it and a colon ("Table 1: ...", "Figure 5: ...");
    ``paths`` are its files, the one the report shows first (a ``.png`` for a figure, a ``.md`` for a
    table), then its twins.
    ``absent`` says why this config does not write it (an experiment left out), or is empty: claims
    about an absent artefact still link to it, and the report says why it is missing."""

    key: str
    title: str
    paths: tuple[str, ...]
    sources: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    absent: str = ""

    def __post_init__(self) -> None:
        if not self.paths or PurePosixPath(self.paths[0]).suffix not in FIGURE_SUFFIXES + TABLE_SUFFIXES:
            raise CausalBanditsError(
                f"artefact {self.key!r}: its first path must be a .png figure or a .md/.csv "
                f"table the report can show, got {list(self.paths)}; put that file first"
            )

    @property
    def label(self) -> str:
        """The short name links use: the title up to its first colon ("Table 1 (conditional)")."""
        return self.title.partition(":")[0]

    @property
    def shown(self) -> str:
        """The file the report shows."""
        return self.paths[0]

    @property
    def is_figure(self) -> bool:
        return PurePosixPath(self.shown).suffix in FIGURE_SUFFIXES

    def supports(self, claim: Mapping[str, str]) -> bool:
        """Whether this artefact shows what ``claim`` (a claims row) is about."""
        return any(re.search(p, claim["source"]) for p in self.sources) or any(
            re.match(p, claim["id"]) for p in self.ids
        )

    def to_dict(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Artefact:
        fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
        return cls(**fields)


def figure(
    key: str, title: str, stem: str, sources: Sequence[str] = (), ids: Sequence[str] = (), absent: str = ""
) -> Artefact:
    """A figure written as ``<stem>.png`` and ``<stem>.pdf``."""
    return Artefact(key, title, (f"{stem}.png", f"{stem}.pdf"), tuple(sources), tuple(ids), absent)


def table(
    key: str, title: str, stem: str, sources: Sequence[str] = (), ids: Sequence[str] = (), absent: str = ""
) -> Artefact:
    """A table written as ``<stem>.md`` and ``<stem>.csv``."""
    return Artefact(key, title, (f"{stem}.md", f"{stem}.csv"), tuple(sources), tuple(ids), absent)


def supporting(claim: Mapping[str, str], artefacts: Sequence[Artefact]) -> list[Artefact]:
    """The artefacts a claim is about (empty when its source names none: the report then links its paper)."""
    return [a for a in artefacts if a.supports(claim)]


def paths(artefacts: Sequence[Artefact]) -> list[str]:
    """Every file of the ``artefacts`` this config writes (not the absent ones), each once, in order."""
    return list(dict.fromkeys(p for a in artefacts if not a.absent for p in a.paths))
