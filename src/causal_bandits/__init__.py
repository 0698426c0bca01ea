"""Replication package for five causal-bandit papers (see README.md), and a library for one's own studies.

The library's public names (diagrams, SCMs, POMIS, arms of a strategy, environments, policies, the
engine) are attributes of this package, listed and documented in :mod:`causal_bandits.api`; each
loads its module on first use (PEP 562), so ``import causal_bandits`` stays cheap. A submodule
(``from causal_bandits import store``) is no public name: the import system loads it.
"""

from causal_bandits import api as _api

__version__ = "1.0.0"


def __getattr__(name: str):
    """A public name of :mod:`causal_bandits.api`, loaded on first use."""
    value = list(_api.NAMES) if name == "__all__" else _api.load(name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_api.NAMES])
