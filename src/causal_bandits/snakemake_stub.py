"""Run a workflow script outside Snakemake, for debugging: a stand-in for the ``snakemake`` object
that Snakemake hands a rule's ``script:``, built from a JSON file.

    python -m causal_bandits.snakemake_stub workflow/scripts/<script>.py job.json

``job.json`` holds what the rule would pass: ``input``, ``output``, ``params``, ``wildcards`` (objects
of named entries, or lists), ``log`` (a list of paths), and optionally ``config``, ``threads`` and
``resources``. The script runs as the rule runs it (``snakemake.params.x``, ``snakemake.output[0]``,
``snakemake.input.keys()``), in the current directory, with ``PYTHONPATH`` as for the workflow.
"""

from __future__ import annotations

import json
import runpy
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any


class Entries(Sequence[Any]):
    """Snakemake's named list: the entries in order, by index or by name (``x[0]``, ``x.trace``)."""

    def __init__(self, entries: Mapping[str, Any] | Sequence[Any] | None = None):
        named = dict(entries) if isinstance(entries, Mapping) else {}
        self._names = named
        self._values = list(named.values()) if isinstance(entries, Mapping) else list(entries or [])

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_names"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, index):
        return self._values[index]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def keys(self):
        return self._names.keys()

    def items(self):
        return self._names.items()

    def get(self, name: str, default: Any = None) -> Any:
        return self._names.get(name, default)


class Job:
    """The ``snakemake`` object of one job, from the fields a rule passes its script."""

    def __init__(self, fields: Mapping[str, Any]):
        unknown = sorted(
            set(fields) - {"input", "output", "params", "wildcards", "log", "config", "threads", "resources"}
        )
        if unknown:
            raise ValueError(f"unknown job fields {unknown}; use input, output, params, wildcards, log, config")
        for name in ("input", "output", "params", "wildcards", "log"):
            setattr(self, name, Entries(fields.get(name)))
        self.resources = Entries(fields.get("resources", {}))
        self.config = dict(fields.get("config", {}))
        self.threads = int(fields.get("threads", 1))


def run(script: str | Path, fields: Mapping[str, Any]) -> dict[str, Any]:
    """Execute ``script`` with ``snakemake`` bound to the job ``fields``; returns its globals."""
    return runpy.run_path(str(script), init_globals={"snakemake": Job(fields)}, run_name="__main__")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m causal_bandits.snakemake_stub SCRIPT.py JOB.json", file=sys.stderr)
        return 2
    script, job = map(Path, args)
    for path in (script, job):
        if not path.is_file():
            print(f"error: {path} does not exist; give a workflow script and a job JSON file", file=sys.stderr)
            return 2
    run(script, json.loads(job.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
