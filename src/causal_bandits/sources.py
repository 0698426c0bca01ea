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
import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, cast

from causal_bandits import store

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


#: Where what :func:`_facts` learns of a file is kept between processes, keyed by the file's bytes (every Snakemake
#: invocation plans with the digests of ~170 files: parsing them all again took ~5 s of a ~11 s dry run).
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "causal-bandits" / "sources"


@cache
def _version() -> str:
    """What a cached fact depends on beside the file: this module's code and the Python that parses."""
    return hashlib.sha256(Path(__file__).read_bytes() + sys.version.encode()).hexdigest()


@cache
def _facts(path: Path) -> dict[str, Any]:
    """A file's code digest (:func:`file_digest`) and its imports as written (:func:`_written_imports`), from the
    cache when a file with the same bytes was read under the same :func:`_version`, else parsed (and cached; a
    cache that cannot be written is skipped)."""
    data = path.read_bytes()
    key = hashlib.sha256(_version().encode() + data).hexdigest()
    entry = CACHE / key[:2] / f"{key}.json"
    try:
        return json.loads(entry.read_bytes())
    except (OSError, ValueError):
        pass
    tree = ast.parse(data, str(path))
    facts = {
        "digest": hashlib.sha256(_canonical(tree).encode()).hexdigest()[:DIGITS],
        "imports": _written_imports(tree),
    }
    with contextlib.suppress(OSError):
        store.write_json(entry, facts)  # atomic: a concurrent reader sees the whole entry or none
    return facts


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


def _written_imports(tree: ast.AST) -> list[tuple[str, int, list[str]]]:
    """Every import statement that runs (:func:`_executed`) as written: (module, level, names); a plain ``import``
    has level -1 and its modules as names."""
    found: list[tuple[str, int, list[str]]] = []
    for node in _executed(tree):
        if isinstance(node, ast.Import):
            found.append(("", -1, [alias.name for alias in node.names]))
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level, [alias.name for alias in node.names]))
    return found


def _imports(path: Path, package: str = "") -> set[str]:
    """``causal_bandits`` modules imported anywhere in the file ``path`` (``package``: for relative imports)."""
    found: set[str] = set()
    for base, level, names in _facts(path)["imports"]:
        if level < 0:
            targets = names
        else:
            if level:  # relative import
                base = ".".join(package.split(".")[: len(package.split(".")) - level + 1] + ([base] if base else []))
            # "from pkg import name": name is a submodule or an attribute of pkg.
            targets = [f"{base}.{name}" if module_path(f"{base}.{name}") else base for name in names]
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


def file_digest(path: Path) -> str:
    """Short hash of the code of the Python file ``path``: its syntax tree without docstrings, so a comment, a
    docstring or the layout does not change it."""
    return str(_facts(path)["digest"])


def code(*modules: str, script: str | Path | None = None) -> dict[str, str]:
    """A job's code as its rule's ``code`` parameter: each library file it executes (the closure of ``modules``
    and of what the workflow ``script`` imports) -> :func:`file_digest`."""
    return dict(_code(frozenset(modules) | frozenset(script_modules(script) if script else ())))


@cache
def _code(modules: frozenset[str]) -> tuple[tuple[str, str], ...]:
    return tuple((path, file_digest(ROOT / path)) for path in _closure(modules))
