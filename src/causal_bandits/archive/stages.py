"""The stages of an archived run's jobs, as ``verify`` checks them at two levels.

* **Run chunks**: the jobs that write the run store (``results/runs/``), the bulk of a run's CPU.
* **Aggregates**: the jobs that read a run-store file the archive does not keep (an experiment's per-round
  statistics over its seeds' traces).
* **Derived**: every other job after the run chunks (tables, figures, claims documents, the report, and the jobs
  that read only the runs' summaries the archive keeps): each depends on a run chunk, through the aggregates or
  through a kept summary.
* **Others**: the rest (instances, prepared data, discovery, lower bounds, arm sets, theory curves).

The runs' traces are too large to archive (61 MB at paper scale, over the archive's 30 MB); what the derived jobs
read from the other stages is not (6 MB), nor are the runs' per-seed summaries
(:func:`causal_bandits.store.summary_path`) that the jobs reading no trace read (:func:`summaries`: cpe's
aggregates, 4.6 MB, and the studies' reports, 2.7 MB).
The archive keeps these *intermediates* (:func:`intermediates`), so that ``verify`` rebuilds every derived job from
them, and rebuilds the other stages from scratch in a seeded sample. Which jobs are derived depends on what the
archive keeps (:func:`stages` takes it): an archive made before it kept summaries (archive/paper-scale) counts cpe's
aggregates as aggregates, and its level 2 leaves them to the sample.
The prepared data (``data/processed/``) are the exception: row-level copies of the raw data, which the project does
not redistribute (data/raw/SOURCES.md states no terms for the YouTube crawl), so the archive leaves them out and
``verify`` rebuilds them from the raw data with the derived jobs (:func:`rebuilt_with_derived`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from causal_bandits.store import summary_path

#: Where run chunks are written (the run store).
RUN_STORE = "results/runs/"

#: Where the raw data's prepared copies are written: never archived (module docstring).
PREPARED_DATA = "data/processed/"


def _writers(jobs: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Each file the manifest's jobs wrote: the job that wrote it."""
    return {o["path"]: i for i, job in enumerate(jobs) for o in job["outputs"]}


def needs(jobs: Sequence[dict[str, Any]]) -> list[set[int]]:
    """For each manifest job, the jobs that wrote its inputs."""
    writer = _writers(jobs)
    return [{writer[path] for path in job["inputs"] if path in writer} for job in jobs]


def with_needs(start: int, needed: list[set[int]]) -> set[int]:
    """Job ``start`` and every job it needs, transitively."""
    found, todo = set(), [start]
    while todo:
        i = todo.pop()
        if i not in found:
            found.add(i)
            todo.extend(needed[i])
    return found


@dataclass(frozen=True)
class Stages:
    """The manifest jobs (indices) of each stage, and what each job needs."""

    needs: list[set[int]]
    runs: frozenset[int]
    aggregates: frozenset[int]
    derived: frozenset[int]

    @property
    def others(self) -> frozenset[int]:
        return frozenset(range(len(self.needs))) - self.runs - self.aggregates - self.derived


def _runs(jobs: Sequence[dict[str, Any]]) -> frozenset[int]:
    """The jobs that write the run store."""
    return frozenset(i for i, job in enumerate(jobs) if job["outputs"][0]["path"].startswith(RUN_STORE))


def summaries(jobs: Sequence[dict[str, Any]]) -> set[str]:
    """The run summaries read by jobs that read nothing else of the run store (cpe's aggregates, the studies'
    reports): what the archive keeps of the run store, so that those jobs are derived (module docstring)."""
    written = {o["path"] for i in _runs(jobs) for o in jobs[i]["outputs"]}
    summary = {summary_path(path) for path in written} & written
    found: set[str] = set()
    for job in jobs:
        store = [path for path in job["inputs"] if path in written]
        if store and summary.issuperset(store):
            found.update(store)
    return found


def stages(jobs: Sequence[dict[str, Any]], kept: Iterable[str] = ()) -> Stages:
    """Split a manifest's jobs into run chunks, aggregates, derived jobs and others, given the files the archive
    keeps (``kept``: its intermediates; a job that reads only kept files of the run store is derived)."""
    needed = needs(jobs)
    runs = _runs(jobs)
    unkept = {o["path"] for i in runs for o in jobs[i]["outputs"]} - set(kept)
    after = set(runs)
    grown = True
    while grown:
        grown = False
        for i in range(len(jobs)):
            if i not in after and needed[i] & after:
                after.add(i)
                grown = True
    aggregates = frozenset(i for i in after - runs if unkept.intersection(jobs[i]["inputs"]))
    return Stages(needed, runs, aggregates, frozenset(after - runs - aggregates))


def intermediates(jobs: Sequence[dict[str, Any]], found: Stages) -> list[str]:
    """The files the derived jobs read that jobs of the other stages wrote, the prepared data left out (sorted): what
    the archive keeps so that every derived job can be rebuilt without the run chunks."""
    own = {o["path"] for i in found.derived for o in jobs[i]["outputs"]}
    read = {path for i in found.derived for path in jobs[i]["inputs"]} - own
    return sorted(path for path in read if not path.startswith(PREPARED_DATA))


def rebuilt_with_derived(jobs: Sequence[dict[str, Any]], found: Stages, kept: Sequence[str]) -> frozenset[int]:
    """The derived jobs, and the jobs (with every job they need) that wrote what the derived jobs read but the
    archive does not keep in ``kept`` (the prepared data): what ``verify`` rebuilds from the intermediates."""
    writer, archived = _writers(jobs), set(kept)
    read = {path for i in found.derived for path in jobs[i]["inputs"] if path in writer and path not in archived}
    before = {writer[path] for path in read} - found.derived
    return found.derived.union(*(with_needs(i, found.needs) for i in before))
