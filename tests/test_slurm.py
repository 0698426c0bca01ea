"""The slurm profile on a real single-node SLURM (docs/guide/cluster.md#tested): .ci/slurm_check.sh installs slurm-wlm
and munge when missing, starts a private munged, slurmctld and slurmd, runs the tiny workflow
through workflow/profiles/slurm and compares every Parquet, CSV, Markdown and JSON output byte for
byte with the suite's own local tiny run. It needs root (or the packages installed) and starts
daemons, so it runs when CB_SLURM_CHECK=1, as CI sets it (.ci/run); without it, pytest lists it as
skipped. When the daemons cannot start, the check fails and says why. The check starts in the
background as soon as the tiny run is done (conftest.tiny_runs); this test, run last, waits for its verdict."""

from __future__ import annotations

import os

import pytest

pytestmark = [
    pytest.mark.workflow,
    pytest.mark.skipif(
        os.environ.get("CB_SLURM_CHECK") != "1",
        reason="the real-SLURM check runs when CB_SLURM_CHECK=1 (CI: .ci/run); "
        "it needs root, or slurm-wlm and munge installed",
    ),
]


def test_the_tiny_run_through_slurm_is_byte_identical_to_the_local_one(tiny_runs):
    check = tiny_runs.slurm_check
    returncode = check.wait()
    output = check.log.read_text()
    print(output)  # the check's timings, shown with -rA or on failure
    assert returncode == 0, output[-6000:]
    assert "PASSED" in output
