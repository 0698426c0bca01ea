"""MkDocs hook: the API reference's sections of the paper and study packages, derived from the packages.

``docs/api.md`` holds the marker ``<!-- paper and study packages -->``; this hook replaces it with one section for
the studies (every module of ``causal_bandits.studies``) and one per registered paper (``causal_bandits.papers.PAPERS``:
the package, then every module of it), each a mkdocstrings ``:::`` entry. A paper or study added (``causal-bandits
new-paper``, ``new-study``) is documented with no line written here or in the page.
"""

from __future__ import annotations

from pathlib import Path

from causal_bandits.papers import PAPERS

MARKER = "<!-- paper and study packages -->"
SRC = Path("src/causal_bandits")


def _entries(package: str, folder: Path) -> list[str]:
    modules = [package, *(f"{package}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__")]
    return [f"::: {name}\n    options:\n      heading_level: 3\n" for name in modules]


def sections() -> str:
    """The Markdown of the studies' section and every paper's."""
    parts = ["## Studies beyond the papers\n", *_entries("causal_bandits.studies", SRC / "studies")]
    for key in PAPERS:
        parts += [f"## Paper package `{key}`\n", *_entries(f"causal_bandits.papers.{key}", SRC / "papers" / key)]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    return markdown.replace(MARKER, sections()) if MARKER in markdown else markdown
