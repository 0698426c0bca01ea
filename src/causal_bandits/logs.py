"""Logging for workflow steps: each job writes its progress and any traceback to its log file."""

from __future__ import annotations

import atexit
import gc
import logging
import os
import re
import resource
import sys
import time
from collections.abc import Iterable
from contextlib import contextmanager, suppress
from pathlib import Path

from causal_bandits.errors import CausalBanditsError

#: Allocations (net of frees) between two collections of the youngest generation in a job; Python's default is 700.
#: Jobs that build many small objects (V6's graphs and searches, E4b's 531,441 actions) spent a fifth of their CPU in
#: collections that freed little; a job's peak memory can grow a little, as cyclic garbage lives longer
#: (docs/performance.md#collector). Values never depend on it.
COLLECT_AFTER = 100_000


@contextmanager
def logged(path: str | os.PathLike):
    """Send log records to ``path`` and stderr: INFO and up from this package, WARNING and up from
    libraries (fontTools alone logs about 55 INFO lines per PDF it subsets). Bad input (a
    :class:`~causal_bandits.errors.CausalBanditsError`: a missing or corrupt file, a bad setting)
    ends the job with one ``error: ...`` line and exit status 1; any other exception is recorded
    with its traceback and raised. The log ends with the job's CPU seconds and peak memory
    (:func:`resources_line`), which the archive of a run reads (:mod:`causal_bandits.archive.manifest`). The job's
    garbage collector runs every :data:`COLLECT_AFTER` allocations."""
    gc.set_threshold(COLLECT_AFTER)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    handlers: list[logging.Handler] = [logging.FileHandler(path, mode="w"), logging.StreamHandler(sys.stderr)]
    logging.basicConfig(
        level=logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        handlers=handlers,
        force=True,
    )
    logging.getLogger("causal_bandits").setLevel(logging.INFO)
    failed = False
    try:
        yield logging.getLogger("causal_bandits")
    except CausalBanditsError as err:
        logging.getLogger("causal_bandits").error("error: %s", err)
        failed = True
    except BaseException:
        logging.getLogger("causal_bandits").exception("step failed")
        raise
    finally:
        for handler in handlers:
            handler.close()
        with open(path, "a") as log:
            log.write(resources_line() + "\n")
    if failed:
        sys.exit(1)


#: The last line of a job's log (:func:`logged`): the job's exact CPU seconds and peak memory.
_RESOURCES = re.compile(r"^resources: cpu_s=(?P<cpu>[0-9.]+) max_rss_mb=(?P<rss>[0-9.]+)$")


