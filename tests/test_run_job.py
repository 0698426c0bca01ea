"""``causal-bandits run-job``: a job's script run by hand, with the ``snakemake`` object built from the real rule and
the job's wildcards, writes what the workflow wrote; a job it cannot build is refused with one line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from workflow_helpers import TINY, copy_workflow

pytestmark = pytest.mark.workflow

#: A run job: its instance is an input, its description (params) and memory (resources) come from the library.
RUN = ("nonmanip_run", "experiment=fig5b", "strategy=POMIS", "algorithm=ts", "chunk=0")
TRACE = "results/runs/nonmanip/fig5b/POMIS/ts/chunk-0.parquet"
INSTANCE = "results/nonmanip/instances/fig5b.json"


def _run_job(work, *args) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "causal_bandits", "run-job", *args, *TINY]
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    return subprocess.run(command, cwd=work, capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("run_job") / "repo")


def test_a_job_run_by_hand_writes_what_the_workflow_wrote(tiny_run, work):
    missing = _run_job(work, *RUN)
    assert missing.returncode == 2 and f"inputs {INSTANCE} are missing" in missing.stderr, missing.stderr
    (work / INSTANCE).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(tiny_run / INSTANCE, work / INSTANCE)
    done = _run_job(work, *RUN)
    assert done.returncode == 0, done.stderr[-3000:]
    for path in (TRACE, TRACE.replace(".parquet", ".summary.parquet"), "logs/nonmanip/fig5b/POMIS/ts/chunk-0.log"):
        assert (work / path).is_file(), path
    for path in (TRACE, TRACE.replace(".parquet", ".summary.parquet")):
        assert (work / path).read_bytes() == (tiny_run / path).read_bytes(), path


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("nope",), "no rule 'nope' with a script"),
        (("nonmanip_run", "experiment=fig5b"), "takes the wildcards algorithm=... chunk=... experiment=..."),
        (("nonmanip_run", "experiment=fig9", "strategy=POMIS", "algorithm=ts", "chunk=0"), "constraints refuse"),
        (("nonmanip_run", "experiment"), "NAME=VALUE, not experiment"),
    ],
)
def test_a_job_it_cannot_build_is_refused_in_one_line(work, args, expected):
    done = _run_job(work, *args)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and expected in errors[0], done.stderr[-2000:]
