"""Argument checks shared by the library's public constructors and the config path.

A model is checked where it is built: :class:`~causal_bandits.scm.confounded_cpt.ConfoundedCPT`,
:class:`~causal_bandits.bandits.environments.BernoulliArms`, :func:`~causal_bandits.bandits.engine.linear_grid`
and the other names of :mod:`causal_bandits.api` call these functions on their arguments, and the workflow's
config reaches the same constructors, so a probability of 2 gets the same line from Python and from a config
file. Each check raises :class:`~causal_bandits.errors.ArgumentError` (a ``ValueError``) or
:class:`~causal_bandits.errors.ArgumentTypeError` (a ``TypeError``), one line that names the argument (``name``:
a parameter such as ``BernoulliArms(means)`` or a config key such as ``nonmanip.panels.mine.scm.p_u``) and the fix.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from causal_bandits.errors import ArgumentError, ArgumentTypeError

if TYPE_CHECKING:
    import numpy as np

#: How far a distribution's sum may be from 1 (rounding of probabilities written with a few decimals).
SUM_TOLERANCE = 1e-6


def _shown(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def probabilities(values: Any, name: str, *, shape: tuple[int, ...] | None = None, empty: bool = False) -> np.ndarray:
    """``values`` as a float array of probabilities (each finite and in [0, 1]), of ``shape`` when given; an
    empty array only with ``empty``."""
    import numpy as np  # late: the ``pomis`` command checks its limit without loading numpy

    if isinstance(values, (str, bytes, dict)) or values is None:
        raise ArgumentTypeError(f"{name} = {_shown(values)} is not a list of probabilities; give numbers in [0, 1]")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentTypeError(
            f"{name} = {_shown(values)} is not a list of numbers; give probabilities in [0, 1]"
        ) from None
    if shape is not None and array.shape != shape:
        raise ArgumentError(f"{name} has shape {array.shape}; give {shape} probabilities in [0, 1]")
    if array.size == 0 and not empty:
        raise ArgumentError(f"{name} is empty; give at least one probability in [0, 1]")
    bad = ~((array >= 0.0) & (array <= 1.0))  # NaN included
    if bad.any():
        raise ArgumentError(f"{name} holds {float(array[bad].flat[0])!r}, not a probability; use values in [0, 1]")
    return array


def distribution(values: Any, name: str) -> np.ndarray:
    """``values`` as a probability distribution: :func:`probabilities` (1-D) summing to 1 within
    :data:`SUM_TOLERANCE`."""
    array = probabilities(values, name)
    if array.ndim != 1:
        raise ArgumentError(f"{name} has shape {array.shape}; give one probability per outcome (a flat list)")
    total = float(array.sum())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise ArgumentError(f"{name} sums to {total:.6g}, not 1; give probabilities that add up to 1")
    return array


def count(value: Any, name: str, minimum: int = 1) -> int:
    """``value`` as an int >= ``minimum`` (a bool, a float or text is refused, not truncated)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError(f"{name} = {_shown(value)} is not a whole number; give an integer >= {minimum}")
    if value < minimum:
        raise ArgumentError(f"{name} = {value} is too small; give an integer >= {minimum}")
    return int(value)


def text(value: Any, name: str) -> str:
    """``value`` as a non-empty string (a name, a key)."""
    if not isinstance(value, str) or not value:
        raise ArgumentTypeError(f"{name} = {_shown(value)} is not a name; give a non-empty string")
    return value


def node(value: Any, nodes: Sequence[str], name: str) -> str:
    """``value``, one of ``nodes`` (a diagram's)."""
    if not isinstance(value, str) or value not in nodes:
        shown = list(nodes) if len(nodes) <= 20 else [*nodes[:20], "..."]
        raise ArgumentError(f"{name} = {_shown(value)} is not a node of the diagram; use one of {shown}")
    return value


def listed(value: Any, name: str, what: str) -> list:
    """``value`` as a list: a list, tuple or other sequence of ``what`` (a single object, a string or a mapping is
    refused: "put it in a list")."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable) or hasattr(value, "keys"):
        raise ArgumentTypeError(f"{name} = {_shown(value)} is not a list of {what}; put it in a list: [{what[:-1]}]")
    return list(value)


def kind(value: Any, expected: type | tuple[type, ...], name: str, fix: str) -> Any:
    """``value`` if it is an instance of ``expected``, else a one-line type error with ``fix``."""
    if not isinstance(value, expected):
        raise ArgumentTypeError(f"{name} is a {type(value).__name__} ({_shown(value, 40)}); {fix}")
    return value


def known(keys: Iterable[str], allowed: Iterable[str], name: str) -> None:
    """Every one of ``keys`` is in ``allowed`` (keyword settings, with the closest allowed name as the fix)."""
    import difflib

    allowed = sorted(allowed)
    for key in keys:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ArgumentError(f"{name} has no setting {key!r}; {hint}the settings are: {', '.join(allowed)}")
