"""MkDocs hook: each paper's page shows the archived paper-scale run's verdicts and figures.

A paper page holds the marker ``<!-- archived paper-scale report -->``; this hook replaces it with
that paper's section of the archived run's report (archive/paper-scale, written by
``causal-bandits archive``): its claims table as the report page draws it (the verdict first, the table
fitting the column; :mod:`causal_bandits.report.page`), the notes shared by several claims after the claims
they serve (as in the report), then every table (a link to its page) and figure of the paper (with its caption
and a link to the full-size PNG). The archived files are served under
``paper-scale/`` of the site: its Markdown tables as pages outside the navigation, titled by their
captions, with their text kept whole (``{Z}``, ``<panel>``); REPORT.html re-rendered from the archived
claims documents with links into the site (the archived file links the checkout's ``docs/``), not
REPORT.md, whose links are the run folder's. The chips' and claims tables' style comes from the report's
stylesheet. Without an archive the marker becomes a note saying so; in the readings an archive carries
(:data:`READINGS`), a link to that archive's report.

On every page, each quoted figure, ``<!-- archive run jobs -->583<!-- end -->`` in the source
(:mod:`causal_bandits.archive.markers`), is shown with the archive's value (:mod:`causal_bandits.archive.quotes`):
the numbers and verdicts the pages state about the archived run are read from it, never copied by hand; the source
holds the same values (``causal-bandits quotes`` checks them, the release command rewrites them), so a page read on a
code host shows them too. A page holding
``<!-- coverage of the papers -->`` shows there every paper's coverage table (:mod:`causal_bandits.coverage`).
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

from mkdocs.structure.files import File, InclusionLevel

from causal_bandits import config as cb_config
from causal_bandits import coverage, report
from causal_bandits.archive import manifest, markers, quotes
from causal_bandits.papers import PAPERS
from causal_bandits.papers import paper as paper_registry
from causal_bandits.report.inline import scripts
from causal_bandits.report.page import TEMPLATES, Page, template

ARCHIVE = quotes.FOLDERS["archive"]
MARKER = "<!-- archived paper-scale report -->"
#: Where a page shows every paper's coverage table (causal_bandits.coverage).
COVERAGE = "<!-- coverage of the papers -->"
SITE = "paper-scale"
CSS = "stylesheets/verdicts.css"
REPORT_MD = "figures/REPORT.md"
REPORT_HTML = "figures/REPORT.html"
#: The key of mkdocs.yml's ``extra`` that makes the build the readings an archive carries
#: (:mod:`causal_bandits.archive.readings`): its value is that archive's report, from the site's root. Each paper
#: page then links that report's section of the paper in place of the checkout's archived run, and the site serves
#: no archived files.
READINGS = "archived_report"
#: With :data:`READINGS`, the folder of that archive (:func:`_quoted`).
READINGS_FOLDER = "archived_folder"
#: The rules of the report's stylesheet that draw a verdict chip and a claims table.
CHIP_RULE = re.compile(
    r"(?:(?<=})|^)\s*((?::root|\.chip|\.v-[a-z-]+|table\.claims|tr\.r-|td\.|\.cid|\.located|\.wide)[^{]*\{[^}]*\})",
    re.M,
)


def _archive() -> dict | None:
    return manifest.read(ARCHIVE) if (ARCHIVE / manifest.MANIFEST).is_file() else None


#: The site's own rules: a table scrolls in a box no taller than the window (its scrollbar in sight), its
#: header row kept in view; a claims table sizes its columns to their words (the page's column is narrower than the
#: report's, and the fixed layout's percentages would leave a number column too narrow for a name such as
#: LinUCB_Biased in a wide font), the column widths only a preference.
SITE_CSS = (
    ".md-typeset__scrollwrap{max-height:85vh;overflow:auto}.md-typeset table.claims{table-layout:auto}"
    ".md-typeset table.claims td.see a{white-space:nowrap}"
    ".md-typeset table.claims{font-size:.62rem;line-height:1.4}.md-typeset table.claims th{font-size:.62rem}"
    "table.claims.compact col.verdict{width:7.4em}table.claims.compact col.see{width:7.5em}"
    "table.claims.compact col.claim{width:25%}table.claims.compact col.num{width:14%}"
    ".md-typeset table.claims td,.md-typeset table.claims th{padding:.25em .35em}"
    ".md-typeset__scrollwrap thead th{position:sticky;top:0;background:var(--md-default-bg-color)}"
)


@cache
def _quoted(made: str | None = None) -> dict[str, quotes.Archive | None]:
    """The archives the pages quote, each read once per build (:func:`causal_bandits.archive.quotes.archives`); in
    the readings of the archive ``made`` (:data:`READINGS_FOLDER`), the archives beside it (``paper-scale``,
    ``studies``: itself, and the other one a release made with it) in place of the checkout's, so that the readings
    quote the runs they are carried with."""
    beside = quotes.archives(Path(made).parent.parent) if made is not None else {}
    return {kind: beside.get(kind) or found for kind, found in quotes.archives(Path()).items()}


@cache
def _config() -> dict:
    made = _archive()
    files = [*made["provenance"]["config"]["files"]] if made else []
    return cb_config.validate(cb_config.load("config/config.yaml", *files))


def _artefacts(key: str) -> list:
    return paper_registry(key).artefacts(_config()[key])


def _claims(key: str) -> dict:
    return json.loads((ARCHIVE / "results" / "claims" / f"{key}.json").read_text())


def _site_report() -> str:
    """The archived report re-rendered for the site: the same claims, tables and figures, its links into the
    site's pages (the archived REPORT.html links the checkout's docs/ and Markdown files)."""
    keys = [k for k in PAPERS if (ARCHIVE / "results" / "claims" / f"{k}.json").is_file()]
    page = Page(
        [_claims(k) for k in keys],
        {k: _artefacts(k) for k in keys},
        report.title,
        ARCHIVE,
        f"{SITE}/figures",
        site=SITE,
    )
    return page.render()


def on_config(config, **kwargs):
    config.extra_css.append(CSS)
    return config


def on_files(files, config, **kwargs):
    css = (TEMPLATES / "report.css").read_text()
    files.append(File.generated(config, CSS, content="\n".join([*CHIP_RULE.findall(css), SITE_CSS]) + "\n"))
    if (made := _archive()) is not None and not config.extra.get(READINGS):
        for artefact in made["artefacts"]:
            if artefact == REPORT_HTML:  # re-rendered with the site's links
                files.append(File.generated(config, f"{SITE}/{artefact}", content=_site_report()))
            elif artefact != REPORT_MD:  # its links are the run folder's; each paper page shows its section
                served = File.generated(
                    config,
                    f"{SITE}/{artefact}",
                    abs_src_path=str(ARCHIVE / artefact),
                    inclusion=InclusionLevel.NOT_IN_NAV,
                )
                files.append(served)
    return files


@cache
def _titles() -> dict[str, str]:
    """The title of each archived table (``paper-scale/figures/<paper>/<table>.md``): its artefact's title."""
    return {f"{SITE}/{a.shown}": f"{key}: {a.title}" for key in PAPERS for a in _artefacts(key) if not a.is_figure}


