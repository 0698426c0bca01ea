"""The docs quote the release and nothing else; history lives in CHANGELOG.md.

* Every marker ``<!-- archive ... -->value<!-- end -->`` in README.md, CONTRIBUTING.md and docs/ holds the archive's
  value, and no template quote ``{{ archive ... }}`` is left (:mod:`causal_bandits.archive.markers`).
* No commit hash or date stands in README.md, docs/, src/ or config/ outside a marker (CHANGELOG.md, the archives and
  the amendments file are history by design; a URL pinned to another repository's commit is a data pin, not ours).
* No hand-written figure about our runs (CPU-h, minutes, jobs, MB) stands in README.md or docs/ outside a marker or
  a fenced block of a command the reader runs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from workflow_helpers import ROOT

from causal_bandits import cli
from causal_bandits.archive import markers, quotes

#: Files that hold history by design, relative to the repository.
HISTORY = {"src/causal_bandits/preregistration/amendments.yaml"}
#: A commit hash: 7-12 hex characters with a digit and a letter, or 40.
HASH = re.compile(r"(?<![\w/#.-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}(?![\w…])|(?<![\w/])[0-9a-f]{40}(?!\w)")
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
URL = re.compile(r"https?://\S+")
#: A figure about a run: CPU time, wall minutes, a count of jobs, megabytes.
FIGURE = re.compile(r"\d[\d,.]*(?:\s|-)?(?:CPU-h\b|CPU-hours?\b|CPU hours?\b|min\b|minutes\b|jobs\b|MB\b)")


def scanned(root: Path) -> list[Path]:
    """README.md, docs/**/*.md, and the text files of src/ and config/ (Python, YAML, Markdown)."""
    found = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    for folder in ("src", "config"):
        found += sorted(p for p in (root / folder).rglob("*") if p.suffix in {".py", ".yaml", ".md"})
    return [p for p in found if p.relative_to(root).as_posix() not in HISTORY]


def _prose(text: str) -> str:
    """``text`` without marker values (the archive's) and without fenced code blocks (commands)."""
    text = markers.MARKER.sub(lambda m: f"<!-- {m.group(1)} {m.group(2)} -->" + "\n" * m.group(3).count("\n"), text)
    return re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)


def history_lines(path: Path, relative: str) -> list[str]:
    """Each line of ``path`` that cites a commit hash or a date, or (README.md, docs/) a hand-written run figure."""
    text = path.read_text()
    prose = _prose(text) if relative.endswith(".md") else markers.MARKER.sub("", text)
    figures = relative == "README.md" or relative.startswith("docs/")
    found = []
    for n, line in enumerate(prose.splitlines(), 1):
        bare = URL.sub("", line)
        what = HASH.search(bare) or DATE.search(bare) or (FIGURE.search(bare) if figures else None)
        if what:
            found.append(f"{relative}:{n}: {what.group(0)!r} in {line.strip()[:100]!r}")
    return found


def test_no_commit_hash_date_or_hand_written_run_figure_outside_the_changelog_and_the_archives():
    found = [line for p in scanned(ROOT) for line in history_lines(p, p.relative_to(ROOT).as_posix())]
    assert not found, (
        f"{len(found)} lines cite history or a hand-written run figure: move history to CHANGELOG.md, quote a figure "
        "from the archive (<!-- archive run cpu_hours --><!-- end -->, then causal-bandits quotes --write):\n"
        + "\n".join(found[:60])
    )


@pytest.mark.parametrize(
    ("planted", "caught"),
    [
        ("Since 51ac222 the run is faster.", "'51ac222'"),
        ("Made on 2026-11-28 on two cores.", "'2026-11-28'"),
        ("The papers take 0.85 CPU-h on two cores.", "'0.85 CPU-h'"),
        ("It ran 583 jobs in 27 min.", "'583 jobs'"),
        ("The archive weighs 14.2 MB.", "'14.2 MB'"),
    ],
)
def test_a_planted_hash_date_or_figure_is_caught_and_a_quoted_one_is_not(tmp_path, planted, caught):
    page = tmp_path / "page.md"
    page.write_text(f"# A page\n\nSome prose.\n{planted}\n")
    assert history_lines(page, "README.md") == [f"README.md:4: {caught} in {planted!r}"]
    quoted = "It ran <!-- archive run jobs -->583<!-- end --> jobs from <!-- archive commit -->51ac222b3b<!-- end -->."
    page.write_text(
        f"{quoted}\n```sh\nmake verify   # 10 min\n```\nhttps://host/x/55995ffbd00855eb7a2f697817522f83dbed11ec/y\n"
    )
    assert history_lines(page, "README.md") == []
    assert history_lines(page, "CHANGELOG.md") == []


def test_every_quoted_figure_is_the_archives_and_no_template_quote_is_left():
    assert markers.check(ROOT) == []


def test_a_stale_marker_and_a_template_quote_are_named_and_rewritten(tmp_path):
    found = quotes.archives(ROOT)
    jobs = quotes.quote(found["archive"], "run jobs")
    text = "| a | <!-- archive run jobs -->1<!-- end --> |\n{{ archive run jobs }} jobs\n"
    lines = list(markers.stale(text, found, "p.md"))
    assert lines[0] == f"p.md:1: <!-- archive run jobs --> reads '1', the archive '{jobs}' (quotes --write)"
    assert lines[1].startswith("p.md:2: {{ archive run jobs }} is a template quote")
    fixed = markers.refresh(text, found)
    assert (
        fixed
        == f"| a | <!-- archive run jobs -->{jobs}<!-- end --> |\n<!-- archive run jobs -->{jobs}<!-- end --> jobs\n"
    )
    assert list(markers.stale(fixed, found)) == []
    assert markers.expand(fixed, found) == f"| a | {jobs} |\n{jobs} jobs\n"


def test_quotes_write_fills_a_stale_marker_from_the_archive_and_the_check_then_passes(tmp_path, monkeypatch):
    """``causal-bandits quotes --write`` in a checkout whose page carries a stale value: the value is rewritten from
    the archive, and ``causal-bandits quotes`` (the check) goes from exit 1 to exit 0."""
    shutil.copytree(ROOT / "archive", tmp_path / "archive")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    page.write_text("The run took <!-- archive run jobs -->1<!-- end --> jobs.\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["quotes"]) == 1
    assert cli.main(["quotes", "--write"]) == 0
    assert "<!-- archive run jobs -->1<!-- end -->" not in page.read_text()
    assert cli.main(["quotes"]) == 0
