"""figures/REPORT.md: the replication report in Markdown, links to the files beside it.

The same claims as the HTML page (:mod:`causal_bandits.report.page`) in pipe tables. First the answer: the
verdicts of the run and of each paper, and the claims to look at, one line each; then the notices and how to
read the report; then per paper its notices, its counts, the claims this run judged, apart those it did not (our
number in italics), and last the notes several of its claims share
(:func:`causal_bandits.report.notes.shared_notes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from causal_bandits.artefacts import supporting
from causal_bandits.claims import STATUSES
from causal_bandits.report import planned as planned_section
from causal_bandits.report.links import href, label, readings, section
from causal_bandits.report.notes import row_lines, shared_notes, shared_reason_lines, split_rows
from causal_bandits.report.own import Section
from causal_bandits.report.page import Page, counts, to_look_at

INTRO = (
    "Each claim a paper makes, the paper's number beside ours (with its 95 % interval where it comes from random "
    "runs), and a verdict by a registered rule (its fingerprint is in the claims document; amendments are shown "
    "under the claim), declared before the run except where the claim says *rule set after its result was seen* "
    "(an amendment made after the archived run's result was seen, or a rule registered after it): **reproduced** "
    "(independent agreement: our whole interval inside the paper's "
    "band), **fitted** (agreement partly by construction, with the reason), **vacuous** (holds only through a tie or "
    "an identity, with the reason), **differs** (our interval wholly outside: a finding, with both numbers), "
    "**inconclusive at this scale** (our interval straddles the band's edge; the note says how many seeds would "
    "decide it), **not specified by the paper**, or **not evaluated** (this run cannot check it; listed apart "
    "under each paper, with the reason). Generated "
    "by the workflow; do not edit. REPORT.html shows the same claims beside the tables and figures they "
    "are about. Each claim's *reading* links to the section of the documentation (docs/papers/) that "
    "explains how the paper was read and why the number is what it is."
)
STUDIES_INTRO = (
    "What this replication adds to understand the papers (docs/studies.md): each study's own claims, never a "
    "paper's; under a paper claim that differs, each study that examines it gives its finding record (located, "
    "ruled out, partly, inconclusive)."
)
JUDGED_HEAD = (
    "| claim | source | paper | ours | verdict | note | shown in | reading |",
    "|---|---|---|---|---|---|---|---|",
)
UNJUDGED_HEAD = (
    "| claim | source | paper | ours (not judged) | why not | shown in | reading |",
    "|---|---|---|---|---|---|---|",
)


def count_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """ "3 reproduced, 1 differs": the count of each verdict present."""
    c = counts(rows)
    return ", ".join(f"{c[s]} {s}" for s in STATUSES if c[s])


def cell(text: Any) -> str:
    """A table cell's text: pipes escaped, on one line."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _unjudged(ours: str) -> str:
    text = cell(ours).strip()
    return f"*{text}*" if text and text not in ("–", "-") else (text or "–")


