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
from functools import partial
from typing import TYPE_CHECKING, Any

from causal_bandits import papers, studies
from causal_bandits.artefacts import Artefact
from causal_bandits.report import own
from causal_bandits.report.md import Report
from causal_bandits.report.page import Page

if TYPE_CHECKING:
    from causal_bandits.stages import Job

from pathlib import Path

from causal_bandits import store


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
    planned: Mapping[str, Any] | None = None,
    pure_exploration: Sequence[Mapping[str, Any]] = (),
) -> tuple[str, str]:
    """(markdown, html) of the report; ``artefacts`` are each paper's (and study's) tables and figures
    (:meth:`causal_bandits.papers.Paper.artefacts`), read under ``root``; both reports are written to
    ``page_dir`` (relative to ``root``), which their links to the files are relative to.
    ``experiments`` (summaries of own experiments) and ``pure_exploration`` (those of the ``pure_exploration:``
    block) add a last section each, without verdicts (:mod:`.own`); ``studies`` (the claims
    documents of the studies this run made, :func:`causal_bandits.studies.document`) a part after the papers,
    and their findings under the paper claims they locate (:mod:`.located`); ``planned`` (results/planned/claims.json,
    :func:`causal_bandits.planned_runs.summary`) a section on the seeds planned before the run (:mod:`.planned`)."""

    page = Page(papers, artefacts or {}, title, root, page_dir, studies, planned=planned)
    found = own.sections(experiments, pure_exploration)
    return Report(page, title).render(found), page.render(found)


def report_step(job: Job) -> None:
    """Rule report: figures/REPORT.md and REPORT.html (:func:`render`) from every paper's evaluated claims and its
    tables and figures, the own and pure-exploration experiments' summaries, the studies' claims and the claims
    judged on planned seeds (read from the working directory)."""
    inp = job.input
    claims = [store.read_json(p) for p in inp.claims]
    artefacts = {paper: [Artefact.from_dict(a) for a in found] for paper, found in job.params.artefacts.items()}
    experiments = [store.read_json(p) for p in inp.experiments]
    pure_exploration = [store.read_json(p) for p in inp.pure_exploration]
    found_studies = [store.read_json(p) for p in inp.studies]
    planned = store.read_json(inp.planned[0]) if inp.planned else None
    page_dir = os.path.dirname(job.output.html)
    md, html = render(
        claims,
        artefacts,
        page_dir=page_dir,
        experiments=experiments,
        studies=found_studies,
        planned=planned,
        pure_exploration=pure_exploration,
    )
    store.write_atomic(job.output.md, partial(Path.write_text, data=md))
    store.write_atomic(job.output.html, partial(Path.write_text, data=html))
