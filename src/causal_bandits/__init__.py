"""Replication package for five causal-bandit papers (see README.md), and a library for one's own studies.

The library's public names (diagrams, SCMs, POMIS, arms of a strategy, environments, policies, the
engine) are attributes of this package, listed and documented in :mod:`causal_bandits.api`; each
loads its module on first use, so ``import causal_bandits`` stays cheap. Every job of the workflow
imports this file: keep it unchanged (names are added in :mod:`causal_bandits.api`, which no job imports).
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    """A public name of :mod:`causal_bandits.api`, loaded on first use (PEP 562)."""
    if name.startswith("__") and name != "__all__":
        raise AttributeError(f"module 'causal_bandits' has no attribute {name!r}")
    from causal_bandits.api import NAMES, load  # a submodule import: never through this __getattr__

    value = list(NAMES) if name == "__all__" else load(name)
    globals()[name] = value
    return value


def __dir__():
    from causal_bandits.api import NAMES

    return sorted([*globals(), *NAMES])
