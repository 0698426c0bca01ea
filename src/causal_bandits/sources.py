"""Which library files a job's numbers depend on, found one way: by following each module's imports.

The workflow declares these files as inputs of the rules that run the code, so editing one
algorithm's module reruns exactly the jobs that execute it (and what depends on them). Imports are
read from the source with :mod:`ast` (every ``import`` of a ``causal_bandits`` module, at module
level or inside a function; not those under ``if TYPE_CHECKING:``), never by importing, so building
the workflow's DAG stays cheap and a lazily imported module still counts. A module also depends on
the ``__init__`` of every package that contains it, since importing it executes them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import cast

PACKAGE = "causal_bandits"
#: The directory that holds the ``causal_bandits`` package (``src/`` in the repository).
ROOT = Path(__file__).resolve().parents[1]


@cache
def module_path(name: str) -> Path | None:
    """The file of module ``name`` (a package's ``__init__.py``), or None if there is none. Cached, as
    the closures below are: the workflow asks for them once per planned job (thousands at paper scale)
    and the files do not change while it plans."""
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _packages(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


@cache
def imported_modules(name: str) -> tuple[str, ...]:
    """The ``causal_bandits`` modules that module ``name`` imports (and the packages they sit in)."""
    path = module_path(name)
    if path is None:
        raise ValueError(f"no module {name!r} under {ROOT}")
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set(_imports(path, package)) | set(_packages(name))
    found.discard(name)
    return tuple(sorted(m for m in found if module_path(m) is not None))


def _executed(tree: ast.AST):
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _imports(path: Path, package: str = "") -> set[str]:
    """``causal_bandits`` modules imported anywhere in the file ``path`` (``package``: for relative imports)."""
    found: set[str] = set()
    for node in _executed(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            # "from pkg import name": name is a submodule or an attribute of pkg.
            targets = [f"{base}.{alias.name}" if module_path(f"{base}.{alias.name}") else base for alias in node.names]
        else:
            continue
        for target in targets:
            if target == PACKAGE or target.startswith(PACKAGE + "."):
                found.update([target, *_packages(target)])
    return found


def module_files(*modules: str) -> list[str]:
    """Files (relative to :data:`ROOT`, e.g. ``causal_bandits/bandits/klucb.py``) that ``modules`` execute:
    the closure over their imports. A paper's run module names its algorithms' classes by path and
    imports none of them, so a run job's files are those of the run module plus its algorithm's."""
    return list(_closure(frozenset(modules)))


@cache
def _closure(modules: frozenset[str]) -> tuple[str, ...]:
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(imported_modules(name))
    # imported_modules raised for every name in seen that has no file
    return tuple(sorted(cast(Path, module_path(m)).relative_to(ROOT).as_posix() for m in seen))


def script_files(path: str | Path) -> list[str]:
    """The library files a workflow script executes: the closure of the modules it imports."""
    return list(_script_closure(Path(path).resolve()))


@cache
def _script_closure(path: Path) -> tuple[str, ...]:
    return _closure(frozenset(m for m in _imports(path) if module_path(m) is not None))
