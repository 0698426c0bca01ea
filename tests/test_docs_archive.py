"""The docs never contradict the archived paper-scale run (archive/paper-scale).

What the docs pages state about the archived run is either *quoted* (a marker, ``<!-- archive ... -->value<!-- end
-->``, whose value tests/test_docs_record.py holds to the archive: :mod:`causal_bandits.archive.markers`), so that a
remade archive updates it, or written by hand and checked here against the archive: every number written in a table
row that cites a claim must be one of the numbers of those claims' archived rows (at the precision written), and
every verdict column is quoted.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from causal_bandits.archive import markers, quotes
from causal_bandits.claims import DIFFERS
from causal_bandits.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "archive" / "paper-scale"
#: The pages that state numbers about our runs.
PAGES = sorted(
    [
        *(ROOT / "docs" / "papers").glob("*.md"),
        *(ROOT / "docs" / "guide").glob("*.md"),
        ROOT / "docs" / "performance.md",
        ROOT / "docs" / "studies.md",
        ROOT / "docs" / "index.md",
    ]
)

pytestmark = pytest.mark.skipif(not (ARCHIVE / "manifest.json").is_file(), reason="this checkout ships no archive")

NUMBER = re.compile(r"(?<![\w.§^_-])[-−+]?\d[\d,]*(?:\.\d+)?(?!\w)")
#: Any number in the archive's text, also inside a setting's name (``rho0.95``, ``k2``).
ANY_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: Words after which a number names a part of the paper (Table 1, Thm 4), not a measurement.
PAPER_PARTS = re.compile(
    r"(?:Table|Tables|Fig\.|Figure|Figures|Thm|Thms|Theorem|Theorems|Lemma|Alg\.|Algorithm|Eq\.|App\.|Section|"
    r"Prop\.|Def\.|Remark|Corollary|Cor\.|A|R)\s*$"
)
#: What cites a claim: its id in backticks, maybe with the paper's key before it, ``<...>`` for a part of it.
CITED = re.compile(r"`([A-Za-z0-9_.+<>-]+)`")


@pytest.fixture(scope="module")
def archive() -> quotes.Archive:
    return quotes.Archive(ARCHIVE)


def _cited(unit: str, page_paper: str | None, archive: quotes.Archive) -> list[dict]:
    """The archived rows of the claims a unit cites."""
    rows = []
    for token in CITED.findall(unit):
        glob = re.sub(r"<[^>]+>", "*", token)
        for paper, claims in archive.claims.items():
            for prefix in (f"{paper}-", "") if paper == page_paper else (f"{paper}-",):
                if prefix and not glob.lower().startswith(prefix.lower()):
                    continue
                tail = glob[len(prefix) :]
                rows += [
                    row
                    for claim_id, row in claims.items()
                    if fnmatch.fnmatchcase(claim_id, tail)
                    or fnmatch.fnmatchcase(claim_id.lower().replace("+", "plus"), tail.lower())
                ]
    return rows


def _numbers(text: str) -> list[str]:
    found = []
    for match in NUMBER.finditer(text):
        if not PAPER_PARTS.search(text[: match.start()]):
            found.append(match.group().replace("−", "-").replace(",", "").lstrip("+"))
    return found


def _agrees(number: str, pool: list[float]) -> bool:
    decimals = len(number.split(".")[1]) if "." in number else 0
    value = abs(float(number))
    return any(abs(abs(p) - value) <= 10 ** (-decimals) / 2 + 1e-9 for p in pool)  # rounded half up or down


def _outside_quotes_and_code(unit: str) -> str:
    """The hand-written text of a unit: without quotes, code, link targets and anchors."""
    unit = markers.MARKER.sub(" ", quotes.QUOTE.sub(" ", unit))
    unit = re.sub(r"`[^`]*`", " ", unit)
    unit = re.sub(r"\]\([^)]*\)", "] ", unit)
    return re.sub(r"\{#[^}]*\}", " ", unit)


def test_every_quote_is_filled_from_the_archive(archive: quotes.Archive) -> None:
    quoted = 0
    for page in PAGES:
        text = page.read_text()
        quoted += len(markers.MARKER.findall(text))
        filled = markers.expand(text, {"archive": archive}, str(page.relative_to(ROOT)))
        assert "<!-- archive " not in filled, page
    assert quoted > 100  # the paper pages' results tables are quoted


def test_a_quote_the_archive_cannot_fill_is_named(archive: quotes.Archive) -> None:
    with pytest.raises(quotes.QuoteError, match=r"no claim 'table9-nothing'.*fairness"):
        quotes.expand("| {{ archive ours fairness/table9-nothing }} |", {"archive": archive}, "docs/papers/fairness.md")
    with pytest.raises(quotes.QuoteError, match="unknown quote"):
        quotes.expand("{{ archive colour cpe }}", {"archive": archive})
    with pytest.raises(quotes.QuoteError, match="between slashes"):
        quotes.expand("{{ archive sum cpe/pac-* (\\d+) runs }}", {"archive": archive})


def test_quotes_follow_a_remade_archive(tmp_path: Path) -> None:
    """A quote reads the archive when the site is built: change the archived claims, the docs change."""
    shutil.copytree(ARCHIVE / "results", tmp_path / "results")
    path = tmp_path / "results" / "claims" / "unknown_graph.json"
    doc = json.loads(path.read_text())
    row = next(row for row in doc["claims"] if row["id"] == "thm45")
    row["status"], row["ours"] = DIFFERS, "Thm 4 Oracle-UCB: max 176.5 | 1 {x}"
    path.write_text(json.dumps(doc))
    remade = quotes.Archive(tmp_path)
    text = "{{ archive verdict unknown_graph/thm45 }}\n| {{ archive ours unknown_graph/thm45 }} |"
    assert quotes.expand(text, {"archive": remade}) == f"{DIFFERS}\n| Thm 4 Oracle-UCB: max 176.5 \\| 1 &#123;x&#125; |"
    counts = Counter(row["status"] for row in doc["claims"])
    assert quotes.expand("{{ archive claims unknown_graph differs }}", {"archive": remade}) == str(counts[DIFFERS])


def test_studies_quotes_read_the_studies_archive_and_are_blank_without_it(tmp_path: Path) -> None:
    """``{{ studies ... }}`` reads archive/studies (here a copy of the papers' archive under that name), beside
    ``{{ archive ... }}``; a repository without it shows "–" for those quotes only."""
    text = "{{ archive commit }} {{ studies cpu cpe_run }}"
    assert quotes.expand(text, quotes.archives(tmp_path)) == "– –"
    (tmp_path / "archive").mkdir()
    shutil.copytree(ARCHIVE, tmp_path / quotes.FOLDERS["studies"])
    found = quotes.archives(tmp_path)
    assert found["archive"] is None and found["studies"] is not None
    commit = found["studies"].manifest["provenance"]["commit"][:10]
    cpu = quotes.quote(found["studies"], "cpu cpe_run")
    assert quotes.expand(text, found) == f"– {cpu}" and float(cpu) > 0 and commit
    with pytest.raises(quotes.QuoteError, match="studies colour"):
        quotes.expand("{{ studies colour cpe }}", found)


@pytest.fixture(scope="module")
def with_a_study(tmp_path_factory: pytest.TempPathFactory) -> quotes.Archive:
    """A copy of the papers' archive with one study's claims document and table added, as a studies run writes
    them (``results/claims/studies/<name>.json``, ``figures/studies/<name>/table.md``)."""
    folder = tmp_path_factory.mktemp("archive") / "studies"
    shutil.copytree(ARCHIVE, folder)
    finding = {"outcome": "ruled out", "sentence": "the knob does not move this cell", "numbers": "+0.2 ± 0.5"}
    study = {
        "study": "knobs",
        "paper": "nonmanip",
        "claims": [{"id": "knob-claim", "status": "reproduced", "ours": "Δ +0.2 ± 0.5", "paper": "", "note": ""}],
        "findings": {"table1-ts-POMIS+-fig5c": finding},
    }
    (folder / quotes.CLAIMS / quotes.STUDIES).mkdir()
    (folder / quotes.CLAIMS / quotes.STUDIES / "knobs.json").write_text(json.dumps(study))
    (folder / "figures" / "studies" / "knobs").mkdir(parents=True)
    (folder / "figures" / "studies" / "knobs" / "table.md").write_text(
        "# Knobs\n\nCaption.\n\n## N = {Z}\n\n| a |\n|---|\n| {A, C} |\n"
    )
    return quotes.Archive(folder)


def test_a_studys_claims_findings_and_table_are_quoted_and_all_counts_the_papers_only(
    with_a_study: quotes.Archive,
) -> None:
    archive = with_a_study
    papers = quotes.Archive(ARCHIVE)
    assert quotes.quote(archive, "ours knobs/knob-claim") == "Δ +0.2 ± 0.5"
    assert quotes.quote(archive, "tally all") == quotes.quote(papers, "tally all")
    assert quotes.quote(archive, "finding knobs/table1-ts-POMIS+-fig5c") == (
        "Study knobs — ruled this cause out: the knob does not move this cell (+0.2 ± 0.5)."
    )
    page = "Before.\n{{ studies include figures/studies/knobs/table.md }}\nAfter."
    assert quotes.expand(page, {"studies": archive}) == (
        "Before.\nCaption.\n\n#### N = &#123;Z&#125;\n\n| a |\n|---|\n| &#123;A, C&#125; |\nAfter."
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("finding refresh/table1-ts-POMIS+-fig5c", "no study 'refresh' in the archive \\(knobs\\)"),
        ("finding nonmanip/table1-ts-POMIS+-fig5c", "no study 'nonmanip'"),
        ("finding knobs/table1-ts-POMIS+-fig5a", "recorded no finding for 'table1-ts-POMIS\\+-fig5a'"),
        ("include figures/studies/refresh/table.md", "no archived Markdown file"),
        ("include ../../README.md", "no archived Markdown file"),
        ("include manifest.json", "no archived Markdown file"),
    ],
)
def test_a_study_quote_the_archive_cannot_fill_is_named(with_a_study: quotes.Archive, text: str, problem: str) -> None:
    with pytest.raises(quotes.QuoteError, match=problem):
        quotes.quote(with_a_study, text)


def test_an_include_inside_a_line_is_refused(with_a_study: quotes.Archive) -> None:
    with pytest.raises(quotes.QuoteError, match="stands on a line of its own"):
        quotes.expand("| {{ studies include figures/studies/knobs/table.md }} |", {"studies": with_a_study})


def test_a_cpu_quote_sums_the_jobs_of_every_glob_once(archive: quotes.Archive) -> None:
    """``cpu`` over several globs is the CPU of the jobs matching any of them: a job two globs match counts once."""
    jobs = archive.manifest["jobs"]
    hours = sum(job["cpu_s"] or 0.0 for job in jobs if job["rule"].startswith(("cpe_", "bounds_"))) / 3600
    both = quotes.quote(archive, "cpu cpe_* bounds_* cpe_run")
    assert float(both) == pytest.approx(hours, rel=0.05)  # two significant digits
    assert float(both) > max(float(quotes.quote(archive, "cpu cpe_*")), float(quotes.quote(archive, "cpu bounds_*")))
    with pytest.raises(quotes.QuoteError, match="wrong arguments"):
        quotes.quote(archive, "cpu")


def test_aggregates_read_every_matching_claim(archive: quotes.Archive) -> None:
    runs = [int(n) for row in archive.rows("cpe/pac-*") for n in re.findall(r"\((\d+) runs", row["ours"])]
    assert quotes.expand("{{ archive n cpe/pac-* /\\((\\d+) runs/ }}", {"archive": archive}) == f"{len(runs):,}"
    assert quotes.expand("{{ archive sum cpe/pac-* /\\((\\d+) runs/ }}", {"archive": archive}) == f"{sum(runs):,}"
    assert quotes.expand("{{ archive max cpe/pac-* /\\((\\d+) runs/ }}", {"archive": archive}) == str(max(runs))


def test_verdict_columns_are_quoted(archive: quotes.Archive) -> None:
    """A table's verdict column, in a row that cites a claim, is the archive's verdict, never a copy."""
    unquoted = []
    for page in PAGES:
        column = None
        for number, line in enumerate(page.read_text().split("\n"), 1):
            if not line.startswith("|"):
                column = None
                continue
            cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            if column is None:
                column = [c.lower() for c in cells].index("verdict") if "verdict" in [c.lower() for c in cells] else -1
                continue
            paper = page.stem if page.stem in PAPERS else None
            quoted = 0 <= column < len(cells) and "<!-- archive verdict" in cells[column]
            if column >= 0 and not quoted and not set(line) <= set("|- ") and _cited(line, paper, archive):
                unquoted.append(f"{page.relative_to(ROOT)}:{number}: {cells[column]}")
    assert not unquoted, "write <!-- archive verdict <paper>/<id> --><!-- end --> in:\n" + "\n".join(unquoted)


def test_hand_written_numbers_agree_with_the_archive(archive: quotes.Archive) -> None:
    """Every number written by hand in a table row that cites a claim is a number of that claim's archived row
    (prose around the tables names settings and readings, not measurements, and is not checked)."""
    shared = {
        paper: " ".join([*json.loads((ARCHIVE / "results" / "claims" / f"{paper}.json").read_text())["notes"].values()])
        for paper in archive.claims
    }
    wrong = []
    for page in PAGES:
        paper = page.stem if page.stem in PAPERS else None
        for unit in [line for line in page.read_text().split("\n") if line.lstrip().startswith("|")]:
            rows = _cited(unit, paper, archive)
            if not rows:
                continue
            fields = " ".join(" ".join([r["ours"], r["paper"], r["note"], r["statement"], r["source"]]) for r in rows)
            pool = [float(n.replace(",", "")) for n in ANY_NUMBER.findall(fields + " " + " ".join(shared.values()))]
            bad = [n for n in _numbers(_outside_quotes_and_code(unit)) if not _agrees(n, pool)]
            if bad:
                wrong.append(f"{page.relative_to(ROOT)}: {bad} in: {unit[:160]}")
    assert not wrong, "numbers the cited claims' archived rows do not hold (quote them instead):\n" + "\n".join(wrong)
