"""One registry entry per algorithm, for every paper: what the config, the workflow, the tables, the
figures and the claims know of an algorithm.

Each paper lists its entries in one place, ``causal_bandits/papers/<paper>/algorithms.py`` (a tuple
``ALGORITHMS`` of :class:`Algorithm`, in the order tables and legends show them). Everything else
reads that list: the config check (:func:`check`: a config may name only registered algorithms, with
strategies they support), the workflow's wildcard constraints (:func:`pattern`), the run rules (the
policy class at :attr:`Algorithm.path`, imported on demand by :func:`causal_bandits.runs.policy_class`),
the labels and line styles of tables and figures (:attr:`Algorithm.display`, :attr:`Algorithm.style`),
and the claims, which iterate the paper's own algorithms only (:func:`own`). An algorithm a
researcher adds to a paper is registered with ``addition=True``: it runs beside the paper's and
shows in its tables and figures marked "addition, not in the paper", never in its claims.

An algorithm whose class takes constructor arguments declares them in its entry (:attr:`Algorithm.params`, each
with its default). A config names it with values for them (``{key: moss, params: {horizon: T}}``, parsed by
:func:`variant`); the value ``T`` (:data:`HORIZON`) stands for the horizon of the run that plays it. Each set of
values is an algorithm of its own in the run store and in tables (:class:`Variant`: its own id, e.g.
``moss-horizon-T``, and its own label, e.g. "MOSS (T-aware)").

Keys are ids in one style, lower snake_case (``ccpe_general``, ``cn_ucb``: valid identifiers, safe in
paths and wildcard patterns; an entry with a key in another style raises a ConfigError); readers see
labels only (``CCPE-General``, ``CN-UCB``). A table prints a frame's keys as labels with :func:`shown`
(a step that reads such a table back maps them to keys with :func:`keyed`); a paper that lists its
algorithms in the order of their labels sorts with :func:`by_label` and :func:`label_order`.

This module and the registries stay light (no numpy): the workflow reads them when it parses.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from causal_bandits import algorithm_params
from causal_bandits.algorithm_params import HORIZON, Param
from causal_bandits.errors import ConfigError

#: How tables and figures mark an algorithm that is not the paper's.
ADDITION = "addition, not in the paper"

#: The one style of registry keys: lower snake_case, starting with a letter.
KEY_STYLE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Algorithm:
    """A registry entry.

    ``key``: the name in configs and run paths (lower snake_case, else a ConfigError); ``path``: the
    dotted path of its policy class (imported only by the jobs that run it); ``label``: its name in
    tables and legends; ``style``: how figures draw it (matplotlib keywords, e.g. ``{"linestyle":
    "--"}``; a figure gives an entry without one a style of its own); ``strategies``: the strategies
    (arm sets) it may play, None for all; ``params``: the keyword arguments of its class a config may set, each
    by the class's default or an explicit schema (:mod:`causal_bandits.algorithm_params`; :class:`Variant`);
    ``z2``: the key of its z² version (Lee & Bareinboim, AAAI-19,
    Alg. 3), which plays it under POMIS+, or None (then POMIS+ does not run it); ``citation``: where it
    comes from; ``addition``: True when it is not the paper's (added by a researcher).
    """

    key: str
    path: str
    label: str
    style: Mapping[str, Any] = field(default_factory=dict, hash=False)
    strategies: tuple[str, ...] | None = None
    z2: str | None = None
    citation: str = ""
    addition: bool = False
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name, key in (("key", self.key), ("z2", self.z2)):
            if key is not None and not KEY_STYLE.fullmatch(key):
                raise ConfigError(
                    f"algorithm {name} {key!r} is not lower snake_case ({KEY_STYLE.pattern}); rename it in its "
                    f"registry, e.g. {key.lower().replace('-', '_')!r}"
                )
        for name, value in self.params.items():
            algorithm_params.declared(self.key, name, value)

    @property
    def declared(self) -> dict[str, Param]:
        """Its parameters by name, each with its type, default and bounds (:func:`algorithm_params.declared`)."""
        return {name: algorithm_params.declared(self.key, name, v) for name, v in self.params.items()}

    @property
    def display(self) -> str:
        """The label tables and legends print: marked as an addition when it is not the paper's."""
        return f"{self.label} ({ADDITION})" if self.addition else self.label

    def supports(self, strategy: str) -> bool:
        """Whether it may play ``strategy`` (by its own ``strategies``; POMIS+ is the paper's to decide)."""
        return self.strategies is None or strategy in self.strategies