def _table_page(uri: str, markdown: str) -> str:
    """An archived Markdown table as a page: titled by its artefact's title (else its caption, the first line),
    its text kept whole: a ``<`` is text, a brace never an attribute list, sub- and superscripts rendered."""
    text = scripts(html.escape(markdown, quote=False)).replace("{", "&#123;")
    if text.startswith("# "):  # a page with its own title
        return text
    title = _titles().get(uri) or text.partition("\n")[0]
    return f"# {scripts(html.escape(title, quote=False)).replace('{', '&#123;')}\n\n{text}"


def _figure(page: Page, key: str, a) -> str:
    """A figure of the paper: every PNG of it at a readable size, its caption, links to the full-size files."""
    files = " · ".join(f'<a href="{page.href(p)}">{p.rsplit("/", 1)[-1]}</a>' for p in a.paths)
    pngs = "".join(page.figure(p, a.title) for p in a.paths if p.endswith(".png"))
    caption = f"{page.text(a.title)} <span class=files>(full size: {files})</span>"
    return f'<figure class=artefact id="{key}-{a.key}">{pngs}<figcaption>{caption}</figcaption></figure>'


def _section(key: str, made: dict) -> str:
    """The paper's section of the archived report: its claims table (verdict first), the notes shared by several
    claims after them, then its tables (links to their pages) and figures (captions, full-size links), its links
    made to point into the site."""
    artefacts = _artefacts(key)
    page = Page([_claims(key)], {key: artefacts}, report.title, ARCHIVE, "papers", site=SITE)
    p = page.paper(_claims(key))
    macros = template().module
    parts = [str(macros.claims_table(p, p["judged"], True, True))] if p["judged"] else []
    if p["unjudged"]:
        parts += [
            f"<p><strong>Not evaluated in this run ({len(p['unjudged'])})</strong>: our number, greyed, is shown for "
            "information and is not a verdict.</p>",
            str(macros.claims_table(p, p["unjudged"], False, True)),
        ]
    if shared := "".join(f"<li>{n}</li>" for n in p["shared"]):  # after the claims they serve, as in the report
        parts.append(
            "<div class=notes><strong>Notes shared by several claims above</strong> (a claim's note cites them by "
            f"number)<ol>{shared}</ol></div>"
        )
    shown = [a for a in artefacts if not a.absent]
    tables = [
        f'<li id="{key}-{a.key}"><a href="{page.href(a.shown)}">{page.text(a.title)}</a></li>'
        for a in shown
        if not a.is_figure
    ]
    parts += [f"<p><strong>Tables</strong> (each on its own page):</p><ul>{''.join(tables)}</ul>"] if tables else []
    parts += [_figure(page, key, a) for a in shown if a.is_figure]
    run = made["run"]
    commit = (made["provenance"]["commit"] or "unknown")[:10]
    exact = run.get("exact_jobs", 0) == run.get("measured_jobs")
    cpu = (
        f"{run['cpu_hours']} CPU-h summed over its jobs, each measured"
        if exact
        else f"{run['cpu_hours']}-{run['cpu_hours_with_unsampled_tails']} CPU-h by its benchmark files"
    )
    head = (
        f"The archived run of the default config (commit `{commit}`, {run['jobs']} jobs, {cpu} "
        "([cost, and how it is measured](../performance.md#wall-time)), "
        f"finished {run['finished']}); `make verify` rebuilds a sample of its jobs and compares them byte for byte "
        "([For reviewers](../guide/reviewers.md#verify)). A local run writes its own report to figures/REPORT.md; "
        f"[the archived run's whole report](../{SITE}/{REPORT_HTML}) lists every claim to look at."
    )
    body = "\n".join(parts)
    return f'{head}\n\n<div class="paper-scale" markdown="0">\n{body}\n</div>\n'


