"""The run store: typed, self-describing Parquet and JSON files that appear atomically.

Every file is written to a temporary name in its destination directory and renamed into place,
so a killed job leaves either the old file or the new one, never half of one. Parquet files carry
in their key-value metadata the config hash, the package version and the versions of the
libraries that shaped the numbers.

Run traces (one file per (paper, experiment, strategy, algorithm, seed-chunk)) follow the schema
``TRACE_SCHEMA``, sorted by (seed, round); per-seed summaries sit beside them (``SUMMARY_SCHEMA``)
so tables never re-read traces for one number per seed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from causal_bandits import __version__
from causal_bandits.bandits.engine import Trace

TRACE_SCHEMA = pa.schema(
    [
        pa.field("seed", pa.int32(), nullable=False),
        pa.field("round", pa.int32(), nullable=False),
        pa.field("cum_regret", pa.float64(), nullable=False),
        pa.field("cum_realized_regret", pa.float64(), nullable=False),
        pa.field("arm", pa.int32(), nullable=False),
        pa.field("optimal", pa.bool_(), nullable=False),
    ]
)

SUMMARY_SCHEMA = pa.schema(
    [
        pa.field("seed", pa.int32(), nullable=False),
        pa.field("final_regret", pa.float64(), nullable=False),
        pa.field("final_realized_regret", pa.float64(), nullable=False),
        pa.field("optimal_fraction", pa.float64(), nullable=False),
    ]
)

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
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs should be readable like any file
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: str | os.PathLike, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp_path)`` and move the result onto ``path`` atomically."""
    with atomic_path(path) as tmp:
        write(tmp)


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Pretty, key-sorted JSON, written atomically."""
    text = json.dumps(obj, indent=2, sort_keys=True) + "\n"
    write_atomic(path, lambda tmp: tmp.write_text(text))


def read_json(path: str | os.PathLike) -> Any:
    return json.loads(Path(path).read_text())


def write_table(path: str | os.PathLike, table: pa.Table, metadata: Mapping[str, str]) -> None:
    """Write a Parquet table with ``metadata`` merged into its schema metadata, atomically."""
    meta = dict(table.schema.metadata or {})
    meta.update({k.encode(): str(v).encode() for k, v in metadata.items()})
    table = table.replace_schema_metadata(meta)
    write_atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


def read_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The key-value metadata of a Parquet file, decoded."""
    raw = pq.read_schema(path).metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if not k.startswith(b"ARROW")}


def trace_table(trace: Trace) -> pa.Table:
    """A Trace as a long table sorted by (seed, round)."""
    n_seeds, n_grid = trace.cum_regret.shape
    order = np.argsort(trace.seeds, kind="stable")
    columns = {
        "seed": np.repeat(trace.seeds[order], n_grid),
        "round": np.tile(trace.rounds, n_seeds),
        "cum_regret": trace.cum_regret[order].ravel(),
        "cum_realized_regret": trace.cum_realized_regret[order].ravel(),
        "arm": trace.arm[order].ravel(),
        "optimal": trace.optimal[order].ravel(),
    }
    return pa.Table.from_pydict(columns, schema=TRACE_SCHEMA)


def summary_table(trace: Trace) -> pa.Table:
    """One row per seed: final regrets and the share of rounds that pulled an optimal arm."""
    order = np.argsort(trace.seeds, kind="stable")
    columns = {
        "seed": trace.seeds[order],
        "final_regret": trace.cum_regret[order, -1],
        "final_realized_regret": trace.cum_realized_regret[order, -1],
        "optimal_fraction": trace.optimal_fraction[order],
    }
    return pa.Table.from_pydict(columns, schema=SUMMARY_SCHEMA)