def registry_module(paper: str) -> str:
    """The module that holds a paper's registry."""
    return f"causal_bandits.papers.{paper}.algorithms"


class UnknownAlgorithm(KeyError):
    """A name that is neither a key nor a label of a paper's registry; the message suggests the closest key."""

    def __str__(self) -> str:
        return str(self.args[0])


class Registry(dict[str, Algorithm]):
    """A paper's entries by key. Looking up a name that is not a key finds the entry whose label it is (what
    tables and legends print: ``"TS"``, case aside), or raises :class:`UnknownAlgorithm` naming the closest
    keys."""

    paper = ""

    def __missing__(self, name: str) -> Algorithm:
        by_label = {e.label.casefold(): e for e in self.values()}
        if isinstance(name, str) and name.casefold() in by_label:
            return by_label[name.casefold()]
        close = difflib.get_close_matches(str(name).casefold(), [*self, *by_label], n=1, cutoff=0.5)
        hint = ""
        if close:
            key = close[0] if close[0] in self else by_label[close[0]].key
            hint = f"did you mean {key!r}? "
        raise UnknownAlgorithm(
            f"{self.paper} registers no algorithm {name!r}; {hint}its keys: {', '.join(self)} "
            f"(or their labels: {', '.join(e.label for e in self.values())})"
        )


@cache
def registry(paper: str) -> Registry:
    """A paper's entries by key, in its order (a label finds its entry too: :class:`Registry`); a z² key that
    names no entry is a bug of the registry."""
    entries = importlib.import_module(registry_module(paper)).ALGORITHMS
    where = f"{registry_module(paper)}.ALGORITHMS"
    out = Registry()
    out.paper = paper
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, Algorithm):
            raise ConfigError(f"{where}, entry {n} ({entry!r:.60}) is not an Algorithm(...); write one per algorithm")
        if entry.key in out:
            raise ConfigError(f"{where}, entry {n} registers {entry.key!r} twice; remove one or rename it")
        out[entry.key] = entry
    for entry in out.values():
        if entry.z2 is not None and entry.z2 not in out:
            raise ConfigError(
                f"{where}: {entry.key!r} names z² version {entry.z2!r}, which is not registered; register it or "
                "remove z2"
            )
    return out


def played(paper: str, key: str, *, z2: bool = False) -> Algorithm:
    """The entry that runs when ``key`` plays: its z² version under POMIS+ (``z2``), itself otherwise."""
    entry = registry(paper)[key]
    if not z2:
        return entry
    if entry.z2 is None:
        raise ValueError(f"{paper}: {key!r} has no z² version, so it does not play POMIS+")
    return registry(paper)[entry.z2]


def solvers(paper: str) -> list[str]:
    """Keys a config may name: every entry except the z² versions (POMIS+ runs those for their solver)."""
    entries = registry(paper)
    variants = {e.z2 for e in entries.values() if e.z2}
    return [k for k in entries if k not in variants]


def own(paper: str) -> list[str]:
    """The paper's own solvers (not additions), in registry order: what its claims iterate."""
    return [k for k in solvers(paper) if not registry(paper)[k].addition]


def labels(paper: str) -> dict[str, str]:
    """Display label of every entry (additions marked)."""
    return {k: e.display for k, e in registry(paper).items()}


def by_label(paper: str, keys: Iterable[str]) -> list[str]:
    """``keys`` (registered keys of ``paper``) ordered by their display labels."""
    shown = labels(paper)
    return sorted(keys, key=shown.__getitem__)


def label_order(paper: str, column: str = "algorithm") -> Callable[[Any], Any]:
    """A ``key`` for pandas' ``sort_values`` that orders column ``column`` (registered keys of ``paper``)
    by display label and leaves every other column as it is: for tables and legends that list a paper's
    algorithms in the order of their labels rather than of their keys."""
    shown = labels(paper)
    return lambda values: values.map(shown.__getitem__) if values.name == column else values


def shown(paper: str, frame: Any, column: str = "algorithm") -> Any:
    """A copy of ``frame`` (a pandas DataFrame) whose column ``column`` of registered keys of ``paper``
    holds their display labels instead, as tables print them (unchanged when it has no such column)."""
    if column not in frame.columns:
        return frame
    return frame.assign(**{column: frame[column].map(labels(paper).__getitem__)})


def keyed(paper: str, frame: Any, column: str = "algorithm") -> Any:
    """The inverse of :func:`shown`: a copy of ``frame`` whose column ``column`` of display labels of
    ``paper``'s entries holds their keys again (for a step that reads a printed table back)."""
    if column not in frame.columns:
        return frame
    keys = {v: k for k, v in labels(paper).items()}
    return frame.assign(**{column: frame[column].map(keys.__getitem__)})


