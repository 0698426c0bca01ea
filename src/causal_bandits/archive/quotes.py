"""What the documentation quotes from an archived run, filled in from the archive itself.

A docs page never copies a measured number of the archived paper-scale run by hand: it writes a
*quote*, ``{{ archive <what> }}``, and the docs hook (``docs/hooks/paper_scale.py``) replaces it with
the value read from the archive (``archive/paper-scale``: its manifest and its claims documents), so
that a remade archive updates every page. The quotes:

``{{ archive verdict <paper>/<claim id> [<paper>/<claim id> ...] }}``
    the archived verdict of the claims (their distinct verdicts joined by " / "; an id may be a glob,
    ``cpe/pac-*``);
``{{ archive ours <paper>/<claim id> }}`` (also ``paper``, ``note``)
    that field of the claim's archived row;
``{{ archive tally <paper or all> }}``
    the number of claims with each verdict, e.g. "111 reproduced, 28 differs, 6 not specified by the paper";
``{{ archive claims <paper or all>[/<claim id glob>] [<verdict>] }}``
    the number of claims (with that verdict; a verdict of several words is written with ``_`` for spaces);
``{{ archive run <field> }}``
    a total of the run from its manifest (``jobs``, ``cpu_hours``, ``wall_hours``, ``finished``, ...);
``{{ archive minutes }}``
    the run's wall time from its first job's start to its last job's end, in whole minutes;
``{{ archive projected <cores> }}``
    the wall minutes the archived jobs would take on that many cores (:func:`projected_minutes`);
``{{ archive cpu <rule glob> [<rule glob> ...] }}``
    the CPU hours of the archived jobs whose rule matches any of the globs (``cpe_*``; ``refresh_* knobs_*``), to
    two significant digits;
``{{ archive commit }}``
    the archived run's commit (10 characters);
``{{ archive <sum|n|min|max> <paper>/<claim id glob> /<regex>/ }}``
    the sum, number, smallest or largest of the first group the regular expression captures in the
    ``ours`` field of every claim whose id matches the glob (``{{ archive sum cpe/pac-* /\\((\\d+) runs/ }}``:
    the runs behind the PAC claims).

``{{ studies <what> }}`` quotes the same way from the studies' archived run (``archive/studies``: the papers and every
study on one commit, ``config/studies.yaml``), e.g. ``{{ studies cpu refresh_* }}``. A study's claims are quoted as a
paper's, under the study's name (``{{ studies ours refresh/refresh-schedule }}``; ``all`` counts the papers' only), and
two quotes read what only a study writes:

``{{ studies finding <study>/<claim id> }}``
    the study's finding record for that paper claim (outcome, sentence and numbers, as the report prints it);
``{{ studies include <file> }}``
    an archived Markdown file (``figures/studies/knobs/table.md``) inlined whole, without its title line: the
    study's table, caption and findings as the run wrote them, its headings two levels down and its braces
    escaped (``N = {Z}`` is text, not Markdown attributes). It stands on a line of its own.

In a table row (a line starting with ``|``) a quote's ``|`` and braces are escaped so that it stays one cell.
A quote that names no such claim, field or total raises :class:`QuoteError`, naming the quote and the fix;
the hook lets it fail the (strict) build.
"""

from __future__ import annotations

import fnmatch
import heapq
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from causal_bandits.archive import manifest
from causal_bandits.claims import STATUSES
from causal_bandits.errors import DataError
from causal_bandits.report import located

#: A quote in a docs page.
QUOTE = re.compile(r"\{\{ (archive|studies) ([^}]*?) \}\}")
#: The archive folder each kind of quote reads, relative to the repository.
FOLDERS = {"archive": manifest.DEFAULT_FOLDER, "studies": Path("archive/studies")}
#: The claims documents in an archive folder, and the studies' beneath them.
CLAIMS = Path(manifest.CLAIMS)
STUDIES = "studies"


