"""Replication package for five causal-bandit papers (see README.md), and a library for one's own studies.

The library's public names (diagrams, SCMs, POMIS, arms of a strategy, environments, policies, the
engine) are attributes of this package, listed and documented in :mod:`causal_bandits.api`; each
loads its module on first use, so ``import causal_bandits`` stays cheap. Every job of the workflow
imports this file: keep it unchanged (names are added in :mod:`causal_bandits.api`, which no job imports).
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    """A public name of :mod:`causal_bandits.api`, loaded on first use (PEP 562)."""
    if (name.startswith("__") and name != "__all__") or _is_submodule(name):
        # a submodule not yet imported (``from causal_bandits import store``): the import system loads it
        raise AttributeError(f"module 'causal_bandits' has no attribute {name!r}")
    value = list(_api().NAMES) if name == "__all__" else _api().load(name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_api().NAMES])


def _is_submodule(name: str) -> bool:
    from os import path  # loaded at interpreter start-up

    base = path.join(__path__[0], name)
    return path.isfile(f"{base}.py") or path.isfile(path.join(base, "__init__.py"))


def _api():
    # Imported by a call, not an import statement: the workflow's dependency scan
    # (causal_bandits.sources) does not count causal_bandits.api as a file every job executes, and
    # no job does (jobs import the library's modules, never names through this package).
    return __import__("causal_bandits.api", fromlist=["load"])