def pattern(keys: Iterable[str]) -> str:
    """A wildcard constraint matching exactly ``keys``."""
    return "|".join(re.escape(k) for k in keys)


def check(paper: str, keys: Iterable[str], strategies: Iterable[str] = (), *, where: str) -> None:
    """Raise a one-line ConfigError if config key ``where`` names an algorithm that is not a registered
    solver of ``paper``, or one that does not support one of ``strategies``."""
    valid = solvers(paper)
    strategies = list(strategies)
    for key in keys:
        if key not in valid:
            close = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.5)
            raise ConfigError(
                f"{where} names algorithm {key!r}, which is not registered for {paper}; "
                + (f"did you mean {close[0]!r}? " if close else "")
                + "use one of "
                f"{', '.join(valid)}, or register it in causal_bandits/papers/{paper}/algorithms.py"
            )
        entry = registry(paper)[key]
        unsupported = [s for s in strategies if not entry.supports(s)]
        if unsupported:
            assert entry.strategies is not None  # supports() is True for every strategy when None
            raise ConfigError(
                f"{where} names algorithm {key!r}, which does not play strategy {unsupported[0]!r} "
                f"(it plays {', '.join(entry.strategies)}); drop one of them from the config or "
                f"widen its strategies in causal_bandits/papers/{paper}/algorithms.py"
            )


@dataclass(frozen=True)
class Variant:
    """An algorithm as a config names it: a registry ``key`` with values for some of its entry's
    :attr:`~Algorithm.params` (:data:`HORIZON` for the run's horizon) and, optionally, a ``label`` of its own.

    Without values it is the entry itself (id and label the entry's). With values it is an algorithm of its
    own: its :attr:`id` (run paths, wildcards) is the key followed by each ``-name-value`` in name order
    (``moss-horizon-T``; keys hold no ``-``, so :func:`key_of` finds the key again), its label the given one or
    the entry's with the values ("MOSS (horizon=T)").
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    label: str | None = None

    @property
    def id(self) -> str:
        return "-".join([self.key, *(f"{k}-{algorithm_params.text(v)}" for k, v in sorted(self.params.items()))])

    def display(self, paper: str) -> str:
        """Its name in tables and legends, one format: its own label or the entry's, then its values and the
        addition mark in brackets ("MOSS (horizon=T, addition, not in the paper)"); the entry's display without
        values."""
        entry = registry(paper)[self.key]
        name = self.label or entry.label
        marks = [
            *(f"{k}={algorithm_params.text(v)}" for k, v in sorted(self.params.items())),
            *([ADDITION] if entry.addition else []),
        ]
        return f"{name} ({', '.join(marks)})" if marks else name

    def arguments(self, horizon: int) -> dict[str, Any]:
        """The keyword arguments its class is built with in a run of ``horizon`` rounds (:data:`HORIZON` replaced)."""
        return {k: horizon if v == HORIZON else v for k, v in sorted(self.params.items())}


def key_of(algorithm_id: str) -> str:
    """The registry key of a :attr:`Variant.id` (the id itself for an algorithm named without values)."""
    return algorithm_id.split("-", 1)[0]


def variant(paper: str, item: str | Mapping[str, Any], *, where: str) -> Variant:
    """The :class:`Variant` a config item names: a key, or ``{key, params, label}``, each value checked against its
    declaration (:func:`causal_bandits.algorithm_params.checked`: a float for a number parameter); raises a one-line
    ConfigError for a key ``paper`` does not register (with the closest key), a parameter its entry does not declare
    (with the closest name) or a value of the wrong type or out of bounds."""
    if isinstance(item, str):
        item = {"key": item}
    key, params = item["key"], dict(item.get("params") or {})
    valid = solvers(paper)
    if key not in valid:
        close = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ConfigError(
            f"{where} names {key!r}, which is not a registered algorithm of {paper}; {hint}use one of "
            f"{', '.join(valid)}, or register yours in causal_bandits/papers/{paper}/algorithms.py"
        )
    declared = registry(paper)[key].declared
    fix = f"declare it in its entry's params in causal_bandits/papers/{paper}/algorithms.py"
    values = {}
    for name, value in params.items():
        if name not in declared:
            raise algorithm_params.unknown(key, name, declared, where, fix)
        values[name] = algorithm_params.checked(declared[name], value, key=key, name=name, where=where)
    return Variant(key, values, item.get("label"))
