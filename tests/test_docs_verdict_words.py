"""No prose verdict contradicts the archive: a verdict word the docs write about a claim is its archived verdict.

A *unit* of a page is a paragraph, a list item or a table row (a heading belongs to the first block under it, so
"Why τ = 0.2 differs" speaks of the claims its first paragraph cites). In a unit, each claim it cites (its id in
backticks, :func:`test_docs_archive._cited`; ``<panel>`` stands for every panel, so the word must hold for each) is
spoken of by the nearest verdict word written by hand before it (quotes, ``<!-- archive ... -->value<!-- end -->``
markers and ``{{ archive ... }}`` templates, are the archive's own and are left out; "not reproduced" asserts
nothing). That word must be the claim's archived verdict (archive/paper-scale/results/claims).
Run: ``.venv/bin/python -m pytest tests/test_docs_verdict_words.py``.
"""

from __future__ import annotations

import re

import pytest
from test_docs_archive import ARCHIVE, PAGES, ROOT, _cited

from causal_bandits.archive import markers, quotes
from causal_bandits.claims import DIFFERS, FITTED, INCONCLUSIVE, REPRODUCED, VACUOUS
from causal_bandits.papers import PAPERS

pytestmark = pytest.mark.skipif(not (ARCHIVE / "manifest.json").is_file(), reason="this checkout ships no archive")

#: A verdict word as prose writes it, and the verdict it names.
WORDS = {
    "reproduced": REPRODUCED,
    "reproduce": REPRODUCED,
    "differs": DIFFERS,
    "differ": DIFFERS,
    "inconclusive": INCONCLUSIVE,
    "vacuous": VACUOUS,
    "vacuously": VACUOUS,
    "fitted": FITTED,
}
WORD = re.compile(r"(?<![\w-])(not\s+|n't\s+)?(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")(?![\w-])", re.I)
CITATION = re.compile(r"`[A-Za-z0-9_.+<>-]+`")


def units(text: str) -> list[str]:
    """A page's paragraphs, list items and table rows (code blocks left out), each heading joined to the block
    under it."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    out: list[str] = []
    heading = ""
    for block in re.split(r"\n\s*\n", text):
        lines = block.split("\n")
        if lines[0].startswith("#"):
            heading, lines = lines[0], lines[1:]
        parts: list[str] = []
        for line in lines:
            if not parts or re.match(r"\s*([*-]|\d+\.)\s|\s*\|", line) or parts[-1].lstrip().startswith("|"):
                parts.append(line)
            else:
                parts[-1] += "\n" + line
        if parts:
            out += [f"{heading}\n{parts[0]}", *parts[1:]] if heading else parts
            heading = ""
    return out


def _words(text: str) -> list[tuple[int, str, bool]]:
    """(position, word, negated) of each verdict word written by hand in ``text`` (claim ids blanked out)."""
    prose = CITATION.sub(lambda c: " " * len(c.group()), text)
    return [(m.start(2), m.group(2), bool(m.group(1))) for m in WORD.finditer(prose)]


def spoken(unit: str) -> list[tuple[str, str, str]]:
    """(citation, verdict word, the verdict it names) for each claim citation a unit speaks of with a word, found in
    its clause (sentence, or up to a semicolon): a word in parentheses right after it (`x` (differs)); else the
    nearest word before it, not one inside another citation's parentheses; else the first word after it, before the
    next citation (`x` differs); else the unit's label (its heading, or a bold lead such as **Reproduced:**).
    A negated word ("not reproduced") asserts nothing."""
    text = markers.MARKER.sub(" ", quotes.QUOTE.sub(" ", unit))
    text = re.sub(r"\]\([^)]*\)|\{#[^}]*\}", " ", text)  # link targets and anchors are not prose
    label = re.match(r"\s*(#[^\n]*\n|(?:[*-]\s+)?\*\*[^*]+\*\*)", text)
    start = label.end() if label else 0
    lead = [w for w in _words(label.group()) if not w[2]][-1:] if label else []
    owned = [(m.start(), m.end()) for m in re.finditer(r"`[^`]+`\s*\([^)]*\)", text)]
    found = []
    for sentence in re.finditer(r".+?(?:;|[.!?](?=\s+[A-Z*`(\"])|$)", text[start:], re.S):
        words = _words(sentence.group())
        for cite in CITATION.finditer(sentence.group()):
            after = [
                w
                for w in words
                if cite.end() <= w[0]
                and any(
                    a <= cite.start() + start + sentence.start() and w[0] + start + sentence.start() < b
                    for a, b in owned
                )
            ]
            before = [w for w in words if w[0] < cite.start() and not _inside(owned, w[0] + start + sentence.start())]
            following = [m.start() for m in CITATION.finditer(sentence.group()) if m.start() > cite.start()]
            then = [w for w in words if cite.end() <= w[0] < min(following, default=len(sentence.group()))]
            said = after[:1] or before[-1:] or then[:1] or lead
            if said and not said[0][2]:
                found.append((cite.group(), said[0][1], WORDS[said[0][1].lower()]))
    return found


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    return any(a < at < b for a, b in spans)


def contradictions(text: str, page_paper: str | None, archive: quotes.Archive, where: str) -> list[str]:
    """Each verdict word of ``text`` about a cited claim that is not the claim's archived verdict."""
    wrong = []
    for unit in units(text):
        for citation, word, verdict in spoken(unit):
            for row in _cited(citation, page_paper, archive):
                if row["status"] != verdict:
                    wrong.append(
                        f"{where}: '{word}' about {citation}, whose archived verdict is {row['status']!r} "
                        f"({row['id']}): {' '.join(unit.split())[:140]}"
                    )
    return wrong


