"""figures/REPORT.html: the replication report as one self-contained page.

A table of contents with one summary line per paper, then one section per paper: its notices
(synthetic stand-in data, say; also at the top of the page), the notes its claims share, its
claims, the verdict of each marked by colour, the claims this run did not judge apart with our
number greyed, each claim linked to the table or figure it is about and to the documentation
section holding its reading (:mod:`causal_bandits.report_docs`); then those
tables and figures (PNG embedded as ``data:`` URIs, tables rendered from the Markdown the workflow
writes), each beside the claims it supports. No external resource (script, font, style sheet or
image) is loaded, so the file opens anywhere, offline, on its own.
"""

from __future__ import annotations

import base64
import html
import os
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

from causal_bandits.artefacts import Artefact, supporting
from causal_bandits.claims import DIFFERS, NOT_EVALUATED, NOT_SPECIFIED, REPRODUCED, STATUSES
from causal_bandits.errors import CausalBanditsError
from causal_bandits.report_docs import href, label, readings
from causal_bandits.report_notes import Notes, shared_notes, split_rows

#: CSS class of each verdict (the colours live in :data:`STYLE`).
VERDICT_CLASS = {
    REPRODUCED: "v-ok",
    DIFFERS: "v-differs",
    NOT_SPECIFIED: "v-unspecified",
    NOT_EVALUATED: "v-unevaluated",
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: CSS pixels per PNG pixel of an embedded figure: figures are saved at 200 dpi
#: (causal_bandits.plots.PNG_DPI), shown at 120 dpi so that a full-width figure fills the column
#: and a small one stays small.
FIGURE_SCALE = 0.6
#: An artefact's list of claims is shown up to this many claims; a longer one is folded under its counts.
OPEN_CLAIMS = 8

STYLE = """
:root{--ok:#1a7f37;--ok-bg:#dcf5e3;--differs:#b3420b;--differs-bg:#ffe3cc;--unspecified:#4b5563;
--unspecified-bg:#e3e6ea;--unevaluated:#6b7280;--unevaluated-bg:#f7f8fa;--line:#d8dce1;--accent:#1f5fbf}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;
margin:0;background:#fbfbfc}
main{max-width:84em;margin:0 auto;padding:1.5em 2em 4em}
h1{font-size:1.8em;margin:.2em 0 .3em}h2{font-size:1.4em;margin:0 0 .2em}
h3{font-size:1.1em;margin:1.6em 0 .5em;border-bottom:1px solid var(--line);padding-bottom:.2em}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.lead{max-width:60em;color:#3d444d}
.chip{display:inline-block;border-radius:1em;padding:0 .65em;font-size:.82em;font-weight:600;white-space:nowrap;
border:1px solid transparent;margin:.1em .15em .1em 0}
.v-ok{color:var(--ok);background:var(--ok-bg)}.v-differs{color:var(--differs);background:var(--differs-bg)}
.v-unspecified{color:var(--unspecified);background:var(--unspecified-bg)}
.v-unevaluated{color:var(--unevaluated);background:var(--unevaluated-bg);border-color:var(--line)}
nav.toc{background:#fff;border:1px solid var(--line);border-radius:.5em;padding:.8em 1.2em;margin:1.2em 0}
nav.toc ol{margin:.3em 0;padding-left:1.4em}nav.toc li{margin:.35em 0}
nav.toc .scale,.scale{color:#57606a;font-size:.88em}
section.paper{background:#fff;border:1px solid var(--line);border-radius:.5em;padding:1.2em 1.5em;margin:2em 0}
table{border-collapse:collapse;font-size:.86em}
th,td{border-bottom:1px solid var(--line);padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f3f4f6;position:sticky;top:0}
table.claims{width:100%}
table.claims td.verdict{white-space:nowrap;border-left:4px solid var(--line)}
tr.r-ok td.verdict{border-left-color:var(--ok)}tr.r-differs td.verdict{border-left-color:var(--differs)}
tr.r-unspecified td.verdict{border-left-color:var(--unspecified)}
tr.r-differs{background:#fff8f2}tr.r-unevaluated{color:#57606a}
.cid{display:block;color:#6e7781;font-size:.85em}
td.claim{min-width:16em}td.note{color:#57606a;max-width:24em}td.num{max-width:18em}
td.see a{display:block;white-space:nowrap}
:target{outline:3px solid #f0b400;outline-offset:2px}
.artefact{display:grid;grid-template-columns:minmax(0,1fr) 20em;gap:1.2em;border-top:1px solid var(--line);
padding:1em 0;margin:0}
.artefact h4{margin:0 0 .4em;font-size:1em}
.artefact figure{margin:0}
.artefact img{display:block;max-width:100%;height:auto;border:1px solid #eef0f2}
.files{font-size:.82em;color:#57606a;margin-top:.4em}
.tablewrap{overflow:auto;max-height:38em;border:1px solid #eef0f2;width:fit-content;max-width:100%}
.tablewrap table{font-size:.8em;font-variant-numeric:tabular-nums}.tablewrap td,.tablewrap th{white-space:nowrap}
.mdtext{font-size:.86em;color:#3d444d;margin:.4em 0}
aside.supports{font-size:.86em;background:#f8f9fb;border-radius:.4em;padding:.6em .8em;align-self:start}
aside.supports ul{list-style:none;margin:.4em 0 0;padding:0}\
aside.supports summary{cursor:pointer;color:var(--accent)}aside.supports li{margin:.3em 0}
aside.supports .none{color:#6e7781}
.notice{display:block;background:#fff4d6;border-left:4px solid #f0b400;padding:.4em .7em;margin:.5em 0;
color:#5c4400;font-weight:600}
.notes{font-size:.86em;color:#3d444d;margin:.6em 0}.notes ol{margin:.3em 0;padding-left:1.6em}
td.unjudged{color:#8b939c;font-style:italic}
.absent{border:1px dashed var(--line);border-radius:.4em;padding:1.5em;color:#57606a;background:var(--unevaluated-bg)}
@media (max-width:60em){.artefact{grid-template-columns:1fr}main{padding:1em}}
""".strip()


# ------------------------------------------------------------------------------------ helpers
def anchor(*parts: str) -> str:
    """An HTML id from ``parts``, one to one: ASCII letters, digits and ``.+-`` kept, any other
    character written as ``_<hex code>_``; parts joined by ``-`` (the first parts, a fixed word and a
    paper key, hold no ``-``)."""
    return "-".join(
        "".join(c if c.isascii() and (c.isalnum() or c in ".+-") else f"_{ord(c):x}_" for c in p) for p in parts
    )


def counts(rows: Sequence[Mapping[str, str]]) -> Counter:
    return Counter(r["status"] for r in rows)


def chip(status: str, text: str | None = None) -> str:
    """A verdict as a coloured chip (its text: ``text``, or the verdict)."""
    return f'<span class="chip {VERDICT_CLASS[status]}">{html.escape(text or status)}</span>'


def chips(rows: Sequence[Mapping[str, str]]) -> str:
    """One coloured chip per verdict present, with its count."""
    c = counts(rows)
    return "".join(chip(s, f"{c[s]} {s}") for s in STATUSES if c[s])


def png(path: Path) -> tuple[str, int]:
    """A PNG file as a ``data:image/png;base64,...`` URI, and its width in pixels (from its IHDR
    chunk); raises when the file is not a PNG."""
    data = path.read_bytes()
    if not data.startswith(PNG_MAGIC):
        raise CausalBanditsError(
            f"{path} is not a PNG file; the report embeds a figure's PNG twin "
            "(write it with causal_bandits.plots.save_figure)"
        )
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii"), int.from_bytes(data[16:20], "big")


# ------------------------------------------------------------------------------------ Markdown
def _inline(text: str) -> str:
    """Escape, then the inline Markdown our table writers use: ``**bold**``, ``*em*``, ```code```."""
    out = html.escape(text.replace("\\|", "|"), quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<![*\w])\*([^*\s][^*]*?)\*(?![*\w])", r"<em>\1</em>", out)


def _cells(line: str) -> list[str]:
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)]


