"""The report of the tiny run (the session's tiny_run fixture, no second run): REPORT.html shows
every figure, links every claim and every link resolves; no text of the Markdown tables is lost;
every claim maps to an artefact; Snakemake's report bundle holds every table and figure."""

from __future__ import annotations

import json
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

import pytest
from report_helpers import check_page
from workflow_helpers import TINY, snakemake

from causal_bandits import config as cb_config
from causal_bandits import studies
from causal_bandits.artefacts import supporting
from causal_bandits.papers import PAPERS
from causal_bandits.papers import paper as paper_registry
from causal_bandits.report.links import artefact_id, claim_id

pytestmark = pytest.mark.workflow


def _artefacts(work: Path):
    """Every paper's and every study's artefacts, as the tiny run's report shows them (studies after the papers)."""
    cfg = cb_config.validate(cb_config.load(*(work / "config" / f for f in ("config.yaml", "tiny.yaml", "ci.yaml"))))
    found = {paper: paper_registry(paper).artefacts(cfg[paper]) for paper in PAPERS}
    for name in studies.configured(cfg):
        found[name] = studies.module(name).artefacts(cfg[studies.study(name).paper])
    return found


def _claims(work: Path, paper: str):
    return json.loads((work / "results" / "claims" / f"{paper}.json").read_text())["claims"]


def test_every_claim_of_the_tiny_run_is_about_an_artefact(tiny_run):
    artefacts = _artefacts(tiny_run)
    unmapped = [
        f"{paper}: {row['id']} ({row['source']})"
        for paper in PAPERS
        for row in _claims(tiny_run, paper)
        if not supporting(row, artefacts[paper])
    ]
    assert unmapped == []


def test_every_table_and_figure_of_the_tiny_run_is_an_artefact(tiny_run):
    """The page shows every final file (each through its shown twin); artefacts the run wrote exist."""
    artefacts = _artefacts(tiny_run)
    for paper in artefacts:
        folder = tiny_run / "figures" / (paper if paper in PAPERS else f"studies/{paper}")
        listed = {p for a in artefacts[paper] for p in a.paths}
        written = {str(p.relative_to(tiny_run)) for p in folder.iterdir()}
        assert written <= listed, sorted(written - listed)
        for a in artefacts[paper]:
            assert a.absent or all((tiny_run / p).is_file() for p in a.paths), a.key


def test_report_page_shows_every_figure_and_links_every_claim(tiny_run):
    """Every PNG the run writes is shown, in page order; every claim row has the documented id
    (claim-<paper>-<claim id>) and links its artefacts; every link of the page resolves (check_page)."""
    page_path = tiny_run / "figures" / "REPORT.html"
    page = check_page(page_path.read_text(), page_path.parent)
    artefacts = _artefacts(tiny_run)
    shown = [a for section in artefacts.values() for a in section if not a.absent]
    pngs = [p for a in shown for p in a.paths if p.endswith(".png")]
    assert page.images == [str(PurePosixPath(p).relative_to("figures")) for p in pngs] and len(pngs) >= 20
    assert len([h for h in page.hrefs if h.startswith("../docs/")]) >= 150  # the readings, in the checkout
    for paper in PAPERS:
        for a in artefacts[paper]:
            assert artefact_id(paper, a.key) in page.ids
        for row in _claims(tiny_run, paper):
            claim = next(c for c in page.claims if c.id == claim_id(paper, row["id"]))
            assert claim.links == [f"#{artefact_id(paper, a.key)}" for a in supporting(row, artefacts[paper])]


class _Cells(HTMLParser):
    """The text of every table cell of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def test_report_page_loses_no_braced_text_of_the_tables(tiny_run):
    """Every {...} of the Markdown tables the page shows is in a cell of the page (the front-door POMIS
    "∅, {Z}" of Table 1, say), and every {...} of a claim's text too; a subscript or superscript ``_{x}``/``^{x}``
    (the catalogue's ``P_{x}(y)``) is set as one, so its text is in the cell without the braces."""
    parser = _Cells()
    parser.feed((tiny_run / "figures" / "REPORT.html").read_text())
    page = " ".join(parser.cells)
    tables = [p.read_text().replace("\\|", "|") for p in (tiny_run / "figures").rglob("*.md") if p.name != "REPORT.md"]
    claims = [row[k] for paper in PAPERS for row in _claims(tiny_run, paper) for k in ("statement", "paper", "ours")]
    found = [m for text in (*tables, *claims) for m in re.finditer(r"([_^]?)(\{[^{}\n]*\})", text)]
    braced = {m[2] for m in found if not m[1] and "|" not in m[2]}
    scripts = {m[2][1:-1] for m in found if m[1]}
    assert len(braced) > 10 and "{Z}" in braced and "x" in scripts
    assert sorted(b for b in braced if b not in page) == []
    assert sorted(s for s in scripts if s not in page) == []


def test_snakemake_report_bundle_holds_every_table_and_figure(tiny_run, tmp_path):
    bundle = tmp_path / "report.zip"
    result = snakemake(tiny_run, "--report", str(bundle), *TINY)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "ERROR" not in result.stderr, "a caption did not render: " + result.stderr[-3000:]
    with zipfile.ZipFile(bundle) as z:
        by_name = {}
        for name in z.namelist():
            by_name.setdefault(PurePosixPath(name).name, []).append(name)
        missing = [
            str(f.relative_to(tiny_run))
            for f in sorted((tiny_run / "figures").rglob("*"))
            if f.is_file() and not any(z.read(n) == f.read_bytes() for n in by_name.get(f.name, []))
        ]
    assert missing == []


def test_every_markdown_table_row_of_the_tiny_run_has_one_cell_per_column(tiny_run):
    """A "|" inside a cell's text (P(y|x)) is escaped, so no row splits into more cells than its header."""
    for table in (tiny_run / "figures").rglob("*.md"):
        head = None
        for line in table.read_text().splitlines():
            if not line.startswith("|"):
                head = None
                continue
            cells = len(re.split(r"(?<!\\)\|", line.strip().strip("|")))
            head = head or cells
            assert cells == head, f"{table.name}: {line[:80]}"
