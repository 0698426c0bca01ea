"""The report of the tiny run (the session's tiny_run fixture, no second run): REPORT.html embeds
every figure and links every claim; every claim maps to an artefact; Snakemake's report bundle
holds every table and figure."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path, PurePosixPath

import pytest
from conftest import TINY, snakemake
from report_helpers import check_page

from causal_bandits import config as cb_config
from causal_bandits.artefacts import of_paper, supporting
from causal_bandits.papers import PAPERS
from causal_bandits.report_page import anchor

pytestmark = pytest.mark.workflow


def _artefacts(work: Path):
    cfg = cb_config.validate(cb_config.load(*(work / "config" / f for f in ("config.yaml", "tiny.yaml", "ci.yaml"))))
    return {paper: of_paper(paper, cfg[paper]) for paper in PAPERS}


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
    for paper in PAPERS:
        listed = {p for a in artefacts[paper] for p in a.paths}
        written = {str(p.relative_to(tiny_run)) for p in (tiny_run / "figures" / paper).iterdir()}
        assert written <= listed, sorted(written - listed)
        for a in artefacts[paper]:
            assert a.absent or all((tiny_run / p).is_file() for p in a.paths), a.key


def test_report_page_embeds_every_figure_and_links_every_claim(tiny_run):
    page_path = tiny_run / "figures" / "REPORT.html"
    text = page_path.read_text()
    page = check_page(text, page_path.parent)
    artefacts = _artefacts(tiny_run)
    shown = [a for paper in PAPERS for a in artefacts[paper] if not a.absent]
    figures = [a for a in shown if a.is_figure]
    assert len(page.images) == len(figures) >= 20
    for paper in PAPERS:
        for a in artefacts[paper]:
            assert anchor(paper, a.key) in page.ids
        for row in _claims(tiny_run, paper):
            claim = next(c for c in page.claims if c.id == anchor("claim", paper, row["id"]))
            assert claim.links == [f"#{anchor(paper, a.key)}" for a in supporting(row, artefacts[paper])]
    # Each embedded figure is its PNG file, byte for byte, in page order.
    assert page.images == [(tiny_run / a.shown).read_bytes() for a in figures]


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
