"""What a release will cost, printed before it starts: its jobs as Snakemake plans them, each costed by what the
previous release's archives recorded for the job that wrote the same files.

The papers' jobs (``config/config.yaml``) are costed from ``archive/paper-scale``; the studies' (the jobs that
``config/studies.yaml`` adds to the papers') from ``archive/studies``. A planned job neither archive holds (a rule
added since, or a run chunk of another size) is counted by rule, not costed. The wall time on ``cores`` is a list
schedule of the recorded CPU seconds (:func:`.quotes.projected_minutes`): an idle machine's; Snakemake's own time
between jobs and any other load add to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causal_bandits.archive import jobs as planning
from causal_bandits.archive import manifest, quotes
from causal_bandits.archive import verify as verifying
from causal_bandits.archive.verify import cost

#: The studies' config, overlaid on the papers' (the studies' run adds its jobs to the papers').
STUDIES = "config/studies.yaml"


@dataclass(frozen=True)
class Part:
    """One run of a release as planned, costed from an archive: jobs planned, the archived jobs that wrote the same
    files (their CPU seconds and wall minutes on the cores), and the rules of the planned jobs no archived job wrote."""

    name: str
    planned: int
    cpu_s: float
    minutes: float
    uncosted: Counter[str]

    def line(self, folder: Path) -> str:
        hours = self.cpu_s / 3600
        line = f"{self.name}: {self.planned} jobs, {hours:.2f} CPU-h as {folder} recorded them, {_clock(self.minutes)}"
        if self.uncosted:
            rules = ", ".join(f"{rule} {n}" for rule, n in self.uncosted.most_common())
            line += f"; not costed, no archived job wrote their files: {sum(self.uncosted.values())} jobs ({rules})"
        return line


def _clock(minutes: float) -> str:
    return f"{int(minutes // 60)} h {round(minutes % 60):02d} min" if minutes >= 60 else f"{round(minutes)} min"


def costed(name: str, planned: Sequence[planning.PlannedJob], record: dict[str, Any], cores: int) -> Part:
    """The ``planned`` jobs costed from the archived run ``record``: each by the archived job that wrote one of its
    files (each archived job counted once), scheduled on ``cores`` by its recorded CPU seconds."""
    archived = record["jobs"]
    writer = {o["path"]: i for i, job in enumerate(archived) for o in job["outputs"]}
    found: set[int] = set()
    uncosted: Counter[str] = Counter()
    for job in planned:
        hits = {writer[path] for path in job.outputs if path in writer}
        found |= hits
        uncosted.update([job.rule] if not hits else [])
    chosen = [{**archived[i], "wall_s": cost(archived[i])} for i in sorted(found)]
    cpu_s = sum(job["wall_s"] for job in chosen)
    return Part(name, len(planned), cpu_s, quotes.projected_minutes(chosen, cores), uncosted)


def estimate(root: Path, cores: int) -> list[str]:
    """The release's cost on ``cores``, one line per run and one for the total (module docstring); a line saying why
    there is none when an archive is missing."""
    found = quotes.archives(root)
    if found["archive"] is None or found["studies"] is None:
        return ["no estimate of the release's cost: archive/paper-scale or archive/studies is missing"]
    papers = [job for job in planning.plan(root, []) if job.outputs]
    written = {path for job in papers for path in job.outputs}
    studies = [job for job in planning.plan(root, [STUDIES]) if job.outputs and not written.issuperset(job.outputs)]
    parts = [
        costed("the papers", papers, found["archive"].manifest, cores),
        costed("the studies beyond the papers", studies, found["studies"].manifest, cores),
    ]
    folders = [quotes.FOLDERS["archive"], quotes.FOLDERS["studies"]]
    checks = sum(cost(job) for archive in found.values() if archive for job in _verified(archive.manifest, cores))
    cpu_h = sum(part.cpu_s for part in parts) / 3600
    total = sum(part.minutes for part in parts) + checks / 60 / cores
    return [
        *(f"estimated cost of {part.line(folder)}" for part, folder in zip(parts, folders, strict=True)),
        f"estimated cost of verifying both archives: {checks / 3600:.2f} CPU-h (a sample within the default budget "
        "and every derived job)",
        "the previous archives copied "
        + " and ".join(f"{_copied_mb(archive.manifest):.1f} MB" for archive in found.values() if archive)
        + f" (archive refuses over {manifest.MAX_MB:g} MB each)",
        f"estimated cost of the release: {cpu_h + checks / 3600:.1f} CPU-h, about {_clock(total)} on {cores} cores "
        "without other load, and the byte guard's tiny run first (make tiny-digests, not costed here)",
    ]


def _copied_mb(record: dict[str, Any]) -> float:
    """The MB of the files an archive copied beside its manifest (what ``archive --max-mb`` limits)."""
    files = set(manifest.copied(record))
    return sum(o["bytes"] for job in record["jobs"] for o in job["outputs"] if o["path"] in files) / 1e6


def _verified(record: dict[str, Any], cores: int) -> list[dict[str, Any]]:
    """The archived jobs a default verification of ``record`` rebuilds (:func:`.verify.plan`)."""
    levels = verifying.plan(record, verifying.Settings(cores=cores))
    return [record["jobs"][i] for level in levels for i in level.jobs]