class QuoteError(DataError):
    """A quote the archive cannot fill: names the quote and what the archive holds instead."""


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _format(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


class Archive:
    """An archived run as the docs quote it: its manifest's totals and its claims, by paper and id."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @cached_property
    def manifest(self) -> dict[str, Any]:
        return manifest.read(self.folder)

    @cached_property
    def documents(self) -> dict[str, dict[str, Any]]:
        """Every archived claims document by name: each paper's, then each study's (``results/claims/studies/``)."""
        folders = [self.folder / CLAIMS, self.folder / CLAIMS / STUDIES]
        paths = [path for folder in folders for path in sorted(folder.glob("*.json"))]
        return {path.stem: json.loads(path.read_text()) for path in paths}

    @cached_property
    def claims(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Every archived claim row: paper (or study) -> claim id -> row."""
        return {name: {row["id"]: row for row in doc["claims"]} for name, doc in self.documents.items()}

    @cached_property
    def papers(self) -> list[str]:
        """The papers' claims documents (what ``all`` counts), not the studies'."""
        return [name for name, doc in self.documents.items() if "study" not in doc]

    def claim(self, ref: str) -> dict[str, Any]:
        """The row of ``<paper>/<claim id>``."""
        paper, _, claim_id = ref.partition("/")
        if paper not in self.claims:
            raise QuoteError(f"no paper {paper!r} in the archive ({', '.join(self.claims)}): write <paper>/<claim id>")
        if claim_id not in self.claims[paper]:
            raise QuoteError(
                f"no claim {claim_id!r} in the archived {paper} claims ({self.folder / CLAIMS / paper}.json): "
                "use one of its ids, or write the text without a quote if the claim is gone"
            )
        return self.claims[paper][claim_id]

    def rows(self, papers: str) -> list[dict[str, Any]]:
        """The rows of one paper, or of all (``all``); ``<paper>/<glob>``: those whose id matches the glob."""
        papers, _, glob = papers.partition("/")
        if glob:
            rows = [row for row in self.rows(papers) if fnmatch.fnmatchcase(row["id"], glob)]
            if not rows:
                raise QuoteError(f"no archived {papers} claim matches {glob!r}")
            return rows
        if papers == "all":
            return [row for paper in self.papers for row in self.claims[paper].values()]
        if papers not in self.claims:
            raise QuoteError(f"no paper {papers!r} in the archive ({', '.join(self.claims)}, or all)")
        return list(self.claims[papers].values())

    def tally(self, papers: str) -> Counter[str]:
        return Counter(row["status"] for row in self.rows(papers))

    def captured(self, pattern: str, regex: str) -> list[str]:
        """The first group of ``regex`` wherever it matches the ``ours`` field of the claims matching
        ``<paper>/<glob>``, in the archive's order."""
        rows = self.rows(pattern)
        found = [m.group(1) for row in rows for m in re.finditer(regex, row["ours"])]
        if not found:
            raise QuoteError(f"/{regex}/ captures nothing in the archived {pattern} claims' 'ours'")
        return found


def _verdict(archive: Archive, *refs: str) -> str:
    rows = [row for ref in refs for row in (archive.rows(ref) if "*" in ref else [archive.claim(ref)])]
    return " / ".join(dict.fromkeys(row["status"] for row in rows))


def _field(name: str) -> Callable[..., str]:
    return lambda archive, ref: str(archive.claim(ref)[name])


def _tally(archive: Archive, papers: str) -> str:
    counts = archive.tally(papers)
    return ", ".join(f"{counts[s]} {s}" for s in [*STATUSES, *sorted(set(counts) - set(STATUSES))] if counts[s])


def _claims(archive: Archive, papers: str, status: str | None = None) -> str:
    counts = archive.tally(papers)
    return _format(sum(counts.values()) if status is None else counts[status.replace("_", " ")])


def _run(archive: Archive, field: str) -> str:
    run = archive.manifest["run"]
    if field not in run:
        raise QuoteError(f"the archive's run has no {field!r} ({', '.join(run)})")
    value = run[field]
    return _format(value) if isinstance(value, int | float) else str(value)


def _minutes(archive: Archive) -> str:
    return _format(round(archive.manifest["run"]["wall_hours"] * 60))


def list_schedule(costs: Sequence[float], needs: Sequence[Collection[int]], cores: int) -> float:
    """The makespan of a list schedule of jobs ``0..n-1`` on ``cores``: job ``i`` takes ``costs[i]``, starts once
    every job of ``needs[i]`` has ended, and a free core takes the longest ready job (ties: the lower index)."""
    waiting = [len(found) for found in needs]
    needed_by: list[list[int]] = [[] for _ in costs]
    for i, found in enumerate(needs):
        for j in found:
            needed_by[j].append(i)
    ready = [(-costs[i], i) for i in range(len(costs)) if not waiting[i]]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    now = 0.0
    while ready or running:
        while ready and len(running) < cores:
            cost, i = heapq.heappop(ready)
            heapq.heappush(running, (now - cost, i))
        now, done = heapq.heappop(running)
        for i in needed_by[done]:
            waiting[i] -= 1
            if not waiting[i]:
                heapq.heappush(ready, (-costs[i], i))
    return now


def projected_minutes(jobs: list[dict[str, Any]], cores: int) -> float:
    """The wall minutes of a list schedule of ``jobs`` (a manifest's) on ``cores`` (:func:`list_schedule`): each job
    takes the wall seconds it took in the archived run on one core and starts once every job whose outputs it read
    has ended. Snakemake's own time between jobs is left out."""
    made = {o["path"]: i for i, job in enumerate(jobs) for o in job["outputs"]}
    needs = [{made[p] for p in job["inputs"] if p in made} for job in jobs]
    return list_schedule([job["wall_s"] or 0.0 for job in jobs], needs, cores) / 60


def _projected(archive: Archive, cores: str) -> str:
    if not cores.isdigit() or int(cores) < 1:
        raise QuoteError(f"projected takes a number of cores, e.g. projected 16, not {cores!r}")
    return _format(round(projected_minutes(archive.manifest["jobs"], int(cores))))


def _cpu(archive: Archive, rule: str, *more: str) -> str:
    rules = (rule, *more)
    seconds = [
        job["cpu_s"] or 0.0
        for job in archive.manifest["jobs"]
        if any(fnmatch.fnmatchcase(job["rule"], glob) for glob in rules)
    ]
    if not seconds:
        raise QuoteError(f"no archived job's rule matches {' or '.join(map(repr, rules))}")
    hours = sum(seconds) / 3600
    return f"{hours:.{max(2, 1 - math.floor(math.log10(hours)))}f}" if hours > 0 else "0"


def _finding(archive: Archive, ref: str) -> str:
    study, _, claim_id = ref.partition("/")
    studies = [name for name in archive.documents if name not in archive.papers]
    if study not in studies:
        named = ", ".join(studies) or "none"
        raise QuoteError(f"no study {study!r} in the archive ({named}): write <study>/<claim id>")
    findings = archive.documents[study].get("findings", {})
    if claim_id not in findings:
        raise QuoteError(f"study {study} recorded no finding for {claim_id!r} (it has {', '.join(findings) or 'none'})")
    return located.line(study, findings[claim_id])


def _include(archive: Archive, name: str) -> str:
    path = archive.folder / name
    if not name.endswith(".md") or not path.is_file() or archive.folder.resolve() not in path.resolve().parents:
        raise QuoteError(f"no archived Markdown file {name!r} in {archive.folder}: name one its manifest lists")
    lines = path.read_text().strip().split("\n")
    if lines[0].startswith("# "):
        lines = lines[1:]
    # its headings go two levels down, under the page's section; braces are shown as text, not read as attributes
    lines = [f"##{line}" if line.startswith("#") else line for line in lines]
    return "\n".join(lines).strip().replace("{", "&#123;").replace("}", "&#125;")


def _commit(archive: Archive) -> str:
    return (archive.manifest["provenance"]["commit"] or "unknown")[:10]


def _aggregate(how: Callable[[list[float]], float], keep_text: bool = False) -> Callable[..., str]:
    def quote(archive: Archive, pattern: str, *regex: str) -> str:
        expression = " ".join(regex)
        if not (len(expression) > 2 and expression[0] == expression[-1] == "/"):
            raise QuoteError(f"write the regular expression between slashes, e.g. /(\\d+) runs/, not {expression!r}")
        found = archive.captured(pattern, expression[1:-1])
        value = how([_number(text) for text in found])
        if keep_text:  # min and max keep the archive's own digits (1.00, not 1)
            return next(text for text in found if _number(text) == value)
        return _format(value)

    return quote


QUOTES: Mapping[str, Callable[..., str]] = {
    "verdict": _verdict,
    "ours": _field("ours"),
    "paper": _field("paper"),
    "note": _field("note"),
    "tally": _tally,
    "claims": _claims,
    "run": _run,
    "cpu": _cpu,
    "minutes": _minutes,
    "projected": _projected,
    "commit": _commit,
    "finding": _finding,
    "include": _include,
    "sum": _aggregate(sum),
    "n": _aggregate(len),
    "min": _aggregate(min, keep_text=True),
    "max": _aggregate(max, keep_text=True),
}


def quote(archive: Archive, text: str, kind: str = "archive") -> str:
    """The value of one quote (``text``: what stands between ``{{ archive`` (or ``{{ studies``, ``kind``) and
    ``}}``)."""
    what, *args = text.split()
    if what not in QUOTES:
        raise QuoteError(f"unknown quote {{{{ {kind} {text} }}}}: use one of {', '.join(QUOTES)}")
    try:
        return QUOTES[what](archive, *args)
    except TypeError:
        raise QuoteError(
            f"{{{{ {kind} {text} }}}} has the wrong arguments: see causal_bandits.archive.quotes"
        ) from None


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("{", "&#123;").replace("}", "&#125;")


def archives(root: Path) -> dict[str, Archive | None]:
    """Each kind of quote's archive under the repository ``root`` (None where that archive is not there)."""
    return {
        kind: Archive(root / folder) if (root / folder / manifest.MANIFEST).is_file() else None
        for kind, folder in FOLDERS.items()
    }


def expand(markdown: str, found: Mapping[str, Archive | None], where: str = "") -> str:
    """``markdown`` with every quote filled in from the archive of its kind in ``found`` (:func:`archives`; an
    archive that is not there: each of its quotes becomes "–")."""
    lines = []
    for line in markdown.split("\n"):
        table = line.lstrip().startswith("|")

        def fill(match: re.Match[str], table: bool = table, line: str = line) -> str:
            kind, text = match.groups()
            archive = found.get(kind)
            if archive is None:
                return "–"
            if text.split()[:1] == ["include"] and line.strip() != match.group(0):
                raise QuoteError(f"{where}: {match.group(0)} stands on a line of its own (it inlines a whole file)")
            try:
                value = quote(archive, text, kind)
            except QuoteError as err:
                raise QuoteError(f"{where}: {err}" if where else str(err)) from None
            return cell(value) if table else value

        lines.append(QUOTE.sub(fill, line))
    return "\n".join(lines)
