"""A paper's final tables and figures, and which of its claims each one supports.

Every paper package has an ``artefacts`` module whose ``artefacts(section)`` lists, from the paper's
config section, the final outputs its rules write (paths relative to the working directory), named
after the paper's own numbering (or marked as designed for this replication), each with the claims
it supports: regular expressions searched in a claim's ``source`` label ("Table 1", "Fig. 5") or
matched at the start of its ``id`` (for sources that name a section, not an artefact).

The report embeds the artefacts beside the claims (:mod:`causal_bandits.report.page`), the
workflow's report rule takes their paths as inputs, and the rule that writes an artefact takes its
outputs from here (:func:`rule_outputs`, through ``artefact_outputs`` in workflow/rules/common.smk),
with the caption Snakemake's report shows (:func:`caption_file`): an artefact's files are named
once, in its declaration. A claim no artefact supports links to its
paper's section instead (:func:`supporting`); nothing fails on an unknown source label.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
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
    table), then its twins. ``caption`` names its caption in Snakemake's report (:func:`caption_file`; the key
    where empty), which twin artefacts share.
    ``absent`` says why this config does not write it (an experiment left out), or is empty: claims
    about an absent artefact still link to it, and the report says why it is missing."""

    key: str
    title: str
    paths: tuple[str, ...]
    sources: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    absent: str = ""
    caption: str = ""

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


@dataclass(frozen=True)
class Kind:
    """A kind of artefact: the files one is written as, ``<stem>.<suffix>`` for each of ``suffixes``; calling it
    declares one (:class:`Artefact`)."""

    suffixes: tuple[str, ...]

    def __call__(
        self,
        key: str,
        title: str,
        stem: str,
        sources: Sequence[str] = (),
        ids: Sequence[str] = (),
        absent: str = "",
        caption: str = "",
    ) -> Artefact:
        files = tuple(f"{stem}.{suffix}" for suffix in self.suffixes)
        return Artefact(key, title, files, tuple(sources), tuple(ids), absent, caption)


#: A figure written as ``<stem>.png`` and ``<stem>.pdf``.
figure = Kind(("png", "pdf"))
#: A table written as ``<stem>.md`` and ``<stem>.csv``.
table = Kind(("md", "csv"))


def supporting(claim: Mapping[str, str], artefacts: Sequence[Artefact]) -> list[Artefact]:
    """The artefacts a claim is about (empty when its source names none: the report then links its paper)."""
    return [a for a in artefacts if a.supports(claim)]


def paths(artefacts: Sequence[Artefact]) -> list[str]:
    """Every file of the ``artefacts`` this config writes (not the absent ones), each once, in order."""
    return list(dict.fromkeys(p for a in artefacts if not a.absent for p in a.paths))


def _matching(artefacts: Sequence[Artefact], pattern: str) -> Iterator[tuple[Artefact, dict[str, str]]]:
    """The artefacts whose key ``pattern`` matches (its ``{name}`` parts are wildcards), with the wildcards' values."""
    names = re.findall(r"{(\w+)}", pattern)
    regex = re.compile(
        "".join(
            f"(?P<{p[1:-1]}>.+?)" if p in {f"{{{n}}}" for n in names} else re.escape(p)
            for p in re.split(r"({\w+})", pattern)
        )
    )
    for artefact in artefacts:
        if found := regex.fullmatch(artefact.key):
            yield artefact, found.groupdict()


def _template(artefact: Artefact, values: Mapping[str, str]) -> tuple[str, ...]:
    """The artefact's paths with each wildcard value (which must occur once in each) written back as ``{name}``."""
    paths = []
    for path in artefact.paths:
        for name, value in values.items():
            if path.count(value) != 1:
                raise CausalBanditsError(
                    f"artefact {artefact.key!r}: its path {path} holds {value!r} (the {{{name}}} of its key) "
                    f"{path.count(value)} times, not once; name its files after its key"
                )
            path = path.replace(value, f"{{{name}}}")
        paths.append(path)
    return tuple(paths)


def rule_outputs(artefacts: Sequence[Artefact], keys: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The outputs of the rule that writes the artefacts ``keys``: output name -> (path, caption).

    A key may hold wildcards (``table1_{variant}``: every artefact it matches, one path pattern for all of them) and
    end in a suffix (``figure1_trace.json``: only that file, where another rule writes its twins). A rule of one key
    names its outputs by suffix (``png``, ``pdf``, ``md``, ``csv``), of several by ``<key>_<suffix>``; the caption
    is the artefact's (:attr:`Artefact.caption`, its key where it names none). Artefacts this config leaves out
    (``absent``) have no outputs."""
    outputs: dict[str, tuple[str, str]] = {}
    present = [a for a in artefacts if not a.absent]
    for selector in keys:
        key, _, only = selector.partition(".")
        found = {_template(a, values): a for a, values in _matching(present, key)}
        if len(found) != 1:
            declared = ", ".join(a.key for a in present)
            raise CausalBanditsError(
                f"artefact key {selector!r} matches {len(found)} path patterns of the artefacts this config writes "
                f"({declared}), not one; name a declared key, or one pattern its artefacts' paths share"
            )
        ((paths, artefact),) = found.items()
        for path in paths:
            suffix = PurePosixPath(path).suffix.lstrip(".")
            if only in ("", suffix):
                name = suffix if len(keys) == 1 else f"{key.replace('{', '').replace('}', '')}_{suffix}"
                outputs[name] = (path, artefact.caption or artefact.key)
    return outputs


def caption_file(folder: Path, paper: str, caption: str) -> Path:
    """The caption Snakemake's report shows for an artefact of ``paper`` whose caption is ``caption``
    (:attr:`Artefact.caption`): ``<folder>/<paper>_<caption>.rst``, or the paper's one caption for all its artefacts,
    ``<folder>/<paper>.rst``, where it has no caption of its own (a new paper's scaffold)."""
    own = folder / f"{paper}_{caption}.rst"
    return own if own.is_file() else folder / f"{paper}.rst"
