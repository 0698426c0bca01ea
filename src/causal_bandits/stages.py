"""One entry for every workflow step that calls one library function: ``workflow/scripts/stage.py`` calls the
function its rule names (``params.call``, ``"module:function"``) with the job, as ``workflow/scripts/run.py`` runs
every run job. The rule names the function once (``params: **stage("causal_bandits.papers.bounds.tables:table1")``
in workflow/rules/common.smk, which also gives the job's code digest: the function's module, closed over its
imports), and its script is always ``STAGE``.

A step function takes the :class:`Job` (Snakemake's ``snakemake`` object: its named inputs and outputs, params,
wildcards) and writes every output atomically; it logs through its module's logger (the entry logs to the job's
log file, :func:`causal_bandits.logs.logged`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol, cast

from causal_bandits.errors import CausalBanditsError


class Job(Protocol):
    """What a step function reads of its job (Snakemake's ``snakemake`` object in the script)."""

    input: Any
    output: Any
    params: Any
    wildcards: Any
    config: Any


def function(call: str) -> Callable[[Job], None]:
    """The step function ``call`` names, ``"module:function"``."""
    module, _, name = call.partition(":")
    found = getattr(importlib.import_module(module), name, None) if name else None
    if not callable(found):
        raise CausalBanditsError(f"step {call!r} names no function; name one as 'package.module:function'")
    return cast(Callable[[Job], None], found)


def module_of(call: str) -> str:
    """The module of the step function ``call`` names: what its code digest reads."""
    return call.partition(":")[0]
