"""figures/REPORT.html: the replication report as one page, from the template ``templates/report.html.j2``.

A bar that stays at the top of the window links every paper's section; a table of contents gives one
summary line per paper; then one section per paper: its notices (synthetic stand-in data, say; the
top of the page says them once as "Read first"), the notes its claims share, its claims with the
verdict of each marked by colour, the claims this run did not judge apart with our number greyed,
each claim linked to the table or figure it is about and to the documentation section holding its
reading (:mod:`causal_bandits.report.links`); then those tables and figures, each beside the claims
it supports. Tables are rendered from the Markdown the workflow writes by the ``markdown`` library
(its ``tables`` extension, without attribute lists, so a cell's ``{...}`` stays text); figures are the
PNG files beside the page (it is written in figures/, next to them), loaded as the reader scrolls.
The style sheet is inline; the page loads nothing from the network.
"""

from __future__ import annotations

import html
import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2
import markdown
from markupsafe import Markup

from causal_bandits import csv_tables
from causal_bandits.artefacts import Artefact, supporting
from causal_bandits.claims import (
    DIFFERS,
    FITTED,
    INCONCLUSIVE,
    NOT_EVALUATED,
    NOT_SPECIFIED,
    REPRODUCED,
    STATUSES,
    VACUOUS,
)
from causal_bandits.errors import CausalBanditsError
from causal_bandits.report import planned as planned_section
from causal_bandits.report.inline import breakable, inline_html, link_docs, scripts
from causal_bandits.report.links import artefact_id, claim_id, href, label, readings, section
from causal_bandits.report.located import located
from causal_bandits.report.notes import row_lines, shared_notes, shared_reason_lines, split_rows
from causal_bandits.report.own import Section

#: CSS class of each verdict (the colours live in templates/report.css).
VERDICT_CLASS = {
    REPRODUCED: "v-ok",
    FITTED: "v-fitted",
    VACUOUS: "v-vacuous",
    DIFFERS: "v-differs",
    INCONCLUSIVE: "v-inconclusive",
    NOT_SPECIFIED: "v-unspecified",
    NOT_EVALUATED: "v-unevaluated",
}
#: The verdicts the claims to look at leave out (every verdict but these is listed, claim by claim: *differs*,
#: *inconclusive*, and any new verdict): agreements, with or without a reason, and what the paper or the run leaves
#: unjudged. The filter in the page's bar shows any verdict's claims.
NOT_INDEXED = (REPRODUCED, FITTED, VACUOUS, NOT_SPECIFIED, NOT_EVALUATED)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: CSS pixels per PNG pixel of a figure: figures are saved at 200 dpi (causal_bandits.plots.PNG_DPI),
#: shown at 120 dpi so that a full-width figure fills the column and a small one stays small.
FIGURE_SCALE = 0.6
#: The least a figure is shrunk to fit its column: 8 pt labels at 200 dpi stay 10 CSS px; a wider figure
#: scrolls sideways in its box (with a link to the full-size PNG).
MIN_FIGURE_SCALE = 0.45
#: An artefact's list of claims is shown up to this many claims; a longer one is folded under its counts.
OPEN_CLAIMS = 8
TEMPLATES = Path(__file__).with_name("templates")
#: The rules of a narrow window (templates/), for the report and the site's claims tables.
SMALL_SCREEN_CSS = "small-screen.css"


@cache
def template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, keep_trailing_newline=True)
    return env.get_template("report.html.j2")


def stylesheet() -> str:
    """The page's style: templates/report.css, then templates/small-screen.css (on a phone each claim is a card:
    its cells stacked, each named by its column; the documentation site's claims tables take the same rules)."""
    return "\n".join((TEMPLATES / name).read_text() for name in ("report.css", SMALL_SCREEN_CSS))


def counts(rows: Sequence[Mapping[str, Any]]) -> Counter:
    return Counter(r["status"] for r in rows)


def verdict_class(status: str) -> str:
    """The CSS class of a verdict: :data:`VERDICT_CLASS`, else ``v-`` and the verdict's words joined by ``-``."""
    return VERDICT_CLASS.get(status) or "v-" + re.sub(r"\W+", "-", status).strip("-")


