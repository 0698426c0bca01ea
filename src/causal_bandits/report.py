"""The replication report: every paper's claims with the paper's numbers beside ours.

Input: one document per paper, ``{"paper": key, "scale": "T = ..., ... seeds", "claims": [rows]}``
(:func:`causal_bandits.claims.document`), each row as produced by
:meth:`causal_bandits.claims.Claim.check`. Headings come from each paper package's ``TITLE``; the
report knows no paper's config: each paper's tables and figures come as
:class:`causal_bandits.artefacts.Artefact` lists. Output: Markdown (figures/REPORT.md, links to the
files) and a self-contained HTML page (figures/REPORT.html, :mod:`causal_bandits.report_page`).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from typing import Any

from causal_bandits.artefacts import Artefact, supporting
from causal_bandits.claims import STATUSES
from causal_bandits.report_notes import shared_notes, split_rows
from causal_bandits.report_page import FIGURE_SCALE, Page, counts, markdown_html, png


def title(paper: str) -> str:
    """The report heading of a paper: its package's ``TITLE``."""
    return importlib.import_module(f"causal_bandits.papers.{paper}").TITLE


def _scale(papers: Sequence[Mapping[str, Any]]) -> str:
    return "; ".join(f"{p['paper']}: {p['scale']}" for p in papers)


def _counts(rows: Sequence[Mapping[str, str]]) -> str:
    c = counts(rows)
    return ", ".join(f"{c[s]} {s}" for s in STATUSES if c[s])


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _md_links(row: Mapping[str, str], artefacts: Sequence[Artefact], page: Page) -> str:
    found = supporting(row, artefacts)
    return ", ".join(f"[{a.title.split(':')[0]}]({page.href(a.shown)})" for a in found) or "–"


def experiments_section(experiments: Sequence[Mapping[str, Any]], page: Page) -> tuple[str, str]:
    """(markdown, html) of researchers' own experiments (summaries of
    :func:`causal_bandits.experiments.summary.document`): their numbers, table and regret figure,
    without verdicts (they are no paper's claims)."""
    from causal_bandits.experiments.summary import markdown, table

    intro = "Studies of this run's `experiments:` config section, not of any paper: numbers only, no verdicts."
    md, html = ["", "## Own experiments", "", intro], [f"<h2 id=experiments>Own experiments</h2>{markdown_html(intro)}"]
    for e in experiments:
        head = f"{e['title']} (`{e['experiment']}`)"
        scale = (
            f"T = {e['horizon']:,}, {e['n_seeds']} seeds; best arm mean {e['mu_star']:.4f} "
            f"({', '.join(e['optimal_arms'])})."
        )
        rows = markdown(table(e["rows"])).rstrip("\n")
        where = f"Table: [{e['table']}]({page.href(e['table'])}); figure: [{e['figure']}]({page.href(e['figure'])})."
        md += ["", f"### {head}", "", f"{scale} {where}", "", rows]
        uri, width = png(page.root / e["figure"])
        html.append(
            f"<h3>{markdown_html(head)}</h3>{markdown_html(scale)}{markdown_html(rows)}"
            f'<figure><img src="{uri}" style="width:{round(width * FIGURE_SCALE)}px" alt="regret"></figure>'
        )
    return "\n".join(md) + "\n", "".join(html)


def _md_notices(papers: Sequence[Mapping[str, Any]]) -> list[str]:
    found = [(p, n) for p in papers for n in p.get("notices", ())]
    if not found:
        return []
    return ["", "**Read first.** " + " ".join(f"{title(p['paper'])}: {n}" for p, n in found)]


def _md_section(paper: Mapping[str, Any], shown: Sequence[Artefact], page: Page) -> list[str]:
    rows = paper["claims"]
    notes = shared_notes(rows)
    judged, unjudged = split_rows(rows)
    md = ["", f"## {title(paper['paper'])}", ""]
    md += [f"**{n}**" for n in paper.get("notices", ())] + ([""] if paper.get("notices") else [])
    md += [f"{_counts(rows)} ({paper['scale']})."]
    if notes.shared:
        md += ["", "Notes shared by several claims below:", ""]
        md += [f"{i}. {_md_cell(n)}" for i, n in enumerate(notes.shared, 1)]
    if judged:
        md += ["", "| claim | source | paper | ours | verdict | note | shown in |", "|---|---|---|---|---|---|---|"]
        md += [
            f"| {_md_cell(r['statement'])} | {_md_cell(r['source'])} | {_md_cell(r['paper'])} | "
            f"{_md_cell(r['ours'])} | **{r['status']}** | {_md_cell(notes.row[r['id']])} | "
            f"{_md_links(r, shown, page)} |"
            for r in judged
        ]
    if unjudged:
        md += [
            "",
            f"### Not evaluated in this run ({len(unjudged)})",
            "",
            "This run cannot judge these claims; our number, in italics, is shown for information and is "
            "not a verdict.",
            "",
            "| claim | source | paper | ours (not judged) | why not | shown in |",
            "|---|---|---|---|---|---|",
        ]
        md += [
            f"| {_md_cell(r['statement'])} | {_md_cell(r['source'])} | {_md_cell(r['paper'])} | "
            f"{_md_unjudged(r['ours'])} | {_md_cell(notes.row[r['id']])} | {_md_links(r, shown, page)} |"
            for r in unjudged
        ]
    return md


def _md_unjudged(ours: str) -> str:
    text = _md_cell(ours).strip()
    return f"*{text}*" if text and text not in ("–", "-") else (text or "–")


def render(
    papers: Sequence[Mapping[str, Any]],
    artefacts: Mapping[str, Sequence[Artefact]] | None = None,
    root: str | os.PathLike = ".",
    page_dir: str = "figures",
    experiments: Sequence[Mapping[str, Any]] = (),
) -> tuple[str, str]:
    """(markdown, html) of the report; ``artefacts`` are each paper's tables and figures
    (:func:`causal_bandits.artefacts.of_paper`), read under ``root``; both reports are written to
    ``page_dir`` (relative to ``root``), which their links to the files are relative to.

    Each paper's section: its notices (e.g. synthetic stand-in data; also at the top of the report),
    its counts, the notes several of its claims share (:func:`causal_bandits.report_notes.shared_notes`),
    the claims this run judged, then apart those it did not (*not evaluated*), our number not judged.
    ``experiments`` (summaries of own experiments) add a last section without verdicts."""
    artefacts = artefacts or {}
    page = Page(papers, artefacts, title, root, page_dir)
    all_rows = [r for p in papers for r in p["claims"]]
    md = [
        "# Replication report",
        "",
        "Each claim a paper makes, the paper's number beside ours, and a verdict: **reproduced**, "
        "**differs** (a finding, with both numbers), **not specified by the paper**, or **not "
        "evaluated** (this run cannot check it; listed apart under each paper, with the reason). Generated "
        "by the workflow; do not edit. REPORT.html shows the same claims beside the tables and figures they "
        "are about.",
        "",
        f"Scale of this run: {_scale(papers)}.",
        *_md_notices(papers),
        "",
        f"Overall: {_counts(all_rows)}.",
    ]
    for paper in papers:
        md += _md_section(paper, artefacts.get(paper["paper"], ()), page)
    text, html = "\n".join(md) + "\n", page.render()
    if experiments:
        section, part = experiments_section(experiments, page)
        text += section
        html = html.replace("</main>", f"{part}</main>")
    return text, html