@pytest.fixture(scope="module")
def archive() -> quotes.Archive:
    return quotes.Archive(ARCHIVE)


def test_no_verdict_word_in_the_docs_contradicts_the_archive(archive: quotes.Archive) -> None:
    wrong = []
    for page in [*PAGES, ROOT / "README.md"]:
        paper = page.stem if page.stem in PAPERS else None
        wrong += contradictions(page.read_text(), paper, archive, str(page.relative_to(ROOT)))
    assert not wrong, "verdict words the archive contradicts (quote {{ archive verdict ... }} or fix the word):\n" + (
        "\n".join(wrong)
    )


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("* **Reproduced:** POMIS ≤ MIS ≤ BF in every panel (`nonmanip-order-<panel>-<solver>`).", True),
        ("* **Reproduced:** POMIS ≤ MIS ≤ BF on Fig. 2a (`nonmanip-order-fig5b-kl_ucb`).", False),
        ("* **Reproduced:** POMIS ≤ MIS ≤ BF on Fig. 2a (`nonmanip-order-fig5b-<solver>`).", True),  # TS's is fitted
        ("* **Fitted:** POMIS ≤ MIS ≤ BF on Fig. 2a with TS (`nonmanip-order-fig5b-ts`).", False),
        ("* **Vacuous:** the front-door orderings (`nonmanip-order-fig5a-ts`).", False),
        ("#### Why τ = 0.2 differs\n\nIn the archived run `table2-fucb-regret-tau0.2` lies above the band.", True),
        ("The τ = 0.2 row is inconclusive (`table2-fucb-regret-tau0.2`).", False),
        ("The τ = 0.2 row is not reproduced (`table2-fucb-regret-tau0.2`).", False),
        ("The row {{ archive verdict fairness/table2-fucb-regret-tau0.3 }} is (`table2-fucb-regret-tau0.2`).", False),
        ("| `table2-fucb-regret-tau0.2` | 332.10 | reproduced |", True),  # a hand-written verdict column
        ("At τ = 0.2 `table2-fucb-regret-tau0.2` differs; `table2-fucb-regret-tau0.3` is inconclusive.", True),
        ("At τ = 0.2 `table2-fucb-regret-tau0.2` is inconclusive; `table2-fucb-regret-tau0.3` differs.", False),
    ],
)
def test_a_planted_wrong_word_is_caught(archive: quotes.Archive, text: str, caught: bool) -> None:
    paper = "fairness" if "fucb" in text else "nonmanip"
    assert bool(contradictions(text, paper, archive, "planted")) is caught
