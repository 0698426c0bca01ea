"""The replication report: every paper's claims with the paper's numbers beside ours.

Input: one document per paper, ``{"paper": key, "scale": "T = ..., ... seeds", "claims": [rows],
"notes": {key: text}}`` (:func:`causal_bandits.claims.document`), each row as produced by
:meth:`causal_bandits.claims.Claim.check`. Headings come from each paper package's ``TITLE``; the
report knows no paper's config: each paper's tables and figures come as
:class:`causal_bandits.artefacts.Artefact` lists. Output: Markdown (figures/REPORT.md,
:mod:`.md`) and an HTML page (figures/REPORT.html, :mod:`.page`), both linking the files
beside them and the documentation (:mod:`.links`); the notes several claims share are said once per
paper (:mod:`.notes`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from causal_bandits import papers, studies
from causal_bandits.artefacts import Artefact
from causal_bandits.report import own
from causal_bandits.report.md import Report
from causal_bandits.report.page import Page


def title(key: str) -> str:
    """The report heading of a paper (its package's ``TITLE``) or of a study (its title, then ``(study <name>)``)."""
    if key in studies.STUDIES:
        return f"{studies.study(key).title} (study {key})"
    return papers.paper(key).title


def render(
    papers: Sequence[Mapping[str, Any]],
    artefacts: Mapping[str, Sequence[Artefact]] | None = None,
    root: str | os.PathLike = ".",
    page_dir: str = "figures",
    experiments: Sequence[Mapping[str, Any]] = (),
    studies: Sequence[Mapping[str, Any]] = (),
    pure_exploration: Sequence[Mapping[str, Any]] = (),
) -> tuple[str, str]:
    """(markdown, html) of the report; ``artefacts`` are each paper's (and study's) tables and figures
    (:meth:`causal_bandits.papers.Paper.artefacts`), read under ``root``; both reports are written to
    ``page_dir`` (relative to ``root``), which their links to the files are relative to.
    ``experiments`` (summaries of own experiments) and ``pure_exploration`` (those of the ``pure_exploration:``
    block) add a last section each, without verdicts (:mod:`.own`); ``studies`` (the claims
    documents of the studies this run made, :func:`causal_bandits.studies.document`) a part after the papers,
    and their findings under the paper claims they locate (:mod:`.located`)."""

    page = Page(papers, artefacts or {}, title, root, page_dir, studies)
    found = own.sections(experiments, pure_exploration)
    return Report(page, title).render(found), page.render(found)
