"""MkDocs hook: each paper's page shows the archived paper-scale run's verdicts and figures.

A paper page holds the marker ``<!-- archived paper-scale report -->``; this hook replaces it with
that paper's section of the archived run's report (archive/paper-scale, written by
``causal-bandits archive``): its claims table, rendered by the report's own Markdown renderer with
the verdicts as the report's coloured chips, then every figure of the paper from the archive. The
archived files are served under ``paper-scale/`` of the site (its Markdown tables as pages outside the
navigation; not REPORT.md, whose links are the run folder's), and the chips' colours come
from the report's stylesheet. Without an archive the marker becomes a note saying so.

On every page, each quote ``{{ archive ... }}`` is filled in from the archive
(:mod:`causal_bandits.archive.quotes`): the numbers and verdicts the pages state about the archived run
are read from it, never copied by hand, so a remade archive updates them. A page holding
``<!-- coverage of the papers -->`` shows there every paper's coverage table (:mod:`causal_bandits.coverage`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.structure.files import File, InclusionLevel

from causal_bandits import config as cb_config
from causal_bandits import coverage, report
from causal_bandits.archive import manifest, quotes
from causal_bandits.claims import STATUSES
from causal_bandits.papers import PAPERS
from causal_bandits.papers import paper as paper_registry
from causal_bandits.report.md import Report
from causal_bandits.report.page import TEMPLATES, Page, chip

ARCHIVE = Path("archive/paper-scale")
MARKER = "<!-- archived paper-scale report -->"
#: Where a page shows every paper's coverage table (causal_bandits.coverage).
COVERAGE = "<!-- coverage of the papers -->"
SITE = "paper-scale"
CSS = "stylesheets/verdicts.css"
REPORT_MD = "figures/REPORT.md"
#: The rules of the report's stylesheet that colour a verdict chip.
CHIP_RULE = re.compile(r"(?:(?<=})|^)\s*((?::root|\.chip|\.v-[a-z]+)[^{]*\{[^}]*\})", re.M)


def _archive() -> dict | None:
    return manifest.read(ARCHIVE) if (ARCHIVE / manifest.MANIFEST).is_file() else None


def on_config(config, **kwargs):
    config.extra_css.append(CSS)
    return config


def on_files(files, config, **kwargs):
    css = (TEMPLATES / "report.css").read_text()
    files.append(File.generated(config, CSS, content="\n".join(CHIP_RULE.findall(css)) + "\n"))
    if (made := _archive()) is not None:
        for artefact in made["artefacts"]:
            if artefact != REPORT_MD:  # its links are the run folder's; each paper page shows its section
                served = File.generated(
                    config,
                    f"{SITE}/{artefact}",
                    abs_src_path=str(ARCHIVE / artefact),
                    inclusion=InclusionLevel.NOT_IN_NAV,
                )
                files.append(served)
    return files


def _section(key: str, made: dict) -> str:
    """The paper's section of the archived report, its links made to point into the site."""
    files = [*made["provenance"]["config"]["files"]]
    cfg = cb_config.validate(cb_config.load("config/config.yaml", *files))
    artefacts = {key: paper_registry(key).artefacts(cfg[key])}
    doc = json.loads((ARCHIVE / "results" / "claims" / f"{key}.json").read_text())
    page = Page([doc], artefacts, report.title, ARCHIVE, "docs/papers")
    lines = Report(page, report.title).section(doc)[3:]  # without the heading: the page has its own
    # a cell ending in a set such as {Z} would be read as an attribute list (attr_list): escape table braces
    lines = [line.replace("{", "&#123;") if line.startswith("|") else line for line in lines]
    text = "\n".join(lines).replace("../../figures/", f"../{SITE}/figures/")
    for status in STATUSES:
        text = text.replace(f"**{status}**", str(chip(status)))
    figures = [a for a in artefacts[key] if a.paths[0].endswith(".png") and not a.absent]
    text += "\n\n" + "\n\n".join(f"![{a.title}](../{SITE}/{a.paths[0]})" for a in figures)
    run = made["run"]
    commit = (made["provenance"]["commit"] or "unknown")[:10]
    exact = run.get("exact_jobs", 0) == run.get("measured_jobs")
    cpu = (
        f"{run['cpu_hours']} CPU-h measured by each job"
        if exact
        else f"{run['cpu_hours']}-{run['cpu_hours_with_unsampled_tails']} CPU-h by its benchmark files"
    )
    head = (
        f"The archived run of the default config (commit `{commit}`, {run['jobs']} jobs, {cpu} "
        "([cost](../performance.md#wall-time)), "
        f"finished {run['finished']}); `make verify` rebuilds a sample of its jobs and compares them byte for byte "
        "([For reviewers](../guide/reviewers.md#verify)). A local run writes its own report to figures/REPORT.md."
    )
    return head + "\n\n" + text


def on_page_markdown(markdown, page, config, files, **kwargs):
    made = _archive()
    markdown = quotes.expand(markdown, quotes.Archive(ARCHIVE) if made else None, page.file.src_uri)
    markdown = markdown.replace(COVERAGE, coverage.markdown(PAPERS))
    if MARKER not in markdown:
        return markdown
    key = Path(page.file.src_uri).stem
    if made is None or key not in PAPERS:
        note = (
            '!!! note "No archived run yet"\n    This version ships no archived paper-scale run '
            "([for reviewers](../guide/reviewers.md#verify)); a local run writes its own report to figures/REPORT.md."
        )
        return markdown.replace(MARKER, note)
    return markdown.replace(MARKER, _section(key, made))