def resources_line() -> str:
    """This process's CPU seconds (user + system, its waited-for children included) and peak resident memory
    (MB) so far: exact, where a Snakemake benchmark file samples them (every 0.5 s for 15 s, then every 30 s,
    keeping the last sample, so that it misses up to 30 CPU-s of a job's end).

    CPU from ``getrusage``. The peak is the high-water mark of this process image's own memory (``VmHWM``,
    Linux), or of a waited-for child's if larger: ``ru_maxrss`` of the process itself carries over through
    ``exec`` the resident memory of the process that forked it, so a job that Snakemake starts through bash
    would report at least Snakemake's own memory (250-315 MB in a run of hundreds of jobs, whatever the job).
    Elsewhere, ``ru_maxrss`` (an upper bound)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    own_kb = _own_peak_kb()
    rss_mb = max(own.ru_maxrss if own_kb is None else own_kb, children.ru_maxrss) / 1024  # kilobytes on Linux
    return f"resources: cpu_s={cpu:.2f} max_rss_mb={rss_mb:.1f}"


def _own_peak_kb() -> int | None:
    """Peak resident memory (kB) of this process since its last ``exec``, from ``/proc/self/status``; None where
    there is none."""
    try:
        with open("/proc/self/status") as status:
            line = next((line for line in status if line.startswith("VmHWM:")), None)
        return None if line is None else int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None


def read_resources(path: str | os.PathLike) -> tuple[float, float] | None:
    """(CPU seconds, peak memory MB) from the resources line :func:`logged` ends a job's log with; None for
    a log without one (a job that did not run through :func:`logged`, or a log from before it wrote one)."""
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return None
    found = next((m for m in map(_RESOURCES.match, reversed(lines)) if m), None)
    return None if found is None else (float(found["cpu"]), float(found["rss"]))


def since_process_start() -> tuple[float, float]:
    """(wall, CPU) seconds since this process started: wall from the kernel's clock since boot and the
    process's start time (``/proc``, Linux, 10 ms resolution; NaN elsewhere), CPU from
    :func:`time.process_time`."""
    try:
        with open("/proc/self/stat") as stat:
            start_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as uptime:
            wall = float(uptime.read().split()[0]) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        wall = float("nan")
    return wall, time.process_time()


def failures(root: str | Path, since: float) -> list[tuple[Path, str]]:
    """Job logs under ``root`` written since ``since`` (epoch seconds) that record an error, each with
    its error line: the message of the last ERROR record (``error: ...`` for bad input), or the last
    line of the traceback :func:`logged` wrote after "step failed"."""
    found = []
    for path in sorted(Path(root).rglob("*.log")) if Path(root).is_dir() else ():
        if path.stat().st_mtime < since:
            continue
        lines = path.read_text(errors="replace").splitlines()
        errors = [i for i, line in enumerate(lines) if " ERROR " in line[:80]]
        if not errors:
            continue
        message = lines[errors[-1]].split(" ERROR ", 1)[1]
        if message == "step failed":  # the traceback's last line, above the resources line
            message = next((line for line in reversed(lines) if line.strip() and not _RESOURCES.match(line)), message)
        found.append((path, message))
    return found


def drop_unfinished(outputs: Iterable[str | os.PathLike]) -> list[Path]:
    """Remove the existing files among ``outputs``: those of the jobs a failed run planned to redo and did
    not (Snakemake's ``onerror``). Returns them.

    Snakemake rebuilds a missing file only for a job that needs to run: when a job fails it deletes the
    job's outputs, and without this the next run would find every file downstream present, leave the
    missing one missing and report "Nothing to be done". With the stale downstream files gone, the next
    run plans the chain again: it rebuilds, or stops at the same input with the same line.
    """
    removed, kept = [], []
    for output in map(Path, outputs):
        if output.is_file():
            try:
                output.unlink()
                removed.append(output)
            except OSError as err:  # e.g. a read-only results/
                kept.append(f"{output} ({err.strerror})")
    if removed:
        print(
            f"removed {len(removed)} output(s) this run had to redo but did not (e.g. {removed[0]}): "
            "the next run rebuilds them",
            file=sys.stderr,
        )
    if kept:
        print(
            f"could not remove {len(kept)} output(s) this run had to redo, e.g. {kept[0]}: remove them before the "
            "next run, or it may keep them",
            file=sys.stderr,
        )
    return removed


def report_failures(
    root: str | Path, since: float, logfiles: Iterable[str | os.PathLike] = (), most: int = 5
) -> list[str]:
    """Each failed job's own error line (Snakemake's ``onerror``), so that a run that stopped says what went wrong
    and how to fix it rather than only "a job execution failed". The lines begin the summary of Snakemake's own log
    (appended to each of ``logfiles``, the ``.snakemake/log/*.snakemake.log`` Snakemake passes its hook: right after
    its "Exiting because a job execution failed") and end the console: printed to stderr when the process exits,
    after the lines Snakemake writes once the hook has returned (the log's place, the elapsed time, "At least one
    job did not complete successfully"). Returns them."""
    found = failures(root, since)
    lines = [
        f"{message if message.startswith('error:') else f'error: {message}'} (job log: {path})"
        for path, message in found[:most]
    ]
    if len(found) > most:
        lines.append(f"error: {len(found) - most} more failed job logs under {root}/")
    for logfile in logfiles:
        with suppress(OSError), open(logfile, "a") as log:
            log.writelines(f"{line}\n" for line in lines)
    if lines:
        atexit.register(print, "\n".join(lines), file=sys.stderr, flush=True)
    return lines
