"""The run store: typed, self-describing Parquet and JSON files that appear atomically.

Every file is written to a temporary name in its destination directory and renamed into place,
so a killed job leaves either the old file or the new one, never half of one. Parquet files carry
in their key-value metadata the config hash, the package version and the versions of the
libraries that shaped the numbers.

Runs: one trace file and one per-seed summary file per (paper, experiment, strategy, algorithm,
seed-chunk), at ``results/runs/<paper>/<experiment>/<strategy>/<algorithm>/chunk-<k>.parquet``
and ``chunk-<k>.summary.parquet``. Every paper's files share one vocabulary: the trace columns
``TRACE_FIELDS`` (sorted by (seed, round)) and the summary columns ``SUMMARY_FIELDS`` /
``SUMMARY_FAMILIES``, each file holding ``seed`` (and ``round``) plus the optional columns its
recorders produce. Tables and figures read the summaries when they need one number per seed.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shlex
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from causal_bandits import __version__
from causal_bandits.errors import DataError

#: Every column a run trace may hold, in file order: ``seed`` and ``round`` always, the rest when
#: the job's recorders produce them. Traces are sorted by (seed, round).
TRACE_FIELDS = (
    pa.field("seed", pa.int32(), nullable=False),
    pa.field("round", pa.int32(), nullable=False),
    pa.field("cum_regret", pa.float64(), nullable=False),  # expected (pseudo-)regret to round t
    pa.field("cum_realized_regret", pa.float64(), nullable=False),  # sum of (best mean - reward)
    pa.field("arm", pa.int32(), nullable=False),  # arm pulled at t (-1 once the seed has stopped)
    pa.field("optimal", pa.bool_(), nullable=False),  # whether that arm was optimal
)
#: Every column a per-seed summary may hold, in file order: ``seed`` always, the rest optional.
SUMMARY_FIELDS = (
    pa.field("seed", pa.int32(), nullable=False),
    pa.field("final_regret", pa.float64(), nullable=False),
    pa.field("final_realized_regret", pa.float64(), nullable=False),
    pa.field("optimal_fraction", pa.float64(), nullable=False),  # share of rounds on an optimal arm
    pa.field("stopped_at", pa.int64(), nullable=False),  # adaptive stopping: rounds (samples) used
    pa.field("recommended", pa.int64(), nullable=False),  # the arm recommended when it stopped
    pa.field("correct", pa.bool_(), nullable=False),  # whether that arm is optimal
    pa.field("censored", pa.bool_(), nullable=False),  # still running at the sample cap
)
#: Beyond this vocabulary, a job may add summary columns of its own, typed from their numpy dtype,
#: without editing this module: columns named ``<paper>_<what>`` after the job's paper (e.g.
#: ``cpe_width``), and columns its recorders declare by name or prefix (the fairness auditor's
#: ``uncertified`` and ``unfair_cert_tau0.1``: :data:`causal_bandits.bandits.audit.COLUMNS`).

_UMASK = os.umask(0)
os.umask(_UMASK)

_LIBRARIES = ("numpy", "scipy", "pyarrow", "pandas", "pgmpy", "networkx")


def config_hash(config: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a config slice (key order does not matter)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def provenance(config: Mapping[str, Any]) -> dict[str, str]:
    """Key-value metadata stamped on every Parquet file."""
    meta = {"config_hash": config_hash(config), "causal_bandits": __version__}
    meta.update({f"version_{lib}": version(lib) for lib in _LIBRARIES})
    return meta


@contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    Temporaries of ``path`` left by an earlier attempt that was killed are removed first (a workflow
    output has one writer at a time), so a resumed run leaves none behind.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        stale.unlink(missing_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs should be readable like any file
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: str | os.PathLike, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp_path)`` and move the result onto ``path`` atomically."""
    with atomic_path(path) as tmp:
        write(tmp)


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Pretty, key-sorted JSON, written atomically."""
    text = json.dumps(obj, indent=2, sort_keys=True) + "\n"
    write_atomic(path, lambda tmp: tmp.write_text(text))


class DamagedFile(DataError):
    """An intermediate file that cannot be read as written (:func:`damaged`); ``path`` and ``problem`` are kept for
    callers that give their own fix (``causal-bandits check-store``)."""

    def __init__(self, path: str | os.PathLike, problem: str, fix: str = ""):
        quoted = shlex.quote(str(path))
        fix = fix or (
            f"remove it with `rm {quoted}` and rerun, naming it first: `snakemake --cores all {quoted}` (with the "
            "run's --configfile files), then the run as before (make reproduce, quick, run and studies do both)"
        )
        super().__init__(f"{path} is damaged or from another run ({problem}); {fix}")
        self.path, self.problem = path, problem


def damaged(path: str | os.PathLike, problem: str, fix: str = "") -> DamagedFile:
    """The error of an intermediate file that cannot be read as written: it names the file and the commands that
    remove and rebuild it (or ``fix``): a plain rerun after ``rm`` alone would find "Nothing to be done" where what
    reads the file was built before it was damaged, and leave it missing."""
    return DamagedFile(path, problem, fix)


def _problem(err: BaseException, path: str | os.PathLike) -> str:
    """The first sentence of a reader's error, after the path that :func:`damaged` names already."""
    text = (str(err).splitlines() or [type(err).__name__])[0]
    return text.rpartition(f"{path}': ")[2].split(". ")[0].rstrip(".")


def read_json(path: str | os.PathLike) -> Any:
    """A JSON file this package wrote; one that is not valid JSON raises :func:`damaged`."""
    try:
        return json.loads(Path(path).read_bytes())
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise damaged(path, f"not valid JSON: {_problem(err, path)}") from None