def chip(status: str, text: str | None = None) -> Markup:
    """A verdict as a coloured chip (its text: ``text``, or the verdict)."""
    return Markup('<span class="chip {}">{}</span>').format(verdict_class(status), text or status)


def chips(rows: Sequence[Mapping[str, Any]]) -> Markup:
    """One coloured chip per verdict present, with its count."""
    c = counts(rows)
    return Markup("").join(chip(s, f"{c[s]} {s}") for s in STATUSES if c[s])


def to_look_at(docs: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[tuple[Mapping[str, Any], Any]]]]:
    """The claims a reader looks at first: for each verdict not in :data:`NOT_INDEXED` that some claim has (in
    :data:`STATUSES` order), its (claims document, row) pairs in report order."""
    found = [(s, [(d, r) for d in docs for r in d["claims"] if r["status"] == s]) for s in STATUSES]
    return [(s, pairs) for s, pairs in found if s not in NOT_INDEXED and pairs]


def png_width(path: Path) -> int:
    """A PNG file's width in pixels (from its IHDR chunk); raises when the file is not a PNG."""
    with path.open("rb") as f:
        head = f.read(24)
    if not head.startswith(PNG_MAGIC):
        raise CausalBanditsError(
            f"{path} is not a PNG file; the report shows a figure's PNG twin "
            "(write it with causal_bandits.plots.save_figure)"
        )
    return int.from_bytes(head[16:20], "big")


#: A cell of a Markdown table the workflow writes (pandas' ``to_markdown``): its opening tag and its text.
CELL = re.compile(r"(<td[^>]*>)\s*([^<]*?)\s*(?=</td>)")


def _cell(m: re.Match[str]) -> str:
    """A number cell as the page shows it: "nan" as "–", a float of many digits at 4 significant ones."""
    text = m.group(2)
    if text == "nan":
        return m.group(1) + "–"
    if re.fullmatch(r"-?\d+\.\d{5,}", text):
        return m.group(1) + _number(float(text))
    return m.group(1) + text


def markdown_html(text: str, docs_href: Callable[[str, str], str] | None = None) -> Markup:
    """HTML of Markdown the workflow writes (pipe tables, headings, paragraphs, lists), by the ``markdown``
    library; the text is escaped first, so a ``<`` in a cell is text, its headings are demoted under the page's, its
    sub- and superscripts rendered (``P_{b}``), its numbers rounded (4 significant digits, "nan" as "–"), its
    references to the documentation linked by ``docs_href`` (page, anchor) when given, and tables are wrapped to
    scroll."""
    body = markdown.markdown(html.escape(text, quote=False), extensions=["tables"])
    body = re.sub(r"<(/?)h[1-6]>", r"<\1h5>", body)  # a table's own headings sit under the page's
    body = CELL.sub(_cell, scripts(body))
    body = link_docs(body, docs_href) if docs_href else body
    body = body.replace("<table>", '<div class="tablewrap"><table>').replace("</table>", "</table></div>")
    return Markup(f'<div class="mdtext">{body}</div>')


def _number(x: float) -> str:
    """A float of a CSV table as the page shows it: 4 significant digits (the CSV keeps them all)."""
    return f"{x:,.4g}" if abs(x) < 1e15 else f"{x:.3e}"


