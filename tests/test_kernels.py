"""Same bytes on another CPU: the jobs' floating point does not depend on OpenBLAS's kernels or numpy's SIMD dispatch.

A CPU is stood in for by what it makes the libraries choose: OpenBLAS's core type (``OPENBLAS_CORETYPE``) and numpy's
dispatched feature groups (``NPY_DISABLE_CPU_FEATURES``). First, without the workflow, the batched small solves of
CCPE-BGLM's estimate (cpe Algorithm 2) give other bits under another core type: the variables reach the libraries, so
the comparison below could fail (it did before the pin: causal_bandits.kernels). Then the tiny run's numeric run jobs
(CCPE-BGLM, OAM-PCB, LinUCB, Fair-LinUCB, POMIS+) are rebuilt under the generic core type with numpy on its baseline
SIMD code, and every file is compared byte for byte with the tiny run's, made under this machine's own choice.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from workflow_helpers import HANG_GUARD_S, ROOT, TINY, copy_workflow, snakemake
from workflow_outputs import differences, fingerprint

from causal_bandits import kernels
from causal_bandits.errors import CausalBanditsError

#: A CPU other than this one, as the libraries see it: OpenBLAS's generic x86-64 kernels (they run on any x86-64
#: CPU), and numpy on its baseline code for every group above it.
OTHER_CPU = {"OPENBLAS_CORETYPE": "Prescott", "NPY_DISABLE_CPU_FEATURES": " ".join(kernels.dispatched_features())}
#: The known case and a run job of each algorithm that calls BLAS or LAPACK.
NUMERIC_CHUNKS = (
    "results/runs/cpe/E4-k2/practical/ccpe_bglm/chunk-0.parquet",
    "results/runs/bounds/appendix/default/oam_pcb/chunk-0.parquet",
    "results/runs/bounds/online/alpha-2/linucb/chunk-0.parquet",
    "results/runs/fairness/adult_video/default/fairlinucb/chunk-0.parquet",
    "results/runs/nonmanip/fig5a/POMISplus/ts/chunk-0.parquet",
)

#: CCPE-BGLM's Newton step on 2x2-6x6 information matrices of 500 seeds (bglm_estimate.fit), its bytes' sha256.
SOLVE = """
import hashlib, numpy as np
rng = np.random.default_rng(0)
out = []
for d in range(2, 7):
    a = rng.normal(size=(500, d, d))
    out.append(np.linalg.solve(a @ a.transpose(0, 2, 1) + np.eye(d), rng.normal(size=(500, d, 1))).tobytes())
print(hashlib.sha256(b"".join(out)).hexdigest())
"""


def _solve(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", SOLVE], env={**os.environ, **env}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_core_type_changes_the_solves_bits_and_the_pin_makes_them_one():
    """Under this machine's own choice and the generic kernels the solves differ (so the variables reach OpenBLAS);
    under the pin, the environment's core type changes nothing."""
    assert _solve({}) != _solve(OTHER_CPU)
    pinned = kernels.pinned()
    assert _solve(pinned) == _solve({**OTHER_CPU, **pinned})


def test_the_pin_names_numpys_dispatch_and_a_generic_core():
    env = kernels.pinned("x86_64")
    assert env["OPENBLAS_CORETYPE"] == "Nehalem" and env["OPENBLAS_NUM_THREADS"] == "1"
    assert set(env["NPY_DISABLE_CPU_FEATURES"].split()) == set(kernels.dispatched_features())
    assert "OPENBLAS_CORETYPE" not in kernels.pinned("riscv64")


@pytest.mark.workflow
def test_the_numeric_run_jobs_give_the_same_bytes_on_another_cpu(tiny_run, tmp_path, monkeypatch):
    for name, value in OTHER_CPU.items():
        monkeypatch.setenv(name, value)
    work = copy_workflow(tmp_path / "repo")
    done = snakemake(work, "--cores", "2", *NUMERIC_CHUNKS, *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    rebuilt = fingerprint(work)
    assert set(NUMERIC_CHUNKS) <= rebuilt.keys()
    reference = {path: digest for path, digest in fingerprint(tiny_run).items() if path in rebuilt}
    assert differences(rebuilt, reference) == []


def test_a_users_npy_enable_cpu_features_is_one_line_with_the_fix():
    """numpy refuses NPY_DISABLE_CPU_FEATURES beside NPY_ENABLE_CPU_FEATURES (a 71-line import report in every job):
    the pin says so first, in one line (and so the workflow, before it plans a job: the next test)."""
    with pytest.raises(CausalBanditsError, match=r"^NPY_ENABLE_CPU_FEATURES='AVX2' is set.*unset NPY_ENABLE_CPU_FEAT"):
        kernels.pinned(environ={"NPY_ENABLE_CPU_FEATURES": "AVX2"})
    assert "NPY_DISABLE_CPU_FEATURES" in kernels.pinned(environ={"NPY_ENABLE_CPU_FEATURES": ""})


@pytest.mark.workflow
def test_the_workflow_stops_on_a_users_npy_enable_cpu_features_in_one_line():
    env = {**os.environ, "NPY_ENABLE_CPU_FEATURES": "AVX2"}
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--workflow-profile", "none", *TINY],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode != 0 and len(errors) == 1 and "unset NPY_ENABLE_CPU_FEATURES" in errors[0], done.stderr


def test_run_job_restarts_itself_under_the_pin_and_says_so(tmp_path):
    """Started from an unpinned environment, run-job restarts pinned before anything else (its first line, written once
    numpy in the process runs on its baseline); called from Python, where it cannot restart, it refuses in one line."""
    env = {k: v for k, v in os.environ.items() if k not in kernels.pinned()}
    done = subprocess.run(
        [sys.executable, "-m", "causal_bandits", "run-job", "x"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    first, second = done.stderr.splitlines()
    assert first.startswith("run-job: CPU kernels pinned as the workflow's jobs' (numpy on its baseline;"), done.stderr
    assert second.startswith("error: no workflow at workflow/Snakefile") and done.returncode == 2
    if not kernels.applied(kernels.pinned()):  # this process: pytest, unpinned
        with pytest.raises(CausalBanditsError, match=r"^run-job would run outside the workflow's kernel pin"):
            kernels.pin_command("run-job")
