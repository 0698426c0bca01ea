"""Test helper: a workflow run's outputs read back — each one parses, and a fingerprint to compare runs by."""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

#: Where the workflow writes its outputs (logs/, benchmarks/ and .snakemake/ are Snakemake's records, not outputs).
OUTPUT_DIRS = ("results", "figures", "data")
#: A run store file: one seed chunk of one (paper, experiment, strategy, algorithm); the number of chunks
#: depends on ``seeds_per_job``.
RUN_FILE = re.compile(r"^results/runs/(?P<group>.+)/chunk-(?P<chunk>\d+)(?P<kind>\.summary)?\.parquet$")


def is_temporary(path: Path) -> bool:
    """A hidden temporary of ``store.atomic_path`` (``.<name>.<random>.tmp``): never a final name."""
    return path.name.startswith(".") and path.name.endswith(".tmp")


def output_files(work: Path) -> dict[str, Path]:
    """Every output under its final name, by path relative to ``work``."""
    return {
        p.relative_to(work).as_posix(): p
        for d in OUTPUT_DIRS
        if (work / d).is_dir()
        for p in sorted((work / d).rglob("*"))
        if p.is_file() and not is_temporary(p)
    }


def check_parses(path: Path) -> None:
    """Read ``path`` back as its suffix says; raise AssertionError (or the reader's error) if it is partial."""
    data = path.read_bytes()
    suffix = path.suffix
    assert data, f"{path} is empty"
    if suffix == ".parquet":
        pq.read_table(path)
    elif suffix == ".json":
        json.loads(data)
    elif suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82"), f"{path}: truncated PNG"
    elif suffix == ".pdf":
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), f"{path}: truncated PDF"
    else:  # CSV, Markdown, HTML, text: complete means the last line is ended
        text = data.decode("utf-8")
        assert text.endswith("\n"), f"{path}: no final line break (truncated?)"
        if suffix == ".csv":
            assert len(pd.read_csv(path).columns) > 0, f"{path}: no columns"
        elif suffix == ".html":
            assert text.rstrip().endswith("</html>"), f"{path}: truncated HTML"


def _rows(files: list[Path]) -> tuple[pa.Table, dict[bytes, bytes]]:
    """The chunks' rows concatenated in seed order, and their metadata without the chunk's own seed range."""
    tables = [pq.read_table(f) for f in files]
    metas = [{k: v for k, v in (t.schema.metadata or {}).items() if k != b"seeds"} for t in tables]
    assert all(m == metas[0] for m in metas), f"chunks of {files[0].parent} disagree on provenance"
    table = pa.concat_tables([t.replace_schema_metadata(None) for t in tables]).combine_chunks()
    return table.sort_by([(c, "ascending") for c in ("seed", "round") if c in table.column_names]), metas[0]


def _table_digest(table: pa.Table, metadata: dict[bytes, bytes]) -> str:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    meta = json.dumps({k.decode(): v.decode() for k, v in metadata.items()}, sort_keys=True)
    return hashlib.sha256(sink.getvalue().to_pybytes() + meta.encode()).hexdigest()


def fingerprint(work: Path, *, run_rows: bool = False) -> dict[str, str]:
    """sha256 of every output file's bytes. With ``run_rows``, run store files, whose number depends on
    the chunking (``seeds_per_job``), are replaced by one entry per (group, trace or summary): the digest
    of their rows concatenated in seed order, with their provenance metadata less the chunk's seed range."""
    digests, chunks = {}, defaultdict(list)
    for rel, path in output_files(work).items():
        match = RUN_FILE.match(rel) if run_rows else None
        if match:
            chunks[f"results/runs/{match['group']}/chunk-*{match['kind'] or ''}.parquet"].append(
                (int(match["chunk"]), path)
            )
        else:
            digests[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    for key, found in chunks.items():
        digests[key] = _table_digest(*_rows([p for _, p in sorted(found)]))
    return digests


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """Keys present in only one fingerprint or with different digests, sorted."""
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
