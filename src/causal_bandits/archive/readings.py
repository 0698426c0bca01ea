"""The rendered readings an archived report links: the documentation site's pages, carried in the archive.

A run's REPORT.html links each claim's reading in the checkout's Markdown (``../docs/papers/<key>.md#<anchor>``),
which a browser shows as raw text, quotes unexpanded, at its top. :func:`carry` builds the documentation site with
the run's checkout (MkDocs, as ``make docs`` does; no search index, no API reference, and each paper page linking
this archive's report in place of the checkout's archived run: ``READINGS`` in docs/hooks/paper_scale.py) and puts
in the archive's :data:`FOLDER` the pages the report links, with the stylesheets and scripts they load (MathJax
only for a page with a formula); a link of those pages to a page the archive does not carry keeps its text and loses
its target. The archived REPORT.html links them (:func:`rendered`: ``../readings/papers/<key>.html#<anchor>``), so
that a reading opens rendered at its section, from disk as over HTTP.

The manifest keeps the sha256 of the report as the run wrote it: :func:`as_written` puts the run's links back,
which is what ``manifest.read`` and ``verify`` compare.
"""

from __future__ import annotations

import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import yaml

from causal_bandits.errors import CausalBanditsError

#: The archive's folder of rendered readings (a subset of the documentation site, laid out as the site).
FOLDER = "readings"
#: The report whose reading links the archive points at :data:`FOLDER`.
REPORT = "figures/REPORT.html"
#: A reading link of the report as the run wrote it (figures/ → the checkout's docs/), and as archived.
SOURCE_LINK = re.compile(r'href="\.\./docs/([\w/-]+)\.md(#[^"]*)?"')
RENDERED_LINK = re.compile(rf'href="\.\./{FOLDER}/([\w/-]+)\.html(#[^"]*)?"')
#: A link or a loaded file of a rendered page.
ATTRIBUTE = re.compile(r'\s(href|src)="([^"]*)"')
#: Targets left as they are: in-page anchors, other sites, inline data.
KEPT = re.compile(r"^(#|[a-z]+:)")
#: MathJax's settings and renderer (docs/hooks/formulas.py serves them under javascripts/), loaded by every page of
#: the site: a carried page without a formula (``pymdownx.arithmatex``'s class) drops them, and the archive carries
#: MathJax's 2 MB only when some reading holds a formula.
MATHJAX = re.compile(r'<script src="[^"]*javascripts/mathjax[-/][^"]*"></script>\s*')
FORMULA = 'class="arithmatex"'


def rendered(report: str) -> str:
    """The report's reading links pointed at the rendered pages of :data:`FOLDER`."""
    return SOURCE_LINK.sub(lambda m: f'href="../{FOLDER}/{m[1]}.html{m[2] or ""}"', report)


def as_written(report: str) -> str:
    """The archived report with the run's reading links put back (the inverse of :func:`rendered`)."""
    return RENDERED_LINK.sub(lambda m: f'href="../docs/{m[1]}.md{m[2] or ""}"', report)


def _site_config(workdir: Path, site: Path, out: Path) -> Path:
    """A MkDocs config for the readings: the checkout's mkdocs.yml with absolute paths, not strict, without plugins
    (search and the API reference: the pages carried need neither), with the archive's report to link and the
    archive ``out`` to quote (with the archive beside it, in place of the checkout's: docs/hooks/paper_scale.py)."""
    try:
        config = yaml.safe_load((workdir / "mkdocs.yml").read_text())
    except (OSError, yaml.YAMLError) as err:
        raise CausalBanditsError(
            f"the report's readings are rendered with {workdir}/mkdocs.yml, which cannot be read ({err}): "
            "archive the run from its checkout"
        ) from None
    config.update(
        docs_dir=str(workdir / config.get("docs_dir", "docs")),
        site_dir=str(site),
        hooks=[str(workdir / hook) for hook in config.get("hooks", [])],
        plugins=[],
        strict=False,
        extra={**(config.get("extra") or {}), "archived_report": f"../{REPORT}", "archived_folder": str(out)},
    )
    path = site.parent / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _build(workdir: Path, site: Path, out: Path) -> None:
    """Build the site with the run's checkout into ``site`` (the hooks read the checkout's config and archives, and
    the archive ``out``)."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(_site_config(workdir, site, out))],
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise CausalBanditsError(
            f"rendering the report's readings failed ({last}): install the docs extra "
            "(pip install -r requirements.lock) and check that `make docs` builds"
        )


def _carried_page(site: Path, page: str, pages: set[str], assets: set[str]) -> str:
    """The rendered ``page`` (relative to ``site``) with its links to pages not carried (``pages``) turned into
    text, and without MathJax if it holds no formula; the local files it loads or links are added to ``assets``."""
    here = posixpath.dirname(page)

    def link(m: re.Match[str]) -> str:
        kind, target = m[1], m[2]
        path = posixpath.normpath(posixpath.join(here, target.split("#")[0].split("?")[0]))
        if KEPT.match(target) or path.startswith("..") or path in pages:
            return m[0]  # an anchor, another site, the archive's report, or a carried page
        if not path.endswith(".html") and (site / path).is_file():
            assets.add(path)
            return m[0]
        if kind == "href":
            return ""  # a page the archive does not carry: its text stays, its link goes
        raise CausalBanditsError(f"the rendered reading {page} loads {target}, which the site build did not write")

    text = (site / page).read_text()
    return ATTRIBUTE.sub(link, text if FORMULA in text else MATHJAX.sub("", text))


def carry(workdir: Path, out: Path, docs: Sequence[str]) -> list[str]:
    """Render the documentation pages ``docs`` (``docs/papers/<key>.md``, those the report links) with the run's
    checkout in ``workdir``, quoting the archive ``out`` (its manifest written), put them with what they load under
    ``out/``:data:`FOLDER`, point the archived report's reading links at them (:func:`rendered`), and return the
    files written (relative to ``out``)."""
    if not docs or not (out / REPORT).is_file():
        return []
    pages = {posixpath.relpath(d, "docs").removesuffix(".md") + ".html" for d in docs}
    with tempfile.TemporaryDirectory(prefix="readings-") as scratch:
        site = Path(scratch) / "site"
        _build(workdir, site, out.resolve())
        assets: set[str] = set()
        if missing := sorted(page for page in pages if not (site / page).is_file()):
            raise CausalBanditsError(f"the site build wrote no {missing[0]}, which the report links: run `make docs`")
        texts = {page: _carried_page(site, page, pages, assets) for page in sorted(pages)}
        target = out / FOLDER
        for page, text in texts.items():
            (target / page).parent.mkdir(parents=True, exist_ok=True)
            (target / page).write_text(text)
        for asset in sorted(assets):
            (target / asset).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(site / asset, target / asset)
    report, tmp = out / REPORT, out / f"{REPORT}.tmp"
    tmp.write_bytes(rendered(report.read_bytes().decode()).encode())
    tmp.replace(report)
    return sorted(f"{FOLDER}/{path}" for path in [*pages, *assets])