def on_page_markdown(markdown, page, config, files, **kwargs):
    if page.file.src_uri.startswith(f"{SITE}/") and page.file.src_uri.endswith(".md"):
        return _table_page(page.file.src_uri, markdown)
    made = _archive()
    quoted = _quoted(config.extra.get(READINGS_FOLDER))
    markdown = quotes.expand(markers.expand(markdown, quoted, page.file.src_uri), quoted, page.file.src_uri)
    markdown = markdown.replace(COVERAGE, coverage.markdown(PAPERS))
    if MARKER not in markdown:
        return markdown
    key = Path(page.file.src_uri).stem
    if report := config.extra.get(READINGS):  # the readings of an archive: its own report shows the verdicts
        link = "../" * page.file.src_uri.count("/") + f"{report}#{key}"
        note = "This archive's report shows the paper's verdicts, tables and figures: "
        note += f'<a href="{link}">its section</a>.'
        return markdown.replace(MARKER, note)
    if made is None or key not in PAPERS or not (ARCHIVE / "results" / "claims" / f"{key}.json").is_file():
        # no archive, or a paper added since it was made (causal-bandits new-paper): the archive has no section of it
        what = "no archived paper-scale run" if made is None else "no archived paper-scale run of this paper"
        note = (
            f'!!! note "No archived run yet"\n    This version ships {what} '
            "([for reviewers](../guide/reviewers.md#verify)); a local run writes its own report to figures/REPORT.md."
        )
        return markdown.replace(MARKER, note)
    return markdown.replace(MARKER, _section(key, made))
