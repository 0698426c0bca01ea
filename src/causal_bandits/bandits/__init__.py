"""Bandit algorithms, one module each, behind the engine's Policy interface.

``ALGORITHMS`` maps the names used in configs and paths to the policy classes;
:func:`source_files` lists the project files an algorithm's numbers depend on, which the workflow
declares as inputs of the rules that run it (editing ``klucb.py`` reruns only kl-UCB runs).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from causal_bandits.bandits.klucb import KLUCB
from causal_bandits.bandits.thompson import ThompsonSampling

ALGORITHMS = {"TS": ThompsonSampling, "KLUCB": KLUCB}


def source_files(name: str) -> list[str]:
    """The algorithm's module and every project module it uses, transitively.

    Paths are relative to the directory that holds the ``causal_bandits`` package (``src/`` in
    the repository), sorted.
    """
    seen: set[str] = set()
    todo = [ALGORITHMS[name].__module__]
    while todo:
        module = sys.modules[todo.pop()]
        if module.__name__ in seen:
            continue
        seen.add(module.__name__)
        for value in vars(module).values():
            owner = value.__name__ if inspect.ismodule(value) else getattr(value, "__module__", None)
            if isinstance(owner, str) and owner.startswith("causal_bandits.") and owner in sys.modules:
                todo.append(owner)
    root = Path(inspect.getfile(sys.modules["causal_bandits"])).parents[1]
    return sorted(Path(inspect.getfile(sys.modules[m])).relative_to(root).as_posix() for m in seen)
