"""A release's entry in CHANGELOG.md, written from the archives before and after it (Keep a Changelog layout).

The entry names the release's commit and records, for the papers' and the studies' archives: the tallies of
verdicts, every claim whose verdict moved since the previous release's archive (with the new row's note, which says
why the claim reads as it does), the run's cost, and the outputs whose bytes changed; then the verify lines. What
the ``## [Unreleased]`` section lists (the changes since the previous release, written with each change) becomes the
release's, under its version and date, and a new empty ``## [Unreleased]`` goes above it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from causal_bandits import store
from causal_bandits.archive import quotes
from causal_bandits.claims import STATUSES
from causal_bandits.errors import CausalBanditsError

CHANGELOG = "CHANGELOG.md"
UNRELEASED = "## [Unreleased]"
#: The most changed outputs an entry names one by one (the rest are counted).
SHOWN = 12


@dataclass
class Side:
    """What an entry compares of one archive: verdicts by claim, notes, output sha256s by path (a Parquet file's of
    its data alone, so that the version every Parquet file records moves none), run totals."""

    verdicts: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    run: dict[str, object] = field(default_factory=dict)
    tally: str = ""


@dataclass
class Snapshot:
    """The papers' and the studies' archives of a checkout, as an entry compares them."""

    sides: dict[str, Side]

    @classmethod
    def of(cls, root: Path) -> Snapshot:
        sides = {}
        for kind, archive in quotes.archives(root).items():
            if archive is None:
                sides[kind] = Side()
                continue
            rows = {f"{paper}/{cid}": row for paper, claims in archive.claims.items() for cid, row in claims.items()}
            outputs = {
                o["path"]: o.get("data_sha256", o["sha256"]) for job in archive.manifest["jobs"] for o in job["outputs"]
            }
            sides[kind] = Side(
                verdicts={ref: row["status"] for ref, row in rows.items()},
                notes={ref: str(row.get("note") or "") for ref, row in rows.items()},
                outputs=outputs,
                run=dict(archive.manifest["run"]),
                tally=_tallies(archive),
            )
        return cls(sides)


def _tallies(archive: quotes.Archive) -> str:
    """The papers' tally of verdicts, and the studies' after it when the archive holds studies."""
    studies = [name for name in archive.claims if name not in archive.papers]
    counts = Counter(row["status"] for name in studies for row in archive.claims[name].values())
    order = [*STATUSES, *sorted(set(counts) - set(STATUSES))]
    shown = ", ".join(f"{counts[status]} {status}" for status in order if counts[status])
    return quotes.quote(archive, "tally all") + (f"; the studies: {shown}" if shown else "")


def moved(before: Side, after: Side) -> list[str]:
    """One line per claim whose verdict changed, appeared or went (sorted by claim)."""
    lines = []
    for ref in sorted(before.verdicts.keys() | after.verdicts.keys()):
        old, new = before.verdicts.get(ref), after.verdicts.get(ref)
        if old != new:
            why = f": {after.notes[ref]}" if after.notes.get(ref) else ""
            lines.append(f"`{ref}`: {old or 'new claim'} → {new or 'claim gone'}{why}")
    return lines


def changed_bytes(before: Mapping[str, str], after: Mapping[str, str]) -> tuple[int, list[str]]:
    """How many outputs changed bytes (or appeared, or went), and the first :data:`SHOWN` of them."""
    paths = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    return len(paths), paths[:SHOWN]


def _side(name: str, before: Side, after: Side) -> list[str]:
    run = after.run
    count, shown = changed_bytes(before.outputs, after.outputs)
    more = f" and {count - len(shown)} more" if count > len(shown) else ""
    lines = [
        f"- {name}: {after.tally}.",
        f"  Cost: {run.get('jobs')} jobs, {run.get('cpu_hours')} CPU-h, {run.get('wall_hours')} h from first start "
        f"to last end.",
        f"  Outputs with other bytes than the previous release's (a Parquet file: other data): {count}"
        + (f" ({', '.join(f'`{p}`' for p in shown)}{more})." if shown else "."),
    ]
    verdicts = moved(before, after)
    lines.append(f"  Verdicts moved: {len(verdicts)}" + (":" if verdicts else "."))
    lines += [f"  - {line}" for line in verdicts]
    return lines


def entry(version: str, commit: str, before: Snapshot, after: Snapshot, verified: Sequence[str]) -> list[str]:
    """The release's record: the lines under its heading, above what the Unreleased section listed."""
    lines = [f"Archives made at commit `{commit}` (`archive/paper-scale`, `archive/studies`).", ""]
    names = {"archive": "The papers", "studies": "The papers and the studies"}
    for kind, name in names.items():
        lines += _side(name, before.sides.get(kind, Side()), after.sides[kind])
    lines += ["", "Verified from the release's checkout:", *(f"- {line}" for line in verified), ""]
    return lines


def write(path: Path, version: str, record: Sequence[str], today: str | None = None) -> None:
    """Turn the Unreleased section of the changelog at ``path`` into release ``version``'s, its ``record`` first,
    with a new empty Unreleased section above it (atomically)."""
    text = path.read_text()
    if UNRELEASED not in text:
        raise CausalBanditsError(f"{path} has no '{UNRELEASED}' section: add one above the first release")
    date = today or datetime.now(UTC).date().isoformat()
    head, _, rest = text.partition(UNRELEASED + "\n")
    new = f"{head}{UNRELEASED}\n\n## [{version}] - {date}\n\n" + "\n".join(record) + rest
    store.write_atomic(path, lambda tmp: tmp.write_text(new))
