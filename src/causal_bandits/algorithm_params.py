"""The parameters a registry entry declares (:attr:`causal_bandits.algorithms.Algorithm.params`), and the check of
each value a config or the Python API gives one.

An entry declares each keyword argument of its class a config may set, by its default or by an explicit schema:

* a default (``{"alpha": 2.0}``): its type is the default's, ``bool``, ``int``, ``float`` or ``str``;
* a schema (``{"horizon": {"type": "integer", "minimum": 1}}``): ``type`` one of ``boolean``, ``integer``,
  ``number``, ``string``, optional ``minimum`` and ``maximum`` (numbers), ``default`` (the class's; None when
  absent). A default of None gives no type, so such a parameter needs a schema.

A value is checked against its declaration (:func:`checked`) before any job: booleans are not numbers, an integer
parameter takes integers only, a number parameter any finite number (negative ones too) as a float, a string one a
plain word, and the bounds hold. :data:`HORIZON` (``T``, the horizon of the run that plays the algorithm) is
accepted by integer and number parameters. A failure is one line naming the key, the value, the expected type and
the fix.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from causal_bandits.errors import ConfigError

#: A parameter value that stands for the horizon T of the run that plays the algorithm.
HORIZON = "T"
#: The schema's type names, the Python type each holds, and how a message names it.
TYPES: dict[str, tuple[type, str]] = {
    "boolean": (bool, "true or false"),
    "integer": (int, "an integer"),
    "number": (float, "a number"),
    "string": (str, "a plain word"),
}
#: A string value: a plain word, safe in a run path.
WORD = re.compile(r"^[A-Za-z0-9_.+]+$")
#: What a schema may hold.
SCHEMA_KEYS = {"type", "default", "minimum", "maximum"}


@dataclass(frozen=True)
class Param:
    """A declared parameter: its schema ``type`` (a key of :data:`TYPES`), the class's ``default`` and the bounds."""

    type: str
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None

    @property
    def expected(self) -> str:
        """What a valid value is, in words: "a number >= 0", "an integer >= 1 or T"."""
        words = TYPES[self.type][1]
        bounds = [f"{op} {v}" for op, v in ((">=", self.minimum), ("<=", self.maximum)) if v is not None]
        if bounds:
            words += " " + " and ".join(bounds)
        return words + (f" or {HORIZON} (the run's horizon)" if self.numeric else "")

    @property
    def numeric(self) -> bool:
        return self.type in ("integer", "number")

    @property
    def example(self) -> Any:
        """A valid value, for the fix a message gives."""
        if self.default is not None:
            return text(self.default)
        if self.numeric:
            return text(self.minimum if self.minimum is not None else (self.maximum if self.maximum is not None else 1))
        return {"boolean": "true", "string": "word"}[self.type]


def declared(key: str, name: str, value: Any) -> Param:
    """The :class:`Param` entry ``key`` declares for ``name`` (a default or a schema); a declaration that gives no
    type raises a one-line ConfigError naming the entry and the fix (a bug of the registry, found when it loads)."""
    if isinstance(value, Mapping):
        extra = sorted(set(value) - SCHEMA_KEYS)
        if value.get("type") not in TYPES or extra:
            raise ConfigError(
                f"algorithm {key!r} declares parameter {name!r} as {dict(value)!r}: a schema has a type "
                f"({', '.join(TYPES)}) and may have default, minimum, maximum; fix its entry's params"
            )
        return Param(value["type"], value.get("default"), value.get("minimum"), value.get("maximum"))
    kinds = {python: schema for schema, (python, _) in TYPES.items()}
    if type(value) not in kinds:
        raise ConfigError(
            f"algorithm {key!r} declares parameter {name!r} with default {value!r}, which gives no type; declare it "
            f'with a schema, e.g. params={{"{name}": {{"type": "integer", "minimum": 1}}}}'
        )
    return Param(kinds[type(value)], value)


def checked(param: Param, value: Any, *, key: str, name: str, where: str) -> Any:
    """``value`` as the class receives it (a float for a number parameter; :data:`HORIZON` as it is), or a one-line
    ConfigError naming config key ``where``, the value, the expected type and the fix."""
    if param.type == "number" and isinstance(value, str) and value != HORIZON:
        value = _number(value)  # YAML 1.1 reads 1e-3 (no dot) as text
    problem = _problem(param, value)
    if problem:
        given = text(value) if isinstance(value, bool) else repr(value)
        raise ConfigError(
            f"{where}.params.{name} = {given} is {problem}: algorithm {key!r} takes {param.expected} for {name}; "
            f"write e.g. {name}: {param.example}"
        )
    if param.type == "number" and value != HORIZON:
        return float(value)
    return value


def _number(text: str) -> float | str:
    """The number ``text`` writes, or ``text`` itself when it writes none."""
    try:
        return float(text)
    except ValueError:
        return text


def _problem(param: Param, value: Any) -> str:
    """Why ``value`` does not fit ``param`` ('' when it does)."""
    if param.numeric and value == HORIZON:
        return ""
    python = TYPES[param.type][0]
    if isinstance(value, bool) != (python is bool):
        return "true/false, not a number" if isinstance(value, bool) else "not " + TYPES[param.type][1]
    if python is bool:
        return ""
    if python is str:
        return "" if isinstance(value, str) and WORD.fullmatch(value) else "not a plain word"
    if not isinstance(value, int | float) or (python is int and not isinstance(value, int)):
        return "not " + TYPES[param.type][1]
    if not math.isfinite(value):
        return "not a finite number"
    if param.minimum is not None and value < param.minimum:
        return f"below its minimum {param.minimum}"
    if param.maximum is not None and value > param.maximum:
        return f"above its maximum {param.maximum}"
    return ""


def unknown(key: str, name: str, params: Mapping[str, Param], where: str, fix: str) -> ConfigError:
    """The error of a parameter ``name`` that entry ``key`` does not declare: the closest declared name, the
    declared ones, and ``fix``."""
    close = difflib.get_close_matches(name, list(params), n=1, cutoff=0.5)
    hint = f"did you mean {close[0]!r}? " if close else ""
    takes = f"it takes {', '.join(params)}" if params else "it declares none"
    return ConfigError(f"{where}: algorithm {key!r} has no parameter {name!r}; {hint}{takes}; {fix}")


def text(value: Any) -> str:
    """A value as ids and labels print it: true/false for booleans, Python's shortest form for numbers."""
    return str(value).lower() if isinstance(value, bool) else str(value)
