"""A damaged intermediate file is named where it is read, with the command that removes it; the workflow
then rebuilds it (or stops again with the same line), never ends in a false success."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from workflow_helpers import HANG_GUARD_S, TINY, copy_finished_run, copy_workflow, snakemake

from causal_bandits import csv_tables, logs, store
from causal_bandits.aggregate import read_traces
from causal_bandits.errors import DataError

TRACE = pa.table(
    {
        "seed": pa.array([0, 0, 1, 1], pa.int32()),
        "round": pa.array([1, 2, 1, 2], pa.int32()),
        "cum_regret": np.linspace(0.0, 1.0, 4),
        "cum_realized_regret": np.linspace(0.0, 2.0, 4),
        "optimal": [True, False, True, True],
    }
)


def _flip(path, at):
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def _damaged_line(path):
    return rf"^{path} is damaged or from another run \(.*\); remove it with `rm {path}` and rerun"


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
        lambda p: p.write_bytes(b""),
        lambda p: _flip(p, 60),  # inside the first data page: caught by its checksum
        lambda p: p.write_text('{"not": "parquet"}'),
    ],
    ids=["truncated", "empty", "byte flipped", "another format"],
)
def test_a_damaged_parquet_file_is_named_with_the_command_that_removes_it(tmp_path, damage):
    path = tmp_path / "chunk-0.parquet"
    store.write_table(path, TRACE, {})
    assert store.read_table(path).equals(TRACE)
    damage(path)
    with pytest.raises(DataError, match=_damaged_line(path)) as err:
        store.read_table(path)
    assert "\n" not in str(err.value)


def test_every_byte_flip_of_a_chunk_is_caught_or_harmless_to_the_columns_read(tmp_path):
    path = tmp_path / "chunk-0.parquet"
    store.write_table(path, TRACE, {})
    good = path.read_bytes()
    for at in range(4, len(good) - 8):  # the magic bytes and the footer's length aside
        _flip(path, at)
        with contextlib.suppress(DataError):
            assert store.read_table(path, TRACE.column_names).equals(TRACE), at
        path.write_bytes(good)


def test_a_chunk_without_a_trace_column_or_with_another_chunks_seeds_is_named(tmp_path):
    first, second = tmp_path / "chunk-0.parquet", tmp_path / "chunk-1.parquet"
    store.write_table(first, TRACE, {})
    store.write_table(second, TRACE.drop(["optimal"]), {})
    with pytest.raises(DataError, match=_damaged_line(second)):
        read_traces([first, second])
    shutil.copy(first, second)  # a chunk copied over another
    with pytest.raises(DataError, match=rf"{second} is damaged .*seed 0 is also in {first}"):
        read_traces([first, second])


def test_a_json_file_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "instance.json"
    store.write_json(path, {"experiment": "x"})
    path.write_text(path.read_text()[:10])
    with pytest.raises(DataError, match=_damaged_line(path)):
        store.read_json(path)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(DataError, match=_damaged_line(path)):
        store.read_json(path)


#: One file of each kind in a finished tiny run, and how it is damaged: a run chunk cut short, an aggregate
#: emptied, an instance document cut mid-JSON.
DAMAGES = {
    "results/runs/nonmanip/fig5a/POMIS/ts/chunk-0.parquet": lambda p: p.write_bytes(p.read_bytes()[:100]),
    "results/nonmanip/agg/fig5b.parquet": lambda p: p.write_bytes(b""),
    "results/nonmanip/instances/fig5c.json": lambda p: p.write_text(p.read_text()[:10]),
}


#: The damage whose fix is also carried out and its rebuild compared byte for byte with the run (one: the rebuild
#: is the same mechanism for every file, and rebuilding an instance redoes most of a paper).
REBUILT = ("results/runs/nonmanip/fig5a/POMIS/ts/chunk-0.parquet",)


def _errors(result):
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


@pytest.mark.workflow
@pytest.mark.parametrize("damaged_file", list(DAMAGES))
def test_a_damaged_file_of_a_finished_run_is_named_until_removed_then_rebuilt(tiny_run, tmp_path, damaged_file):
    work = copy_finished_run(tiny_run, tmp_path / "repo")
    DAMAGES[damaged_file](work / damaged_file)
    for attempt in (1, 2):  # the second run must not believe the first: no "Nothing to be done"
        result = snakemake(work, "nonmanip", "--cores", "2", *TINY)
        assert result.returncode != 0, (attempt, result.stderr[-3000:])
        assert "Nothing to be done" not in result.stderr
        errors = _errors(result)
        assert errors and all(f"remove it with `rm {damaged_file}` and rerun" in e for e in errors), errors
    if damaged_file not in REBUILT:
        return
    (work / damaged_file).unlink()
    result = snakemake(work, "nonmanip", "--cores", "2", *TINY)
    assert result.returncode == 0, result.stderr[-3000:]
    for folder in ("results/nonmanip", "results/runs/nonmanip", "figures/nonmanip"):
        for ref in sorted((tiny_run / folder).rglob("*")):
            if ref.is_file():
                rebuilt = work / ref.relative_to(tiny_run)
                assert rebuilt.read_bytes() == ref.read_bytes(), rebuilt


#: A run chunk of the tiny config, and the instance document it reads (damaged in :data:`DAMAGES`).
CHUNK, INSTANCE = "results/runs/nonmanip/fig5c/BF/ts/chunk-0.parquet", "results/nonmanip/instances/fig5c.json"


@pytest.mark.workflow
def test_a_damaged_file_is_the_last_line_printed_and_the_first_of_the_logs_summary(tmp_path):
    """As a user runs (the local profile): a damaged file's one line, naming it and its fix, ends the console and
    begins the failure summary of Snakemake's log (.snakemake/log/), right after "a job execution failed"."""
    work = copy_workflow(tmp_path / "repo")
    built = snakemake(work, INSTANCE, "--cores", "1", *TINY)
    assert built.returncode == 0, built.stderr[-3000:]
    DAMAGES[INSTANCE](work / INSTANCE)
    result = snakemake(work, CHUNK, "--cores", "1", *TINY, local_profile=True)
    assert result.returncode != 0
    line = result.stderr.rstrip().splitlines()[-1]
    assert line.startswith(f"error: {INSTANCE} is damaged or from another run"), result.stderr[-3000:]
    assert f"remove it with `rm {INSTANCE}` and rerun" in line and line.endswith(
        " (job log: logs/nonmanip/fig5c/BF/ts/chunk-0.log)"
    ), line
    log = max((work / ".snakemake" / "log").glob("*.snakemake.log"))  # this run's: the names are start times
    summary = log.read_text().partition("Exiting because a job execution failed. Look above for error messages\n")[2]
    assert summary.splitlines()[0] == line, summary
    assert not (work / CHUNK).exists()


