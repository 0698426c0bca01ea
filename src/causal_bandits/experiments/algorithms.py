"""Which algorithms an experiment may name, and which strategies each supports.

One lookup, :func:`resolve`, reads the algorithm registry (today the nonmanip solvers,
:data:`causal_bandits.papers.nonmanip.runs.ALGORITHMS`, registry name -> class path; a user's own
algorithm is one more entry there). POMIS+ plays the POMIS arms with the z² version of a solver
(AAAI-19 §5), so it is supported only by an algorithm whose z² version (``z2<name>``) is registered.
"""

from __future__ import annotations

from causal_bandits.papers.nonmanip import POMIS_PLUS

#: Strategies computed from the diagram (Lee & Bareinboim, AAAI-19): all interventions, minimal
#: intervention sets, possibly-optimal MISs, and POMIS+ (the POMIS arms with a z² solver).
STRATEGIES = ("BF", "MIS", "POMIS", POMIS_PLUS)
#: Where an algorithm is registered (named in error messages).
REGISTRY = "causal_bandits.papers.nonmanip.runs.ALGORITHMS"


def registry() -> dict[str, str]:
    """Every registered algorithm: registry name -> dotted class path."""
    from causal_bandits.papers.nonmanip.runs import ALGORITHMS

    return dict(ALGORITHMS)


def resolve(key: str) -> str | None:
    """The dotted class path of registered algorithm ``key``, or None when it is not registered."""
    return registry().get(key)


def z2_version(key: str) -> str:
    """Registry name of the z² version of solver ``key`` (what POMIS+ plays)."""
    return f"z2{key}"


def solvers() -> list[str]:
    """The algorithms an experiment may name: registered ones that are not themselves a z² version."""
    names = registry()
    return [k for k in names if not any(k == z2_version(other) for other in names)]


def supports(key: str, strategy: str) -> bool:
    """Whether solver ``key`` can play ``strategy``: POMIS+ needs its z² version, every arm list works."""
    return resolve(z2_version(key)) is not None if strategy == POMIS_PLUS else True
