"""The byte guard (:mod:`causal_bandits.archive.byte_guard`): the tiny run writes the bytes tests/tiny_digests.txt
lists, and an output whose bytes moved without the list is named.

``make tiny-digests REASON="..."`` runs :func:`test_the_tiny_run_writes_the_listed_bytes` with
``CB_TINY_DIGESTS_REASON`` set: it writes the list from the tiny run instead of comparing."""

from __future__ import annotations

import os

import pytest
from workflow_helpers import ROOT
from workflow_outputs import fingerprint

from causal_bandits.archive import byte_guard
from causal_bandits.errors import CausalBanditsError

LISTED = ROOT / byte_guard.LIST


@pytest.mark.workflow
def test_the_tiny_run_writes_the_listed_bytes(tiny_run):
    found = fingerprint(tiny_run)
    if reason := os.environ.get("CB_TINY_DIGESTS_REASON"):
        byte_guard.write(LISTED, found, reason)
    _, listed = byte_guard.read(LISTED)
    moved = byte_guard.moved(listed, found)
    assert not moved, (
        f"{len(moved)} outputs of the tiny run moved without {byte_guard.LIST}: if on purpose, update it in this "
        'commit (make tiny-digests REASON="why"):\n' + "\n".join(moved[:40])
    )


def test_the_committed_list_reads_and_names_its_reason():
    reason, listed = byte_guard.read(LISTED)
    assert reason and len(listed) > 100
    assert any(path.startswith("results/runs/") for path in listed) and "figures/REPORT.md" in listed


def test_a_planted_byte_change_an_extra_and_a_missing_output_are_each_named(tmp_path):
    _, listed = byte_guard.read(LISTED)
    found = dict(listed)
    changed = next(p for p in sorted(found) if p.endswith(".parquet"))
    found[changed] = "0" * 64
    gone = sorted(found)[-1]
    del found[gone]
    found["results/new.csv"] = "1" * 64
    moved = byte_guard.moved(listed, found)
    assert moved == sorted(
        [
            f"{changed}: listed sha256 {listed[changed][:12]}, written 000000000000",
            f"{gone}: listed, not written by the tiny run",
            "results/new.csv: written by the tiny run, not listed",
        ]
    )
    assert byte_guard.moved(listed, dict(listed)) == []


def test_the_list_is_written_with_its_reason_and_read_back(tmp_path):
    path = tmp_path / "digests.txt"
    byte_guard.write(path, {"b/x.csv": "a" * 64, "a/y.md": "b" * 64}, "the CSV's column order")
    assert byte_guard.read(path) == ("the CSV's column order", {"a/y.md": "b" * 64, "b/x.csv": "a" * 64})
    with pytest.raises(CausalBanditsError, match="needs a one-line reason"):
        byte_guard.write(path, {}, " ")
    path.write_text("# reason: x\nnot a line\n")
    with pytest.raises(CausalBanditsError, match=r"digests.txt:2: not 'sha256  path'"):
        byte_guard.read(path)
