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

from workflow_outputs import differences, fingerprint

pytestmark = pytest.mark.workflow


def test_tiny_run_is_byte_identical_across_cores_and_seeds_per_job(tiny_runs):
    # The reference ran on 2 cores with the config's seeds_per_job (2: one chunk of two seeds). The
    # variant (conftest.TINY_VARIANT, run beside it) changes both at once, one core and one seed per
    # job: a difference names the files, and rerunning with one change at a time would tell which
    # change caused it; a variant per change would cost CI another tiny run.
    reference_dir, work = tiny_runs.reference, tiny_runs.variant
    assert tiny_runs.variant_run.wait() == 0, tiny_runs.variant_run.log.read_text()[-5000:]

    assert len(list((reference_dir / "results" / "runs").rglob("chunk-1.parquet"))) == 0  # one chunk per group
    assert len(list((work / "results" / "runs").rglob("chunk-1.parquet"))) > 0  # two chunks per group
    reference = fingerprint(reference_dir, run_rows=True)
    assert differences(reference, fingerprint(work, run_rows=True)) == []
    # What is compared: every kind of output the issue names.
    suffixes = {key.rsplit(".", 1)[-1] for key in reference}
    assert {"parquet", "csv", "md", "json", "html", "pdf", "png"} <= suffixes
    assert {"figures/REPORT.md", "figures/REPORT.html"} <= reference.keys()
