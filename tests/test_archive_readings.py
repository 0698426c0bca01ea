"""The rendered readings an archive carries (causal_bandits.archive.readings): the archived report's reading links
point at them, the manifest still vouches for the report the run wrote, and a carried page keeps only the links
the archive can follow. The whole path (a site build, a tiny run archived and read in a browser) is
tests/test_browser.py's archived-report test."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from workflow_helpers import ROOT

from causal_bandits.archive import manifest, readings
from causal_bandits.errors import CausalBanditsError, DataError

MATHJAX = "javascripts/mathjax/tex-svg.js"
WRITTEN = (
    '<a href="../docs/papers/cpe.md#cpe-results">r</a> <a href="../docs/papers/bounds.md">b</a> '
    '<a href="cpe/table1.md">t</a> <code>docs/papers/cpe.md#cpe-results</code>'
)


def test_the_reading_links_point_at_the_rendered_pages_and_back():
    shown = readings.rendered(WRITTEN)
    assert 'href="../readings/papers/cpe.html#cpe-results"' in shown
    assert 'href="../readings/papers/bounds.html"' in shown
    assert 'href="cpe/table1.md"' in shown and "<code>docs/papers/cpe.md#cpe-results</code>" in shown  # not links
    assert readings.as_written(shown) == WRITTEN


def _report_archive(folder, text: str) -> None:
    (folder / "figures").mkdir(exist_ok=True)
    (folder / readings.REPORT).write_text(WRITTEN)
    entry = manifest.describe_file(folder / readings.REPORT, readings.REPORT)
    job = {"rule": "report", "inputs": [], "outputs": [entry], "cpu_s": 1.0, "wall_s": 1.0}
    record = {"format": manifest.FORMAT, "provenance": {}, "run": {}, "artefacts": [readings.REPORT], "jobs": [job]}
    manifest.write(folder / manifest.MANIFEST, record)
    (folder / readings.REPORT).write_text(text)


def test_the_manifest_vouches_for_the_report_with_its_rendered_links_and_not_for_an_edit(tmp_path):
    _report_archive(tmp_path, readings.rendered(WRITTEN))
    assert manifest.read(tmp_path)["artefacts"] == [readings.REPORT]
    _report_archive(tmp_path, readings.rendered(WRITTEN).replace("cpe-results", "cpe-other"))
    with pytest.raises(DataError, match=r"REPORT\.html is missing or not the file the run wrote"):
        manifest.read(tmp_path)


def test_a_carried_page_keeps_its_anchors_carried_pages_and_files_and_unlinks_the_rest(tmp_path):
    site = tmp_path / "site"
    (site / "papers").mkdir(parents=True)
    (site / "assets").mkdir()
    (site / "assets" / "main.css").write_text("body{}")
    (site / "papers" / "cpe.html").write_text(
        '<link href="../assets/main.css" rel=stylesheet><a href="#cpe-x">a</a> <a href="bounds.html#b">b</a> '
        '<a href="../guide/reviewers.html#verify">g</a> <a href="https://example.org/">e</a> '
        '<a href="../../figures/REPORT.html#cpe">r</a>'
    )
    assets: set[str] = set()
    text = readings._carried_page(site, "papers/cpe.html", {"papers/cpe.html", "papers/bounds.html"}, assets)
    assert assets == {"assets/main.css"}
    for kept in ("#cpe-x", "bounds.html#b", "https://example.org/", "../../figures/REPORT.html#cpe"):
        assert f'href="{kept}"' in text
    assert "<a>g</a>" in text and "reviewers" not in text
    (site / "papers" / "cpe.html").write_text('<script src="../assets/gone.js"></script>')
    with pytest.raises(CausalBanditsError, match=r"loads \.\./assets/gone\.js, which the site build did not write"):
        readings._carried_page(site, "papers/cpe.html", {"papers/cpe.html"}, set())


def test_a_report_that_links_no_reading_carries_none(tmp_path):
    assert readings.carry(tmp_path, tmp_path / "out", []) == []
    assert not (tmp_path / "out").exists()


def test_a_carried_page_loads_mathjax_only_if_it_holds_a_formula(tmp_path):
    site = tmp_path / "site"
    (site / "papers").mkdir(parents=True)
    (site / "javascripts" / "mathjax").mkdir(parents=True)
    for name in ("javascripts/mathjax-config.js", MATHJAX):
        (site / name).write_text("//")
    scripts = "".join(f'<script src="../{name}"></script>' for name in ("javascripts/mathjax-config.js", MATHJAX))
    for body, loaded in (
        ("<p>no formula</p>", set()),
        (
            '<span class="arithmatex">\\(U_{a}\\)</span>',
            {"javascripts/mathjax/tex-svg.js", "javascripts/mathjax-config.js"},
        ),
    ):
        (site / "papers" / "cpe.html").write_text(body + scripts)
        assets: set[str] = set()
        text = readings._carried_page(site, "papers/cpe.html", {"papers/cpe.html"}, assets)
        assert assets == loaded and ("mathjax" in text) == bool(loaded)


def test_a_readings_build_that_cannot_read_the_checkouts_mkdocs_config_is_one_clear_error(tmp_path):
    (tmp_path / "out" / "figures").mkdir(parents=True)
    (tmp_path / "out" / readings.REPORT).write_text(WRITTEN)
    with pytest.raises(CausalBanditsError, match=r"mkdocs\.yml, which cannot be read .*: archive the run from its"):
        readings.carry(tmp_path, tmp_path / "out", ["docs/papers/cpe.md"])
    assert (tmp_path / "out" / readings.REPORT).read_text() == WRITTEN  # its links untouched


def test_the_readings_quote_the_archives_beside_the_one_they_are_carried_with(tmp_path, monkeypatch):
    """docs/hooks/paper_scale.py: built for the archive <root>/archive/paper-scale, the pages quote it (and a studies
    archive beside it), not the checkout's archive/ of the folder the build runs in."""
    spec = importlib.util.spec_from_file_location("paper_scale_hook", ROOT / "docs" / "hooks" / "paper_scale.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    made = tmp_path / "release" / "archive" / "paper-scale"
    for folder in (
        made,
        tmp_path / "checkout" / "archive" / "paper-scale",
        tmp_path / "checkout" / "archive" / "studies",
    ):
        folder.mkdir(parents=True)
        (folder / manifest.MANIFEST).write_text("{}")
    monkeypatch.chdir(tmp_path / "checkout")
    quoted = hook._quoted(str(made))
    assert quoted["archive"].folder == made.parent.parent / "archive" / "paper-scale"
    assert quoted["studies"].folder == Path("archive/studies")  # none beside it: the checkout's
    assert hook._quoted(None)["archive"].folder == Path("archive/paper-scale")
