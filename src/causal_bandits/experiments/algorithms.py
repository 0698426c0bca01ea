"""Which algorithms an experiment may name, and which strategies each supports.

An experiment's arms are interventions on a causal diagram, so it plays the solvers of Lee &
Bareinboim's paper: the nonmanip registry (:mod:`causal_bandits.papers.nonmanip.algorithms`, read
through :mod:`causal_bandits.algorithms`); a user's own algorithm is one more entry there. POMIS+
plays the POMIS arms with the z² version of a solver (AAAI-19 §5), so only a solver that declares
one supports it.
"""

from __future__ import annotations

from causal_bandits import algorithms
from causal_bandits.papers.nonmanip import POMIS_PLUS

#: The registry experiments read.
PAPER = "nonmanip"
#: Strategies computed from the diagram (Lee & Bareinboim, AAAI-19): all interventions, minimal
#: intervention sets, possibly-optimal MISs, and POMIS+ (the POMIS arms with a z² solver).
STRATEGIES = ("BF", "MIS", "POMIS", POMIS_PLUS)
#: Where an algorithm is registered (named in error messages).
REGISTRY = algorithms.registry_module(PAPER).replace(".", "/") + ".py"


def solvers() -> list[str]:
    """The algorithms an experiment may name: registered solvers (not the z² versions)."""
    return algorithms.solvers(PAPER)


def policy_path(key: str, strategy: str) -> str:
    """The dotted class path that plays ``key`` under ``strategy`` (its z² version under POMIS+)."""
    return algorithms.played(PAPER, key, z2=strategy == POMIS_PLUS).path


def supports(key: str, strategy: str) -> bool:
    """Whether solver ``key`` can play ``strategy``: POMIS+ needs a z² version, other arm sets the entry's own
    ``strategies`` (every explicit arm list is allowed)."""
    entry = algorithms.registry(PAPER)[key]
    if strategy == POMIS_PLUS:
        return entry.z2 is not None
    return strategy not in STRATEGIES or entry.supports(strategy)
