"""Citations in code, config, workflow, tests and report text point into docs/, never outside the repository.

The readings behind the numbers live in docs/ (docs/papers/<key>.md, docs/guide/*.md). A file that cites
an interpretation document, an issue tracker entry or a design note that is not in the repository fails
here, and so does a ``docs/<page>.md#<anchor>`` reference whose page or anchor does not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCOPE = ["src", "workflow", "config", "tests", "benchmarks", ".ci", "README.md", "CONTRIBUTING.md", "Makefile"]
SUFFIXES = {".py", ".smk", ".yaml", ".yml", ".md", ".rst", ".sh", ".toml", ".cfg", ".txt", ""}
SELF = Path(__file__).resolve()

#: Citations of documents that are not in the repository. Case-sensitive on purpose: SPEC as a word
#: (not NOT_SPECIFIED or SPEC_MEANS, where "_" joins it to an identifier), the SPEC files, the design
#: note, and issue numbers ("issue 8", "Issue 7, item 7", "issue #12").
OUTSIDE = [re.compile(p) for p in (r"\bSPEC\b", r"\.SPEC\.md", r"\bDESIGN\.md\b", r"\b[Ii]ssues? #?\d+")]
#: A reference to a docs page, with an optional anchor: docs/papers/nonmanip.md#nonmanip-quick.
DOCREF = re.compile(r"(?<![\w/.])docs/((?:[\w-]+/)*[\w-]+\.md)(?:#([\w-]+))?")


def scoped_files() -> list[Path]:
    out = []
    for entry in SCOPE:
        p = ROOT / entry
        paths = [p] if p.is_file() else sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else []
        out += [
            q
            for q in paths
            if q.suffix in SUFFIXES
            and q.resolve() != SELF
            and "__pycache__" not in q.parts
            and ".egg-info" not in str(q)
        ]
    return out


def slug(title: str) -> str:
    """Python-Markdown's toc slug of a heading (what mkdocs gives a heading without an explicit id)."""
    text = re.sub(r"[^\w\s-]", "", title.strip().lower())
    return re.sub(r"[-\s]+", "-", text).strip("-")


def anchors(page: Path) -> set[str]:
    """The ids of a docs page: explicit {#id} attributes on headings (and elsewhere), and heading slugs."""
    ids = set()
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        if in_fence:
            continue
        ids.update(re.findall(r"\{[^}]*#([\w-]+)[^}]*\}", line))
        m = re.match(r"^#{1,6}\s+(.*?)\s*(\{[^}]*\})?\s*$", line)
        if m:
            ids.add(slug(m.group(1)))
    return ids


def check_text(text: str, where: str, cache: dict[str, set[str]]) -> list[str]:
    """Problems of one text: citations of outside documents and docs references that do not resolve."""
    problems = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for pat in OUTSIDE:
            for m in pat.finditer(line):
                problems.append(f"{where}:{lineno}: cites {m.group(0)!r}, which is not in the repository")
        for m in DOCREF.finditer(line):
            page, anchor = m.group(1), m.group(2)
            path = DOCS / page
            if not path.is_file():
                problems.append(f"{where}:{lineno}: docs/{page} does not exist")
                continue
            if anchor:
                if page not in cache:
                    cache[page] = anchors(path)
                if anchor not in cache[page]:
                    problems.append(f"{where}:{lineno}: docs/{page} has no anchor #{anchor}")
    return problems


def test_slug_and_anchor_parsing(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# Title\n\n## Readings of it {#p-readings}\n\n### Plain heading, with (marks)\n\n"
        "```\n## not a heading {#p-fenced}\n```\n"
    )
    assert anchors(page) == {"title", "p-readings", "readings-of-it", "plain-heading-with-marks"}


def test_the_checker_catches_outside_documents_and_missing_anchors():
    bad = (
        "x = 1  # SPEC §2.10\n"
        "see nonmanip.SPEC.md and DESIGN.md, issue 8 item 6, Issue 7\n"
        "docs/papers/nonmanip.md#no-such-anchor docs/papers/nope.md\n"
    )
    found = check_text(bad, "f", {})
    assert len(found) == 8, found  # the SPEC file name counts twice: as SPEC and as a .SPEC.md file
    ok = (
        "NOT_SPECIFIED = SPEC_MEANS  # docs/papers/nonmanip.md#nonmanip-quick, docs/guide/cluster.md\n"
        "tissue 5; the SPECIFIED value"
    )
    assert check_text(ok, "f", {}) == []


def test_no_file_cites_a_document_outside_the_repository_or_a_missing_anchor():
    cache: dict[str, set[str]] = {}
    problems = []
    for path in scoped_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        problems += check_text(text, path.relative_to(ROOT).as_posix(), cache)
    assert not problems, "\n".join(problems[:50]) + (f"\n... {len(problems)} in all" if len(problems) > 50 else "")


def _claims() -> list:
    from causal_bandits.papers.bounds import claims as bounds
    from causal_bandits.papers.cpe import claims as cpe
    from causal_bandits.papers.fairness import claims as fairness
    from causal_bandits.papers.nonmanip import claims as nonmanip
    from causal_bandits.papers.unknown_graph import claims as unknown_graph

    algorithms = {e: ["ccpe_bglm", "ccpe_general", "lucb", "pb", "naive"] for e in ("E0", "E1", "E2", "E3", "E4", "E5")}
    from causal_bandits import studies

    paper = {"panels": ["fig5a", "fig5b", "fig5c"]}
    study_claims = [c for name in studies.STUDIES for c in studies.module(name).claims(paper)]
    return (
        bounds.claims() + cpe.claims(algorithms) + fairness.claims() + nonmanip.claims({}) + unknown_graph.claims()
    ) + study_claims


@pytest.mark.parametrize("field", ["source", "statement"])
def test_report_claims_cite_docs_only(field):
    """What REPORT.md and the HTML report print per claim (its source and statement) follows the same rule;
    so do the notes of the verdicts that need no results (empty results: not evaluated)."""
    cache: dict[str, set[str]] = {}
    problems = []
    for claim in _claims():
        problems += check_text(getattr(claim, field), f"claim {claim.id} ({field})", cache)
    assert not problems, "\n".join(problems)


def test_report_verdict_notes_on_empty_results_cite_docs_only():
    cache: dict[str, set[str]] = {}
    problems, checked = [], 0
    for claim in _claims():
        try:
            row = claim.check({})
        except Exception:  # a claim that needs results cannot be judged on none; its literals are scanned above
            continue
        checked += 1
        problems += check_text(" ".join(str(v) for v in row.values()), f"claim {claim.id} (row)", cache)
    assert checked > 0
    assert not problems, "\n".join(problems)
