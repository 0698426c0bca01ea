"""The house rules no linter checks (CONTRIBUTING.md, "Before you commit"), held by ``make lint``:

* no import circle among the package's modules, imports inside functions included (those under
  ``if TYPE_CHECKING:`` never run and are left out);
* no function over :data:`MAX_LINES` lines, its decorators, signature and docstring counted, in the package, the
  workflow's scripts, the benchmarks, the tests and these tools;
* the tests import their helpers from modules of their own (tests/workflow_helpers.py, tests/run_helpers.py, ...),
  never from conftest.py, which holds fixtures.

Run: ``python tools/house_rules.py`` (the checkout this file sits in), or ``python tools/house_rules.py ROOT`` for
another tree. One line per finding, naming the file and the fix; exit status 1 if there is any.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from causal_bandits.sources import _executed  # the nodes a module runs: one definition, shared

PACKAGE = "causal_bandits"
MAX_LINES = 60
#: Where functions are measured, relative to the root.
MEASURED = ("src", "workflow/scripts", "tools")


def module_name(src: Path, path: Path) -> str:
    """The dotted name of the package's file ``path`` under ``src`` (a package's ``__init__.py``: the package)."""
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(name: str, tree: ast.AST, modules: set[str], is_package: bool) -> set[str]:
    """The package's modules that module ``name`` imports where it runs: ``from a import b`` names module ``a.b``
    where there is one, else ``a``."""
    found: set[str] = set()
    base = name if is_package else name.rpartition(".")[0]
    for node in _executed(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = node.module or ""
            if node.level:
                origin = ".".join([*base.split(".")[: len(base.split(".")) - node.level + 1], *filter(None, [origin])])
            found.update(f"{origin}.{a.name}" if f"{origin}.{a.name}" in modules else origin for a in node.names)
    return {m for m in found if m in modules and m != name}


def import_graph(src: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, for every module under ``src/causal_bandits``."""
    files = {module_name(src, p): p for p in sorted((src / PACKAGE).rglob("*.py"))}
    modules = set(files)
    return {
        name: imports(name, ast.parse(path.read_text(), str(path)), modules, path.name == "__init__.py")
        for name, path in files.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            if component:
                found.append(sorted([v, *component]))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def long_functions(root: Path) -> Iterator[tuple[Path, str, int]]:
    """(file, qualified name, lines) of every function over :data:`MAX_LINES` lines under :data:`MEASURED`."""
    for folder in MEASURED:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            yield from _long_in(path, tree, "")


def _long_in(path: Path, node: ast.AST, prefix: str) -> Iterator[tuple[Path, str, int]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            if not isinstance(child, ast.ClassDef):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                if (lines := (child.end_lineno or child.lineno) - first + 1) > MAX_LINES:
                    yield path, name, lines
            yield from _long_in(path, child, f"{name}.")


def conftest_imports(root: Path) -> Iterator[Path]:
    """The test files that import from conftest.py."""
    for path in sorted((root / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if (isinstance(node, ast.ImportFrom) and node.module == "conftest") or "conftest" in names:
                yield path
                break


def findings(root: Path) -> list[str]:
    """One line per broken rule in the tree at ``root``, each naming the fix."""
    lines = [
        f"import circle: {' <-> '.join(c)}; move what both need into a module of its own, or pass it in"
        for c in circles(import_graph(root / "src"))
    ]
    lines += [
        f"{path.relative_to(root)}: {name} is {length} lines (at most {MAX_LINES}); split it"
        for path, name, length in long_functions(root)
    ]
    lines += [
        f"{path.relative_to(root)} imports from conftest.py; import the helper from its module (tests/*_helpers.py)"
        for path in conftest_imports(root)
    ]
    return lines


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[1]
    found = findings(root)
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