def write_table(path: str | os.PathLike, table: pa.Table, metadata: Mapping[str, str]) -> None:
    """Write a Parquet table with ``metadata`` merged into its schema metadata, atomically."""
    meta = dict(table.schema.metadata or {})
    meta.update({k.encode(): str(v).encode() for k, v in metadata.items()})
    table = table.replace_schema_metadata(meta)
    write_atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd", write_page_checksum=True))


def read_table(path: str | os.PathLike, columns: Sequence[str] | None = None) -> pa.Table:
    """A Parquet file this package wrote (``columns`` of it, or all), its pages checked against their
    checksums; a file that cannot be read, fails a checksum or lacks one of ``columns`` raises :func:`damaged`."""
    try:
        table = pq.read_table(path, columns=None if columns is None else list(columns), page_checksum_verification=True)
        table.validate(full=True)
        return table.rename_columns(table.column_names)  # decodes every name: the footer has no checksum
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError, ValueError) as err:  # ValueError: metadata that is not UTF-8
        raise damaged(path, f"not a readable Parquet file: {_problem(err, path)}") from None


def read_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The key-value metadata of a Parquet file, decoded; an unreadable footer raises :func:`damaged`."""
    try:
        raw = pq.read_schema(path).metadata or {}
        return {k.decode(): v.decode() for k, v in raw.items() if not k.startswith(b"ARROW")}
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError, ValueError) as err:  # ValueError: metadata that is not UTF-8
        raise damaged(path, f"not a readable Parquet file: {_problem(err, path)}") from None


class Run(Protocol):
    """What the store reads of a run (an engine :class:`~causal_bandits.bandits.engine.Run`)."""

    seeds: np.ndarray  # (n_seeds,)
    rounds: np.ndarray | None  # (n_grid,) rounds of the trace rows
    trace: dict[str, np.ndarray]  # column -> (n_seeds, n_grid)
    summary: dict[str, np.ndarray]  # column -> (n_seeds,)


def _schema(fields: tuple[pa.Field, ...], columns: Mapping[str, Any], own: Sequence[str] = ()) -> pa.Schema:
    """The schema of a table holding ``columns``: known fields in their order, then the job's own
    columns (those starting with one of the prefixes ``own``) in the order given."""
    known = {f.name: f for f in fields}
    chosen = [f for f in fields if f.name in columns]
    for name, values in columns.items():
        if name in known:
            continue
        if not name.startswith(tuple(own)):
            raise ValueError(
                f"column {name!r} is not in the run-store vocabulary (store.py); name a paper's own "
                f"column <paper>_<what>, or declare it (runs.Simulation's declared=)"
            )
        chosen.append(pa.field(name, pa.from_numpy_dtype(np.asarray(values).dtype), nullable=False))
    return pa.schema(chosen)


def _table(columns: Mapping[str, np.ndarray], schema: pa.Schema) -> pa.Table:
    """``columns`` (1-D numpy arrays) as a table of ``schema``, each made from the array's buffer and cast to its
    field's type (a value out of the type's range raises). ``pa.array`` would give the same table, but it imports
    pandas to ask whether its argument is a pandas object: 0.2 CPU-s of a run job that never needs pandas."""
    arrays = []
    for field in schema:
        values = np.ascontiguousarray(columns[field.name])
        if values.dtype == np.bool_:  # Arrow keeps booleans as bits, least significant first
            array = pa.Array.from_buffers(
                pa.bool_(), values.size, [None, pa.py_buffer(np.packbits(values, bitorder="little"))]
            )
        else:
            array = pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])
        arrays.append(array.cast(field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def trace_table(run: Run) -> pa.Table:
    """A run's traces as a long table sorted by (seed, round)."""
    assert run.rounds is not None  # a run with traces has their round grid
    order = np.argsort(run.seeds, kind="stable")
    n_grid = run.rounds.size
    columns = {"seed": np.repeat(run.seeds[order], n_grid), "round": np.tile(run.rounds, run.seeds.size)}
    columns.update({name: values[order].ravel() for name, values in run.trace.items()})
    return _table(columns, _schema(TRACE_FIELDS, columns))


def summary_table(run: Run, paper: str | None = None, declared: Sequence[str] = ()) -> pa.Table:
    """One row per seed, sorted by seed: every summary column of the run. Beyond the vocabulary, the
    columns of ``paper`` (``<paper>_<what>``) and those named by the prefixes ``declared``."""
    order = np.argsort(run.seeds, kind="stable")
    columns = {"seed": run.seeds[order], **{name: values[order] for name, values in run.summary.items()}}
    own = (*([f"{paper}_"] if paper else []), *declared)
    return _table(columns, _schema(SUMMARY_FIELDS, columns, own))


def summary_path(trace_path: str | os.PathLike) -> str:
    """The per-seed summary file beside a run's trace file (``chunk-0.parquet`` -> ``chunk-0.summary.parquet``)."""
    return str(trace_path).removesuffix(".parquet") + ".summary.parquet"


def write_run(
    trace_path: str | os.PathLike,
    summary_path: str | os.PathLike,
    run: Run,
    metadata: Mapping[str, str],
    *,
    paper: str | None = None,
    declared: Sequence[str] = (),
) -> None:
    """Write a run's trace and summary Parquet files (atomically, each with ``metadata``); ``paper``
    and ``declared`` admit the job's own summary columns (:func:`summary_table`)."""
    write_table(trace_path, trace_table(run), metadata)
    write_table(summary_path, summary_table(run, paper, declared), metadata)