def _table(lines: Sequence[str]) -> str:
    head, rule, *body = lines
    aligns = [
        "right"
        if c.endswith(":") and not c.startswith(":")
        else "center"
        if c.startswith(":") and c.endswith(":")
        else ""
        for c in _cells(rule)
    ]

    def _align(i: int) -> str:
        return f" style=text-align:{aligns[i]}" if i < len(aligns) and aligns[i] else ""

    def row(tag: str, cells: Sequence[str]) -> str:
        return "<tr>" + "".join(f"<{tag}{_align(i)}>{_inline(c)}</{tag}>" for i, c in enumerate(cells)) + "</tr>"

    return (
        f"<table><thead>{row('th', _cells(head))}</thead>"
        f"<tbody>{''.join(row('td', _cells(r)) for r in body)}</tbody></table>"
    )


def markdown_html(text: str) -> str:
    """HTML of the Markdown our table writers emit (``DataFrame.to_markdown`` pipe tables, ``#``
    headings, paragraphs, ``-`` lists). Written by hand because no Markdown library is a dependency
    of this package; it reads only those constructs, and anything else as escaped paragraph text."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [ln for ln in block.splitlines() if ln.strip()]
        if (
            len(lines) >= 2
            and all(ln.lstrip().startswith("|") for ln in lines)
            and re.fullmatch(r"\|?[\s:|-]+\|?", lines[1].strip())
        ):
            out.append(f'<div class="tablewrap">{_table(lines)}</div>')
        elif all(ln.lstrip().startswith(("- ", "* ")) for ln in lines):
            out.append("<ul class=mdtext>" + "".join(f"<li>{_inline(ln.lstrip()[2:])}</li>" for ln in lines) + "</ul>")
        else:
            for ln in lines:
                m = re.match(r"(#{1,6})\s+(.*)", ln)
                if m:
                    out.append(f"<p class=mdtext><strong>{_inline(m.group(2))}</strong></p>")
                else:
                    out.append(f"<p class=mdtext>{_inline(ln)}</p>")
    return "\n".join(out)


# ------------------------------------------------------------------------------------ page parts
class Page:
    """The page of ``papers`` (claims documents) with each paper's ``artefacts``; files are read
    under ``root`` and linked relative to ``page_dir`` (where the page is written, under ``root``)."""

    def __init__(
        self,
        papers: Sequence[Mapping[str, Any]],
        artefacts: Mapping[str, Sequence[Artefact]],
        title: Callable[[str], str],
        root: str | os.PathLike = ".",
        page_dir: str = "figures",
    ):
        self.papers, self.artefacts, self.title = papers, artefacts, title
        self.root, self.page_dir = Path(root), page_dir

    def href(self, path: str) -> str:
        """``path`` (relative to ``root``) as a link relative to the page."""
        return PurePosixPath(os.path.relpath(path, self.page_dir)).as_posix()

    def claim_links(self, paper: str, row: Mapping[str, str]) -> str:
        found = supporting(row, self.artefacts.get(paper, ()))
        if not found:
            return f'<a class="fallback" href="#{anchor(paper)}">this paper</a>'
        return "".join(f'<a href="#{anchor(paper, a.key)}">{html.escape(a.label)}</a>' for a in found)

    def reading_links(self, paper: str, row: Mapping[str, str]) -> str:
        """Links to the docs sections holding the claim's reading (:mod:`causal_bandits.report_docs`)."""
        return "".join(
            f'<a href="{html.escape(href(p, a, self.page_dir, built=True))}">{html.escape(label(p, a))}</a>'
            for p, a in readings(paper, row)
        )

    def claims_table(self, paper: str, rows: Sequence[Mapping[str, str]], notes: Notes, judged: bool = True) -> str:
        """The claims this run judged (verdict first), or, with ``judged`` False, those it did not:
        our number greyed and marked as not judged, the reason in place of a note."""
        body = []
        for r in rows:
            cls = VERDICT_CLASS[r["status"]]
            ours = html.escape(str(r["ours"]))
            body.append(
                f'<tr id="{anchor("claim", paper, r["id"])}" class="{cls.replace("v-", "r-")}">'
                + (f'<td class="verdict">{chip(r["status"])}</td>' if judged else "")
                + f'<td class="claim">{html.escape(r["statement"])}<span class="cid">{html.escape(r["source"])} · '
                f"{html.escape(r['id'])}</span></td>"
                f'<td class="num">{html.escape(str(r["paper"]))}</td>'
                + (f'<td class="num">{ours}</td>' if judged else f'<td class="num unjudged">{ours}</td>')
                + f'<td class="note">{html.escape(notes.row[r["id"]])}</td>'
                f'<td class="see">{self.claim_links(paper, r)}</td>'
                f'<td class="see">{self.reading_links(paper, r)}</td></tr>'
            )
        heads = (
            ("verdict", "claim (source · id)", "paper", "ours", "note", "shown in", "reading")
            if judged
            else ("claim (source · id)", "paper", "ours (not judged)", "why not", "shown in", "reading")
        )
        head = "".join(f"<th>{h}</th>" for h in heads)
        return f'<table class="claims"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'

    def artefact_body(self, a: Artefact) -> str:
        if a.absent:
            return f'<p class="absent">Not written by this run: {html.escape(a.absent)}.</p>'
        path = self.root / a.shown
        if not path.is_file():
            raise CausalBanditsError(
                f"the report shows {a.shown}, which does not exist; run the workflow rule "
                "that writes it (snakemake " + a.shown + ")"
            )
        if a.is_figure:
            uri, width = png(path)
            return (
                f'<figure><a href="{html.escape(self.href(a.shown))}"><img src="{uri}" '
                f'style="width:{round(width * FIGURE_SCALE)}px" alt="{html.escape(a.title)}"></a></figure>'
            )
        if PurePosixPath(a.shown).suffix == ".csv":
            frame = pd.read_csv(path)
            return f'<div class="tablewrap">{frame.to_html(index=False, border=0, na_rep="–")}</div>'
        return markdown_html(path.read_text())

    def artefact(self, paper: str, a: Artefact, rows: Sequence[Mapping[str, str]]) -> str:
        supported = [r for r in rows if a.supports(r)]
        items = "".join(
            f"<li>{chip(r['status'])} "
            f'<a href="#{anchor("claim", paper, r["id"])}">{html.escape(r["statement"])}</a></li>'
            for r in supported
        )
        if not supported:
            aside = '<p class="none">No claim of the paper refers to it; shown for completeness.</p>'
        elif len(supported) <= OPEN_CLAIMS:
            aside = f"<h4>Claims it supports</h4><ul>{items}</ul>"
        else:
            aside = (
                f"<h4>Claims it supports</h4>{chips(supported)}"
                f"<details><summary>list the {len(supported)} claims</summary><ul>{items}</ul></details>"
            )
        files = (
            ""
            if a.absent
            else "Files: "
            + " · ".join(
                f'<a href="{html.escape(self.href(p))}">{html.escape(PurePosixPath(p).name)}</a>' for p in a.paths
            )
        )
        return (
            f'<div class="artefact" id="{anchor(paper, a.key)}"><div><h4>{html.escape(a.title)}</h4>'
            f'{self.artefact_body(a)}<div class="files">{files}</div></div>'
            f'<aside class="supports">{aside}</aside></div>'
        )

    def section(self, doc: Mapping[str, Any]) -> str:
        paper, rows = doc["paper"], doc["claims"]
        shown = self.artefacts.get(paper, ())
        notes = shared_notes(rows)
        judged, unjudged = split_rows(rows)
        parts = [
            f'<section class="paper" id="{anchor(paper)}"><h2>{html.escape(self.title(paper))}</h2>',
            *(f'<p class="notice">{html.escape(n)}</p>' for n in doc.get("notices", ())),
            f'<p>{chips(rows)} <span class="scale">· {html.escape(doc["scale"])}</span></p>',
        ]
        if notes.shared:
            parts.append(
                '<div class="notes"><strong>Notes shared by several claims below</strong><ol>'
                + "".join(f"<li>{html.escape(n)}</li>" for n in notes.shared)
                + "</ol></div>"
            )
        if judged:
            parts += [f"<h3>Claims ({len(judged)})</h3>", self.claims_table(paper, judged, notes)]
        if unjudged:
            parts += [
                f"<h3>Not evaluated in this run ({len(unjudged)})</h3>",
                '<p class="scale">This run cannot judge these claims; our number, greyed, is shown for '
                "information and is not a verdict.</p>",
                self.claims_table(paper, unjudged, notes, judged=False),
            ]
        if shown:
            parts.append(f"<h3>Tables and figures ({len(shown)})</h3>")
            parts += [self.artefact(paper, a, rows) for a in shown]
        parts.append("</section>")
        return "\n".join(parts)

    def toc(self) -> str:
        items = "".join(
            f'<li><a href="#{anchor(p["paper"])}">{html.escape(self.title(p["paper"]))}</a><br>{chips(p["claims"])}'
            f'<span class="scale">{html.escape(p["scale"])}</span>'
            + "".join(f'<br><span class="notice">{html.escape(n)}</span>' for n in p.get("notices", ()))
            + "</li>"
            for p in self.papers
        )
        return f'<nav class="toc"><strong>Contents</strong><ol>{items}</ol></nav>'

    def render(self) -> str:
        all_rows = [r for p in self.papers for r in p["claims"]]
        legend = "".join(chip(s) for s in STATUSES)
        head = (
            "<h1>Replication report</h1>"
            '<p class="lead">Each claim a paper makes, the paper\'s number beside ours, and a verdict: '
            "<em>reproduced</em>, <em>differs</em> (a finding, with both numbers), <em>not specified by the "
            "paper</em>, or <em>not evaluated</em> (this run cannot check it; listed apart under each paper, "
            "with the reason). Each claim "
            "links to the table or figure it is about; each table and figure lists the claims it supports. "
            "Each claim's <em>reading</em> links to the section of the documentation site that explains how "
            "the paper was read (build it with <code>make docs</code>). "
            "Generated by the workflow; do not edit.</p>"
            f"<p>Verdicts: {legend}</p><p><strong>Overall:</strong> {chips(all_rows)}</p>"
            + "".join(
                f'<p class="notice"><strong>Read first.</strong> {html.escape(self.title(p["paper"]))}: '
                f"{html.escape(n)}</p>"
                for p in self.papers
                for n in p.get("notices", ())
            )
        )
        body = [head, self.toc(), *(self.section(p) for p in self.papers)]
        return (
            "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
            '<meta name=viewport content="width=device-width,initial-scale=1">'
            f"<title>Replication report</title><style>{STYLE}</style></head>"
            f"<body><main>{''.join(body)}</main></body></html>\n"
        )