def test_a_failed_run_removes_the_outputs_it_had_still_to_redo(tmp_path, capsys):
    stale, absent = tmp_path / "figures" / "table1.md", tmp_path / "results" / "agg.parquet"
    stale.parent.mkdir()
    stale.write_text("built from the aggregate before it was damaged\n")
    assert logs.drop_unfinished([stale, absent]) == [stale]
    assert not stale.exists()
    assert capsys.readouterr().err == (
        f"removed 1 output(s) this run had to redo but did not (e.g. {stale}): the next run rebuilds them\n"
    )
    assert logs.drop_unfinished([absent]) == [] and capsys.readouterr().err == ""


def test_a_damaged_csv_table_or_parquet_footer_is_named(tmp_path):
    table = tmp_path / "table1.csv"
    table.write_text("algorithm,regret\nts,1.5\n")
    assert csv_tables.read_csv(table)["regret"].tolist() == [1.5]
    for damage in (b"", b"\xff\xfe\x00\x01", b'algorithm,regret\n"ts,1.5\n'):
        table.write_bytes(damage)
        with pytest.raises(DataError, match=_damaged_line(table)):
            csv_tables.read_csv(table)
    chunk = tmp_path / "chunk-0.parquet"
    store.write_table(chunk, TRACE, {"config_hash": "abc"})
    assert store.read_metadata(chunk)["config_hash"] == "abc"
    chunk.write_bytes(chunk.read_bytes()[:-20])
    with pytest.raises(DataError, match=_damaged_line(chunk)):
        store.read_metadata(chunk)


