"""MkDocs hook: what the docs list of the registered papers and the studies, derived from the registries and packages.

The site's ``Papers`` section (``nav:`` in mkdocs.yml holds it empty) lists ``docs/papers/<key>.md`` of every
registered paper, in the registry's order; each page's ``title:`` names it.

``docs/api.md`` holds the marker ``<!-- paper and study packages -->``; this hook replaces it with one section for
the studies (every module of ``causal_bandits.studies``) and one per registered paper (``causal_bandits.papers.PAPERS``:
the package, then every module of it), each a mkdocstrings ``:::`` entry. A paper or study added (``causal-bandits
new-paper``, ``new-study``) is documented with no line written here or in the page.
"""

from __future__ import annotations

from pathlib import Path

from causal_bandits.papers import PAPERS

MARKER = "<!-- paper and study packages -->"
PAPERS_NAV = "Papers"
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


def on_config(config, **kwargs):
    sections = [entry for entry in config.nav if isinstance(entry, dict) and PAPERS_NAV in entry]
    if len(sections) != 1:
        raise ValueError(f"mkdocs.yml's nav: needs one {PAPERS_NAV!r} section for the papers' pages")
    sections[0][PAPERS_NAV] = [f"papers/{key}.md" for key in PAPERS]
    return config


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    return markdown.replace(MARKER, sections()) if MARKER in markdown else markdown
