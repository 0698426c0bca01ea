"""``causal-bandits run-job``: a job's script run by hand, with the ``snakemake`` object built from the real rule and
the job's wildcards, writes what the workflow wrote, under the workflow's kernel pin whatever the user's environment
says; a job it cannot build is refused with one line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from test_kernels import OTHER_CPU
from workflow_helpers import HANG_GUARD_S, TINY, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

#: A run job: its instance is an input, its description (params) and memory (resources) come from the library.
RUN = ("nonmanip_run", "experiment=fig5b", "strategy=POMIS", "algorithm=ts", "chunk=0")
TRACE = "results/runs/nonmanip/fig5b/POMIS/ts/chunk-0.parquet"
INSTANCE = "results/nonmanip/instances/fig5b.json"


#: A CCPE-BGLM chunk: its batched small solves come out other bits under other OpenBLAS kernels (tests/test_kernels.py).
BGLM_RUN = ("cpe_run", "experiment=E4-k2", "strategy=practical", "algorithm=ccpe_bglm", "chunk=0")
BGLM_TRACE = "results/runs/cpe/E4-k2/practical/ccpe_bglm/chunk-0.parquet"


def _run_job(work, *args, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "causal_bandits", "run-job", *args, *TINY]
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(work / "src")}
    return subprocess.run(command, cwd=work, capture_output=True, text=True, env=env, timeout=HANG_GUARD_S)


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


def test_a_job_run_by_hand_runs_under_the_workflows_kernel_pin(work):
    """Under another CPU's kernels in the user's environment (OpenBLAS's Prescott, numpy's baseline), run-job restarts
    itself pinned, says so first, and writes the bytes the workflow wrote for a CCPE-BGLM chunk; a user's
    NPY_ENABLE_CPU_FEATURES, which numpy refuses beside the pin, is one line with the fix. The bytes catch a missing
    pin only on a CPU whose own kernels change this chunk (an AVX-512 one did; the AMD EPYC test machine's do not):
    the first line, written once numpy in the process runs on its baseline (kernels.applied), catches it anywhere."""
    summary = BGLM_TRACE.replace(".parquet", ".summary.parquet")
    built = snakemake(work, "--cores", "1", *TINY, "--", BGLM_TRACE)
    assert built.returncode == 0, built.stderr[-3000:]
    reference = {path: (work / path).read_bytes() for path in (BGLM_TRACE, summary)}
    for path in reference:
        (work / path).unlink()
    done = _run_job(work, *BGLM_RUN, env=OTHER_CPU)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr.startswith("run-job: CPU kernels pinned as the workflow's jobs'"), done.stderr[:500]
    assert "(numpy on its baseline;" in done.stderr and "OPENBLAS_CORETYPE=Nehalem" in done.stderr.splitlines()[0]
    for path, data in reference.items():
        assert (work / path).read_bytes() == data, path
    refused = _run_job(work, *BGLM_RUN, env={"NPY_ENABLE_CPU_FEATURES": "AVX2"})
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr[-2000:]
    assert refused.stderr.startswith("error: NPY_ENABLE_CPU_FEATURES='AVX2' is set") and "unset" in refused.stderr
