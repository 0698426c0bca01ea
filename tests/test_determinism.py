"""Bit-for-bit determinism: the tiny workflow gives the same bytes whatever the cores and the chunking.

Compared: every output under results/, figures/ and data/ — Parquet, CSV, Markdown, JSON, the report
(figures/REPORT.md, REPORT.html), PDF and PNG figures — byte for byte. Run store files are the one
exception when the chunking changes: their number is ``n_seeds / seeds_per_job`` per group, so for them
the rows of all chunks of a group, concatenated in seed order (and their provenance less each chunk's
seed range), are compared instead; everything downstream of them (aggregates, tables, figures, claims,
report) is compared byte for byte. Logs and Snakemake's benchmark files record times, so they are
not outputs and are not compared.
"""

from __future__ import annotations

import pytest

from conftest import TINY, copy_workflow, start_snakemake
from workflow_outputs import differences, fingerprint

pytestmark = pytest.mark.workflow


def test_tiny_run_is_byte_identical_across_cores_and_seeds_per_job(tiny_run, tmp_path):
    # The reference ran on 2 cores with the config's seeds_per_job (2: one chunk of two seeds); each
    # variant changes one thing. They run side by side, one core each.
    variants = {"1 core": ("--cores", "1"), "1 core, seeds_per_job 1": ("--cores", "1", "--config", "seeds_per_job=1")}
    procs = {}
    for name, args in variants.items():
        work = copy_workflow(tmp_path / name.replace(" ", "_").replace(",", "") / "repo")
        procs[name] = work, start_snakemake(work, *args, *TINY, log=work.parent / "snakemake.log")
    for name, (work, proc) in procs.items():
        assert proc.wait(timeout=1800) == 0, (work.parent / "snakemake.log").read_text()[-5000:]

    one_core = procs["1 core"][0]
    assert len(list((one_core / "results" / "runs").rglob("chunk-1.parquet"))) == 0  # one chunk per group
    assert differences(fingerprint(tiny_run), fingerprint(one_core)) == []

    rechunked = procs["1 core, seeds_per_job 1"][0]
    assert len(list((rechunked / "results" / "runs").rglob("chunk-1.parquet"))) > 0  # two chunks per group
    reference = fingerprint(tiny_run, run_rows=True)
    assert differences(reference, fingerprint(rechunked, run_rows=True)) == []
    # What is compared: every kind of output the issue names.
    suffixes = {key.rsplit(".", 1)[-1] for key in reference}
    assert {"parquet", "csv", "md", "json", "html", "pdf", "png"} <= suffixes
    assert {"figures/REPORT.md", "figures/REPORT.html"} <= reference.keys()
