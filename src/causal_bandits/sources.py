"""The workflow's rerun tracking: which library files a job executes, and a digest of their code.

Every rule passes its job's code to Snakemake as a parameter, ``params: code=...``: a mapping from each library
file the job executes to a short hash of that file's code (:func:`code`). Snakemake records a job's parameters
with its outputs and, by its default ``params`` rerun trigger, runs a job again when they changed. So editing one
algorithm's module reruns exactly the runs that play it and what depends on them; editing a paper's module, the
jobs of that paper that execute it; editing the engine, every run.

Which files: those of the modules a job's workflow script imports, closed over their imports, and of the
modules it loads by name, which no import shows: the rule names them (``workflow/rules/common.smk``: a run job's
run module and the module of the policy class its registry entry names, :func:`causal_bandits.runs.policy_class`;
the same class for a script that builds a policy). Imports are read from the source with :mod:`ast`, never by
importing, at module level or inside a function (not those under ``if TYPE_CHECKING:``, which never run); a
module also depends on the ``__init__`` of every package that contains it, since importing it executes them.

What is hashed: a file's syntax tree without its docstrings (string literals standing alone as statements, which
do nothing when run). Comments and layout never reach the tree, so editing a comment, a docstring or the
formatting reruns nothing; any other edit reruns every job that executes the file. Workflow scripts are
Snakemake's own to track: a job is rerun when its script is newer than its outputs.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import cast

PACKAGE = "causal_bandits"
#: The directory that holds the ``causal_bandits`` package (``src/`` in the repository).
ROOT = Path(__file__).resolve().parents[1]
#: Hex digits kept of a file's sha256: enough that an edit leaving the same prefix is never seen in practice.
DIGITS = 10


@cache
def module_path(name: str) -> Path | None:
    """The file of module ``name`` (a package's ``__init__.py``), or None if there is none. Cached, as
    everything below is: the files do not change while the workflow plans."""
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


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


def _executed(tree: ast.AST) -> Iterator[ast.AST]:
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
    for node in _executed(_tree(path)):
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


def script_modules(path: str | Path) -> tuple[str, ...]:
    """The ``causal_bandits`` modules a workflow script imports (the script itself is no library file)."""
    return _script_modules(Path(path).resolve())


@cache
def _script_modules(path: Path) -> tuple[str, ...]:
    return tuple(sorted(m for m in _imports(path) if module_path(m) is not None))


def module_files(*modules: str) -> list[str]:
    """Files (relative to :data:`ROOT`, e.g. ``causal_bandits/bandits/klucb.py``) that ``modules`` execute:
    the closure over their imports."""
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


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _canonical(node: object) -> str:
    """A node as text, every field but those left empty (``None``, ``[]``) and no line numbers, so that the text is
    the same under every Python version that parses the file to the same tree; docstrings left out."""
    if isinstance(node, list):
        return "[" + ",".join(_canonical(item) for item in node if not _is_docstring(item)) + "]"
    if isinstance(node, ast.AST):
        fields = (f"{name}={_canonical(value)}" for name, value in ast.iter_fields(node) if value not in (None, []))
        return f"{type(node).__name__}({','.join(fields)})"
    return repr(node)


@cache
def file_digest(path: Path) -> str:
    """Short hash of the code of the Python file ``path``: its syntax tree without docstrings, so a comment, a
    docstring or the layout does not change it."""
    return hashlib.sha256(_canonical(_tree(path)).encode()).hexdigest()[:DIGITS]


def code(*modules: str, script: str | Path | None = None) -> dict[str, str]:
    """A job's code as its rule's ``code`` parameter: each library file it executes (the closure of ``modules``
    and of what the workflow ``script`` imports) -> :func:`file_digest`."""
    return dict(_code(frozenset(modules) | frozenset(script_modules(script) if script else ())))


@cache
def _code(modules: frozenset[str]) -> tuple[tuple[str, str], ...]:
    return tuple((path, file_digest(ROOT / path)) for path in _closure(modules))