#: A piece of the tiny run: one aggregate of nonmanip (its instance, catalogue and run jobs) and one study's run job.
STUDY_TRACE = "results/runs/studies/same_means/0/fig5b/POMIS/ts/chunk-0.parquet"
PIECE = ("results/nonmanip/agg/fig5b.parquet", STUDY_TRACE)


def _results(work):
    return {
        p.relative_to(work).as_posix(): p.read_bytes() for p in sorted((work / "results").rglob("*")) if p.is_file()
    }


def _same_time(path, like):
    """Give ``path`` the modification time of ``like``: damage that leaves no newer file behind (a disk's, a copy's)."""
    stat = like.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.workflow
def test_run_files_deleted_or_zeroed_after_a_run_are_rebuilt_with_what_reads_them(tmp_path, monkeypatch):
    """A deleted chunk, a deleted chunk summary and a zeroed study trace leave a plain rerun at "Nothing to be done";
    check-store --before-run (run by make reproduce, quick, run and studies before Snakemake) removes the damaged
    file and names the three as targets, and the run with them rebuilds them, to the bit (and what reads them where
    their bytes changed: Snakemake compares input checksums). Then the fix a damaged chunk's error prints (archive's,
    every reader's) is carried out as printed."""
    work = copy_workflow(tmp_path / "repo")
    built = snakemake(work, "--cores", "2", *TINY, "--", *PIECE)
    assert built.returncode == 0, built.stderr[-3000:]
    reference = _results(work)
    runs = work / "results" / "runs" / "nonmanip" / "fig5b"
    traces = sorted(p for p in runs.rglob("chunk-*.parquet") if not p.name.endswith(".summary.parquet"))
    deleted, summary, zeroed = traces[0], Path(store.summary_path(traces[1])), work / STUDY_TRACE
    deleted.unlink()
    summary.unlink()
    zeroed.write_bytes(b"")
    _same_time(zeroed, work / PIECE[0])
    plain = snakemake(work, "--cores", "2", *TINY, "--", *PIECE)
    assert plain.returncode == 0 and "Nothing to be done" in plain.stderr, plain.stderr[-3000:]  # the defect
    repair = _cli(work, "check-store", "--before-run", *TINY[1:])
    assert repair.returncode == 0, repair.stderr[-3000:]
    first, *targets = repair.stdout.split()
    named = {deleted.relative_to(work).as_posix(), summary.relative_to(work).as_posix(), STUDY_TRACE}
    assert first == "all" and set(targets) == named, repair.stdout
    assert f"check-store: {STUDY_TRACE} is damaged (empty): removed" in repair.stderr and not zeroed.exists()
    rerun = snakemake(work, "--cores", "2", *TINY, "--", *PIECE, *targets)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert _results(work) == reference
    again = _cli(work, "check-store", "--before-run", *TINY[1:])
    assert again.returncode == 0 and again.stdout == "", again.stdout

    bit = traces[2]
    data = bytearray(bit.read_bytes())
    data[60] ^= 0xFF  # inside the first data page: its checksum fails
    bit.write_bytes(bytes(data))
    _same_time(bit, work / PIECE[0])
    monkeypatch.chdir(work)  # as the workflow's jobs and archive read it: relative to the run's folder
    with pytest.raises(store.DamagedFile) as err:
        store.read_table(bit.relative_to(work))
    remove, rebuild = re.findall(r"`([^`]+)`", str(err.value))[:2]
    assert remove == f"rm {bit.relative_to(work)}"
    subprocess.run(shlex.split(remove), cwd=work, check=True)
    first = subprocess.run(
        [*shlex.split(rebuild.replace("snakemake", f"{sys.executable} -m snakemake", 1)), *TINY],
        cwd=work,
        env={**os.environ, "PYTHONPATH": str(work / "src")},
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    assert first.returncode == 0, first.stderr[-3000:]
    then = snakemake(work, "--cores", "2", *TINY, "--", *PIECE)  # the rebuilt bytes are the old: nothing to redo
    assert then.returncode == 0 and _results(work) == reference, then.stderr[-3000:]


def _cli(work, *args):
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    command = [sys.executable, "-m", "causal_bandits", *args]
    return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S)