class Page:
    """The page of ``papers`` (claims documents) with each paper's ``artefacts``; files are read
    under ``root`` and linked relative to ``page_dir`` (where the page is written, under ``root``).

    ``site``: for a page of the documentation site, the folder of the site that serves ``root``'s files
    (``paper-scale``), and ``page_dir`` is then the page's folder in the site: the readings link the site's
    pages (``papers/<key>.html#<anchor>``) and the Markdown tables their HTML pages, as the site serves them;
    without it, the readings link the checkout's Markdown files (``docs/papers/<key>.md``)."""

    def __init__(
        self,
        papers: Sequence[Mapping[str, Any]],
        artefacts: Mapping[str, Sequence[Artefact]],
        title: Callable[[str], str],
        root: str | os.PathLike = ".",
        page_dir: str = "figures",
        studies: Sequence[Mapping[str, Any]] = (),
        site: str | None = None,
        planned: Mapping[str, Any] | None = None,
    ):
        self.papers, self.artefacts, self.title = papers, artefacts, title
        self.root, self.page_dir, self.site = Path(root), page_dir, site
        self.studies, self.planned = studies, planned
        self.ran = {doc["study"]: doc for doc in studies}

    def located(self, doc: Mapping[str, Any], row: Mapping[str, Any]) -> list[str]:
        """What the studies say of a paper's claim (:func:`causal_bandits.report.located.located`); nothing
        under a study's own claims."""
        return [] if "study" in doc else located(doc["paper"], row, self.ran)

    def href(self, path: str) -> str:
        """``path`` (relative to ``root``) as a link relative to the page (a Markdown table's page on the site)."""
        if self.site is None:
            return PurePosixPath(os.path.relpath(path, self.page_dir)).as_posix()
        link = posixpath.relpath(f"/{self.site}/{path}", f"/{self.page_dir}")
        return link.removesuffix(".md") + ".html" if link.endswith(".md") else link

    def reading(self, page: str, anchor: str) -> str:
        """The link to the documentation page ``page`` (under ``docs/``, without ``.md``) at ``anchor``."""
        if self.site is None:
            return href(page, anchor, self.page_dir)
        return posixpath.relpath(f"/{page}.html", f"/{self.page_dir}") + (f"#{anchor}" if anchor else "")

    def text(self, text: str) -> Markup:
        """A note or notice as HTML: code, links to the documentation it cites, sub- and superscripts."""
        return inline_html(text, self.reading)

    def figure(self, path: str, alt: str) -> Markup:
        """A PNG beside the page, at :data:`FIGURE_SCALE` of its pixel width, shrunk to fit its column down to
        :data:`MIN_FIGURE_SCALE` (then it scrolls in its box), linked to itself at full size."""
        pixels = png_width(self.root / path)
        return Markup(
            '<div class=wide><a href="{0}"><img src="{0}" style="width:{1}px;min-width:{2}px" loading=lazy '
            'alt="{3}"></a></div>'
        ).format(self.href(path), round(pixels * FIGURE_SCALE), round(pixels * MIN_FIGURE_SCALE), alt)

    def claim_row(self, doc: Mapping[str, Any], row: Mapping[str, Any], note: str) -> dict[str, Any]:
        """What the template prints of a claim row (``located``: what the studies say of it)."""
        paper = section(doc)
        shown = supporting(row, self.artefacts.get(paper, ()))
        return {
            "id": breakable(row["id"]),
            "source": breakable(row["source"]),
            **{k: self.text(str(row[k])) for k in ("statement", "paper", "ours")},
            "anchor": claim_id(paper, row["id"]),
            "row_class": verdict_class(row["status"]).replace("v-", "r-"),
            "chip": chip(row["status"]),
            "note": self.text(note),
            "located": [self.text(line) for line in [*row_lines(row), *self.located(doc, row)]],
            "interval": row.get("interval"),
            "rule": row.get("rule"),
            "shown": [(a.label, f"#{artefact_id(paper, a.key)}") for a in shown],
            "readings": [(breakable(label(p, a)), self.reading(p, a)) for p, a in readings(doc, row)],
        }

    def artefact_body(self, a: Artefact) -> Markup:
        """A table or figure: every PNG of it (a figure with panels has several), or its table."""
        if a.absent:
            return Markup('<p class="absent">Not written by this run: {}.</p>').format(a.absent)
        missing = [p for p in a.paths if not (self.root / p).is_file()]
        if missing:
            raise CausalBanditsError(
                f"the report shows {missing[0]}, which does not exist; run the workflow rule "
                f"that writes it (snakemake {missing[0]})"
            )
        pngs = [p for p in a.paths if PurePosixPath(p).suffix == ".png"]
        body = Markup("")
        if not a.is_figure:
            path = self.root / a.shown
            if PurePosixPath(a.shown).suffix == ".csv":
                frame = csv_tables.read_csv(path).to_html(index=False, border=0, na_rep="–", float_format=_number)
                body = Markup(f'<div class="tablewrap">{frame}</div>')
            else:
                body = markdown_html(path.read_text(), self.reading)
        return body + Markup("").join(Markup("<figure>{}</figure>").format(self.figure(p, a.title)) for p in pngs)

    def artefact(self, doc: Mapping[str, Any], a: Artefact) -> dict[str, Any]:
        """What the template prints of a table or figure and the claims it supports."""
        paper = section(doc)
        supported = [r for r in doc["claims"] if a.supports(r)]
        return {
            "id": artefact_id(paper, a.key),
            "title": a.title,
            "body": self.artefact_body(a),
            "files": [] if a.absent else [(PurePosixPath(p).name, self.href(p)) for p in a.paths],
            "claims": [
                {"chip": chip(r["status"]), "id": claim_id(paper, r["id"]), "statement": self.text(r["statement"])}
                for r in supported
            ],
            "chips": chips(supported),
        }

    def paper(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """What the template prints of a paper's section."""
        notes = shared_notes(doc)
        judged, unjudged = split_rows(doc["claims"])
        return {
            "id": section(doc),
            "short": section(doc),
            "title": self.title(section(doc)),
            "question": doc.get("question", ""),
            "notices": [self.text(n) for n in doc.get("notices", ())],
            "chips": chips(doc["claims"]),
            "scale": doc["scale"],
            "shared": [self.text(n) for n in notes.shared],
            "judged": [self.claim_row(doc, r, notes.row[r["id"]]) for r in judged],
            "unjudged": [self.claim_row(doc, r, notes.row[r["id"]]) for r in unjudged],
            "artefacts": [self.artefact(doc, a) for a in self.artefacts.get(section(doc), ())],
        }

    def own(self, s: Section) -> dict[str, Any]:
        """What the template prints of an own results' section (:mod:`.own`): its anchor, heading, what its runs are
        and its config block, and per experiment its heading, scale, table and figure."""
        entries = [
            {
                "head": f"{e.title} ({e.name})",
                "scale": e.scale,
                "table": markdown_html(e.table),
                "figure": self.figure(e.figure, f"regret of {e.name}") if e.figure else None,
            }
            for e in s.entries
        ]
        nav = s.heading[0].lower() + s.heading[1:]
        return {"id": s.anchor, "heading": s.heading, "nav": nav, "what": s.what, "block": s.block, "entries": entries}

    def index(self) -> list[dict[str, Any]]:
        """The claims to look at (:func:`to_look_at`), one list per verdict: each claim's paper, statement and
        anchor, one click from the top of the page."""
        return [
            {
                "chip": chip(status, f"{len(found)} {status}"),
                "claims": [
                    {
                        "anchor": claim_id(section(d), r["id"]),
                        "paper": section(d),
                        "statement": self.text(r["statement"]),
                    }
                    for d, r in found
                ],
            }
            for status, found in to_look_at([*self.papers, *self.studies])
        ]

    def render(self, own: Sequence[Section] = ()) -> str:
        """The page; ``own``: the own results' sections (:mod:`.own`)."""
        return template().render(
            style=Markup(stylesheet()),
            papers=[self.paper(doc) for doc in self.papers],
            studies=[self.paper(doc) for doc in self.studies],
            legend=Markup("").join(chip(s) for s in STATUSES),
            filters=[(verdict_class(s).replace("v-", "r-"), chip(s)) for s in STATUSES],
            index=self.index(),
            overall=chips([r for p in self.papers for r in p["claims"]]),
            open_claims=OPEN_CLAIMS,
            own=[self.own(s) for s in own],
            planned=markdown_html(planned_section.markdown(self.planned)) if self.planned else None,
            planned_title=planned_section.TITLE,
            shared_reasons=[(key, self.text(text)) for key, text in shared_reason_lines([*self.papers, *self.studies])],
        )
