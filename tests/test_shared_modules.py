"""No shared module knows a paper: a new paper needs no edit outside its own package, its rule file, its config
blocks, its docs page and its registry line.

Scanned: every module of ``src/causal_bandits`` outside the packages that belong to papers (``papers/``, and
``studies/`` and ``experiments/``, which rerun or extend named papers) and the scaffold's templates. A module
knows a paper when it imports a paper's package (``causal_bandits.papers.<key>``) or a string in its code (not a
docstring) uses a registered key as a key: the whole string, or the key followed by ``.``, ``/``, ``:``, a quote or
a bracket (``config["fairness"]``, ``"nonmanip.pomis_plus"``, ``"cpe/"``). What a paper's package declares reaches
shared code through :class:`causal_bandits.papers.Paper` (its schema, moved keys, raw files, docs anchor)."""

from __future__ import annotations

import ast
import re

import pytest
from workflow_helpers import ROOT

from causal_bandits.papers import PAPERS

SOURCE = ROOT / "src" / "causal_bandits"
#: The packages that belong to papers, or are templates of one.
OWN = ("papers", "studies", "experiments", "scaffold")
#: Shared modules that still name a paper, each with why (the list can only shrink).
KNOWN = {
    "arms.py": "the Python API over the nonmanip paper's strategies (cb.arms_for, cb.policy)",
    "planned_runs.py": "the planned runs, judged with each paper's own claims",
    "seed_plans.py": "the seed plans, one per claim",
    "bandits/cells.py": "'bounds' is the name of a counterfactual mode there, not the paper",
}
KEY_USE = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, PAPERS)) + r")(?=$|[./:'\"\[\]()])")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def papers_named(text: str) -> list[str]:
    """Where the module source ``text`` names a paper: ``line: what``, one per place."""
    tree = ast.parse(text)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            m = KEY_USE.search(node.value)
            if m:
                found.append(f"{node.lineno}: the key {m.group(1)!r} in {node.value[:60]!r}")
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom) and node.module == "causal_bandits.papers":
                names = [f"causal_bandits.papers.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["causal_bandits", "papers"] and len(parts) > 2 and parts[2] in PAPERS:
                    found.append(f"{node.lineno}: imports {name}")
    return sorted(found)


def _shared() -> list[str]:
    return sorted(
        p.relative_to(SOURCE).as_posix() for p in SOURCE.rglob("*.py") if p.relative_to(SOURCE).parts[0] not in OWN
    )


def test_no_shared_module_names_a_paper():
    named = {m: papers_named((SOURCE / m).read_text()) for m in _shared() if m not in KNOWN}
    assert {m: found for m, found in named.items() if found} == {}, (
        "move what the module knows of the paper into its package (causal_bandits.papers.<key>) and read it through "
        "causal_bandits.papers.Paper"
    )


def test_the_known_ones_still_name_a_paper():
    """An entry of KNOWN that no longer names a paper is dropped from the list, so that it is scanned again."""
    assert [m for m in KNOWN if not papers_named((SOURCE / m).read_text())] == []


def test_the_scan_covers_the_shared_modules():
    shared = _shared()
    assert len(shared) > 100 and {"config.py", "report/links.py", "data/raw.py", "archive/rebuild.py"} <= set(shared)
    assert not [m for m in shared if m.split("/")[0] in OWN]


@pytest.mark.parametrize(
    "planted",
    [
        'raw = config.get("fairness", {})',
        'MOVED = {"nonmanip.robustness": "studies.robustness"}',
        'path = results / "cpe" / "theory.json"',
        'NUMBERS = {"unknown_graph": "unknown_graph-results"}',
        "from causal_bandits.papers.bounds import runs",
        "from causal_bandits.papers import fairness",
        "import causal_bandits.papers.cpe.tables",
    ],
)
def test_a_planted_paper_is_found(planted):
    assert papers_named(f'"""A shared module (the fairness paper in its docstring is not a use)."""\n{planted}\n')


@pytest.mark.parametrize(
    "clean",
    [
        'module = "causal_bandits.experiments.cpe"',
        'message = "give both causal bounds or neither"',
        "from causal_bandits.papers import PAPERS, paper",
        'key = f"{paper}.{old}"',
    ],
)
def test_what_is_not_a_paper(clean):
    assert papers_named(clean + "\n") == []
