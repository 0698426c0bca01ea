"""The run store's path templates, for the workflow's rules and the functions that list their inputs.

A run job of ``group`` (a paper's key, ``experiments``, or ``studies/<study>/{point}``) writes one trace file,
``results/runs/<group>/{experiment}/{strategy}/{algorithm}/chunk-{chunk}.parquet``, and the per-seed summary beside
it (:func:`causal_bandits.store.summary_path`); its log and its benchmark file mirror the trace's path under
``logs`` and ``benchmarks/out``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def run_path(group: str, root: str = "results/runs", strategy: str = "{strategy}") -> str:
    """The path template of a run job of ``group`` under ``root``: ``results/runs`` its trace, ``logs`` its log,
    ``benchmarks/out`` its benchmark file; a batch of every strategy (causal_bandits.runs.RunBatch) names its log
    and benchmark file by ``strategy`` (cpe's parallel bandit: ``budgets``)."""
    suffix = {"results/runs": ".parquet", "logs": ".log"}.get(root, ".tsv")
    return f"{root}/{group}/{{experiment}}/{strategy}/{{algorithm}}/chunk-{{chunk}}{suffix}"


def study_run_path(study: str, root: str = "results/runs") -> str:
    """A study's run path template: the group ``studies/<study>/{point}`` (a point: one setting of what the study
    varies, a key of the study's own list)."""
    return run_path(f"studies/{study}/{{point}}", root)


def run_files(
    group: str, jobs: Iterable[Mapping[str, str]], key: str = "{strategy}/{algorithm}", **where: str
) -> dict[str, list[str]]:
    """The trace files of the run jobs of ``group`` whose wildcards match ``where``, grouped by ``key`` (a template
    of their wildcards), in the order of ``jobs``: the wildcards of every run job, as the run module's
    ``run_jobs(config)`` yields them. What an aggregate reads: exactly the runs the run rule makes."""
    template = run_path(group)
    found: dict[str, list[str]] = {}
    for wildcards in jobs:
        if all(wildcards[name] == value for name, value in where.items()):
            found.setdefault(key.format(**wildcards), []).append(template.format(**wildcards))
    return found
