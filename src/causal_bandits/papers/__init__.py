"""One package per paper (``papers/<key>/``): its config schema, experiments, runs, tables, figures
and claims. A paper is registered by one line of ``registry.yaml`` beside this module and nowhere else (see
CONTRIBUTING.md); code outside a paper's package reaches it only through :func:`paper`, which returns it as a
:class:`Paper`.

This module stays light: the workflow imports it when it parses, so a paper's modules are imported
only when one of its members is called.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, cast

import yaml

from causal_bandits import yaml_io
from causal_bandits.errors import CausalBanditsError, ConfigError

if TYPE_CHECKING:
    from causal_bandits.artefacts import Artefact
    from causal_bandits.runs import RunJob


class RegistryError(ConfigError):
    """A registry of papers or studies (``registry.yaml``) that cannot be read as one."""


#: What a registry entry is: a key in lower snake_case (a package name, a config key, a path segment).
KEY = re.compile(r"[a-z][a-z0-9_]*")


def registered(package: str) -> tuple[str, ...]:
    """The keys listed in ``registry.yaml`` of ``package`` (``causal_bandits.papers``, ``causal_bandits.studies``), in
    order: data, which no job's code digest reads (:mod:`causal_bandits.sources`). A file that is not a YAML list,
    or an entry that is not a key, is listed twice or names no module beside the file, raises a one-line
    :class:`RegistryError` naming the file, the entry and the fix."""
    path = files(package) / "registry.yaml"
    fix = "one '- <key>' line per entry, each key a module beside the file (causal-bandits new-paper / new-study)"
    try:
        keys = yaml_io.load(path.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise RegistryError(f"{where} cannot be read ({problem}); write {fix}") from None
    if not isinstance(keys, list):
        held = "nothing" if keys is None else f"a {type(keys).__name__}"
        raise RegistryError(f"{path} holds {held}, not a list of keys; write {fix}")
    for n, key in enumerate(keys, 1):
        if not isinstance(key, str) or not KEY.fullmatch(key):
            problem = "is not a key in lower snake_case"
        elif key in keys[: n - 1]:
            problem = "is listed twice"
        elif not any((files(package) / name).is_file() for name in (f"{key}/__init__.py", f"{key}.py")):
            problem = f"names no module {package}.{key}"
        else:
            continue
        raise RegistryError(f"{path}, entry {n} ({key!r}) {problem}; write {fix}")
    return tuple(keys)


#: The registered papers, in pipeline and report order (``registry.yaml``).
PAPERS = registered(__name__)


@dataclass(frozen=True)
class Paper:
    """A registered paper as its package ``causal_bandits.papers.<key>`` lays it out: what the workflow, the
    report and the config checks need of it.

    ``key``: its config section and path segment; ``title``: its report heading (``TITLE`` in the package);
    ``runs`` and ``claims``: the modules its run jobs and its claims job import (``describe`` and
    ``simulation``, ``claims``). Its other modules (``config``: the config checks and the cost model of its
    runs; ``artefacts``) are imported when a method needs them; its algorithms are read through
    :func:`causal_bandits.algorithms.registry`.
    """

    key: str
    title: str

    @property
    def runs(self) -> str:
        return f"causal_bandits.papers.{self.key}.runs"

    @property
    def claims(self) -> str:
        return f"causal_bandits.papers.{self.key}.claims"

    def _module(self, name: str) -> Any:
        return importlib.import_module(f"causal_bandits.papers.{self.key}.{name}")

    def check_config(self, section: Mapping[str, Any]) -> None:
        """The checks the schema cannot make on the paper's config section; raises a one-line error."""
        self._module("config").check_config(section)

    def cpu_seconds(self, job: RunJob) -> float:
        """The cost check's model of a run job on this paper's runner (the paper's, or a study's or an own
        experiment's that reruns it), CPU seconds beyond its start-up (``config.cpu_seconds``, calibrated on the
        archived paper-scale run)."""
        return float(self._module("config").cpu_seconds(job))

    def skipped(self, section: Mapping[str, Any]) -> list[str]:
        """One line per (strategy, algorithm) pair the paper's config section names and does not run, with the
        reason (``config.skipped``, where the paper has such pairs)."""
        found = getattr(self._module("config"), "skipped", None)
        return [] if found is None else list(found(section))

    @property
    def other_share(self) -> float:
        """The CPU of the paper's jobs other than its runs, as a share of its runs' (``config.OTHER_SHARE``)."""
        return float(self._module("config").OTHER_SHARE)

    def schema(self) -> dict[str, Any]:
        """The schema of the paper's config section: ``config.schema.yaml`` in its package, completed by its config
        module's ``extend_schema(node)`` where it declares one (settings declared in code with their defaults)."""
        node = yaml_io.load((files(__name__) / self.key / "config.schema.yaml").read_text())
        extend = getattr(self._module("config"), "extend_schema", None)
        if extend is not None:
            extend(node)
        return cast(dict[str, Any], node)

    @property
    def moved(self) -> dict[str, str]:
        """Config keys of the paper's section that moved or were renamed, by their old dotted path below the section,
        to their dotted path now from the config's top (``config.MOVED``, where the paper has any)."""
        return dict(getattr(self._module("config"), "MOVED", {}))

    def raw_entries(self, section: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """The config entries of the raw data files the paper's section pins (``config.raw_entries``, where the paper
        reads raw data; :class:`causal_bandits.data.raw.RawFile` each)."""
        found = getattr(self._module("config"), "raw_entries", None)
        return [] if found is None else list(found(section))

    def stands_in(self, section: Mapping[str, Any]) -> bool:
        """Whether the paper's section replaces its missing raw files by stand-ins rather than downloading them
        (``config.stands_in``)."""
        found = getattr(self._module("config"), "stands_in", None)
        return bool(found is not None and found(section))

    @property
    def numbers(self) -> str:
        """The anchor of the paper's section of ``docs/papers/<key>.md`` comparing the paper's numbers with ours
        (``artefacts.NUMBERS``, else ``<key>-numbers``)."""
        return str(getattr(self._module("artefacts"), "NUMBERS", f"{self.key}-numbers"))

    def artefacts(self, section: Mapping[str, Any]) -> list[Artefact]:
        """The tables and figures the paper's config section produces (``artefacts.artefacts``), keys unique."""
        found = self._module("artefacts").artefacts(section)
        keys = [a.key for a in found]
        if len(set(keys)) != len(keys):
            raise CausalBanditsError(
                f"paper {self.key!r} lists an artefact key twice ({sorted(keys)}); keys must be unique"
            )
        return found


@cache
def paper(key: str) -> Paper:
    """The registered paper ``key`` (its package imported, its submodules not yet)."""
    if key not in PAPERS:
        raise KeyError(f"no paper {key!r} is registered; registered papers: {', '.join(PAPERS)}")
    package = importlib.import_module(f"causal_bandits.papers.{key}")
    if getattr(package, "PAPER", key) != key:
        raise TypeError(f"causal_bandits.papers.{key} declares PAPER = {package.PAPER!r}, not {key!r}")
    return Paper(key, package.TITLE)