class Report:
    """REPORT.md of the claims documents on ``page`` (which knows where the report is written)."""

    def __init__(self, page: Page, title: Callable[[str], str]):
        self.page, self.title = page, title

    def _links(self, doc: Mapping[str, Any], row: Mapping[str, Any]) -> tuple[str, str]:
        found = supporting(row, self.page.artefacts.get(section(doc), ()))
        shown = ", ".join(f"[{a.title.split(':')[0]}]({self.page.href(a.shown)})" for a in found) or "–"
        found_readings = readings(doc, row)
        reading = ", ".join(f"[{label(p, a)}]({href(p, a, self.page.page_dir)})" for p, a in found_readings)
        return shown, reading

    def _rows(self, doc: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], notes: Mapping[str, str]) -> list[str]:
        out = []
        for r in rows:
            shown, reading = self._links(doc, r)
            if r["status"] == "not evaluated":
                ours, verdict = _unjudged(r["ours"]), ""
            else:
                ours, verdict = cell(r["ours"]), f" **{r['status']}** |"
            note = " ".join([notes[r["id"]], *row_lines(r), *self.page.located(doc, r)]).strip()
            out.append(
                f"| {cell(r['statement'])} | {cell(r['source'])} | {cell(r['paper'])} | {ours} |{verdict} "
                f"{cell(note)} | {shown} | {reading} |"
            )
        return out

    def section(self, doc: Mapping[str, Any]) -> list[str]:
        """A paper's section: heading, notices, counts, shared notes, judged claims, then the others."""
        rows, notes = doc["claims"], shared_notes(doc)
        judged, unjudged = split_rows(rows)
        head = "###" if "study" in doc else "##"  # a study is a subsection of the studies' part
        md = ["", f"{head} {self.title(section(doc))}", ""]
        md += [f"*{doc['question']}*", ""] if doc.get("question") else []
        md += [f"**{n}**" for n in doc.get("notices", ())] + ([""] if doc.get("notices") else [])
        md += [f"{count_text(rows)} ({doc['scale']})."]
        if judged:
            md += ["", *JUDGED_HEAD, *self._rows(doc, judged, notes.row)]
        if unjudged:
            md += ["", f"{head}# Not evaluated in this run ({len(unjudged)})", ""]
            md += [
                "This run cannot judge these claims; our number, in italics, is shown for information and is "
                "not a verdict.",
                "",
                *UNJUDGED_HEAD,
                *self._rows(doc, unjudged, notes.row),
            ]
        if notes.shared:
            md += ["", "Notes shared by several claims above (a claim's note cites them by number):", ""]
            md += [f"{i}. {cell(n)}" for i, n in enumerate(notes.shared, 1)]
        return md

    def own(self, sections: Sequence[Section]) -> list[str]:
        """The own results' sections (:mod:`.own`): per experiment its numbers, table and file links, no verdicts."""
        md: list[str] = []
        for s in sections:
            md += ["", f"## {s.heading}", "", s.intro]
            for e in s.entries:
                where = "; ".join(f"{label}: [{path}]({self.page.href(path)})" for label, path in e.files)
                md += ["", f"### {e.title} (`{e.name}`)", "", f"{e.scale} {where}.", "", e.table.rstrip("\n")]
        return md

    def first_screen(self) -> list[str]:
        """The answer, before any explanation or note: the verdicts of the run and of each paper, then the claims
        to look at (:func:`causal_bandits.report.page.to_look_at`), one line each."""
        papers = self.page.papers
        md = ["", f"Overall: {count_text([r for p in papers for r in p['claims']])}.", ""]
        md += [f"- {self.title(section(d))}: {count_text(d['claims'])} ({d['scale']})." for d in papers]
        look = to_look_at([*papers, *self.page.studies])
        if look:
            md += ["", "**Claims to look at** (each under its paper below, with its note):"]
        for status, found in look:
            md += ["", f"*{status}* ({len(found)}):", ""]
            md += [f"- {section(d)} · {r['id']}: {cell(r['statement'])}" for d, r in found]
        return md

    def render(self, own: Sequence[Section] = ()) -> str:
        papers = self.page.papers
        notices = [f"{self.title(p['paper'])}: {n}" for p in papers for n in p.get("notices", ())]
        md = ["# Replication report", *self.first_screen()]
        md += ["", "**Read first.** " + " ".join(notices)] if notices else []
        md += ["", INTRO]
        shared = shared_reason_lines([*papers, *self.page.studies])
        if shared:
            md += ["", "Reasons several amendments share (an amendment cites its reason by name):", ""]
            md += [f"- '{key}': {cell(text)}" for key, text in shared]
        for doc in papers:
            md += self.section(doc)
        if self.page.planned:
            md += ["", f"## {planned_section.TITLE}", "", planned_section.markdown(self.page.planned).rstrip("\n")]
        if self.page.studies:
            md += ["", "## Studies beyond the papers", "", STUDIES_INTRO]
            for doc in self.page.studies:
                md += self.section(doc)
        md += self.own(own)
        return "\n".join(md) + "\n"
