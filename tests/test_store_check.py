"""``causal-bandits check-store`` on a finished tiny run: a whole store passes; every damaged or missing file injected
into a copy of it (a paper's trace chunk, a study's trace chunk, a deleted chunk whose aggregate exists, a chunk
copied over another, a summary cut short, a JSON document emptied) is named on its own line with its fix, and
nothing else is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from causal_bandits import cli

pytestmark = pytest.mark.workflow

TINY = ("config/tiny.yaml", "config/ci.yaml")


@pytest.fixture
def store(tiny_run, tmp_path, monkeypatch):
    """A copy of the tiny run's config and results (the run itself is the other tests' reference), as the cwd."""
    work = tmp_path / "run"
    for folder in ("config", "results"):
        shutil.copytree(tiny_run / folder, work / folder)
    monkeypatch.chdir(work)
    return work


def _check(capsys) -> tuple[int, list[str], str]:
    status = cli.main(["check-store", *TINY])
    out = capsys.readouterr()
    return status, out.err.splitlines(), out.out


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF  # inside a data page: its checksum no longer matches
    path.write_bytes(bytes(data))


def test_a_whole_store_passes(store, capsys):
    status, errors, out = _check(capsys)
    assert status == 0 and not errors, errors
    assert out.startswith("ok: the run store is whole: ") and "files/s" in out and "MB/s" in out


def test_every_damaged_or_missing_file_is_named_with_its_fix(store, capsys):
    runs = store / "results" / "runs"
    paper = sorted((runs / "nonmanip").rglob("chunk-*.summary.parquet"))
    trace = sorted(p for p in (runs / "nonmanip").rglob("chunk-*.parquet") if ".summary" not in p.name)
    study = sorted(p for p in (runs / "studies" / "refresh").rglob("chunk-*.parquet") if ".summary" not in p.name)
    deleted = sorted(p for p in (runs / "bounds").rglob("chunk-*.parquet") if ".summary" not in p.name)[0]
    claims = store / "results" / "claims" / "cpe.json"
    _flip(trace[0])  # a paper's trace chunk
    _flip(study[0])  # a study's trace chunk (its report reads only the summaries)
    deleted.unlink()  # its aggregate exists
    shutil.copy(trace[2], trace[1])  # a readable chunk of another job: other seeds or coordinates
    paper[0].write_bytes(paper[0].read_bytes()[:100])  # a summary cut short
    claims.write_text('{"paper": "cpe", ')  # a JSON document cut short
    status, errors, _ = _check(capsys)
    assert status == 2
    assert errors[-1].startswith("error: 6 damaged or missing file(s) in results/") and "files/s" in errors[-1]
    problems = errors[:-1]
    assert len(problems) == 6, problems
    named = {p.relative_to(store).as_posix(): None for p in (trace[0], study[0], deleted, trace[1], paper[0], claims)}
    for path in named:
        line = next((e for e in problems if e.startswith(path)), None)
        assert line is not None, (path, problems)
        named[path] = line
    gone = deleted.relative_to(store).as_posix()
    assert named[gone].endswith(
        f"is missing; rebuild it and what reads it: `snakemake --cores all bounds {gone} --configfile {' '.join(TINY)}`"
    ), named[gone]  # named as a target: a plain rerun finds "nothing to be done" while its aggregate exists
    for path in (trace[0], study[0], trace[1], paper[0], claims):
        relative = path.relative_to(store).as_posix()
        line = named[relative]
        assert "is damaged or from another run" in line and f"`rm {relative} && snakemake --cores all" in line, line
    refresh = study[0].relative_to(store).as_posix()
    assert f"snakemake --cores all refresh {refresh}" in named[refresh]
