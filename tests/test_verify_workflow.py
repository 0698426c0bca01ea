"""``causal-bandits archive`` on the tiny run and ``causal-bandits verify`` in a fresh copy of the
repository: a clean sample is byte-identical, a manifest entry that does not match what the jobs
make is reported file by file with exit status 1, and a checkout whose code differs is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from conftest import ROOT, copy_workflow

from causal_bandits import logs
from causal_bandits.archive import manifest, provenance, verify

pytestmark = pytest.mark.workflow

#: A small sample: the tiny run's chunks take 2-5 CPU-s each, so about ten jobs.
BUDGET = ("--budget", "1.6", "--jobs", "2", "--seed", "3")


def _cli(cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(cwd / "src")}
    command = [sys.executable, "-m", "causal_bandits", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=900)


@pytest.fixture(scope="module")
def tiny_archive(tiny_run, tmp_path_factory):
    """The tiny run archived. Tests on another worker edit a module of the tiny run's copy for a moment
    (test_workflow.py's rerun checks): an archive that caught such an edit is made again."""
    out = tmp_path_factory.mktemp("archive") / "tiny"
    for _ in range(5):
        done = _cli(tiny_run, "archive", "--configfile", "config/tiny.yaml", "config/ci.yaml", "--out", str(out))
        assert done.returncode == 0, done.stderr
        made = manifest.read(out)["provenance"]
        if made["code"] == provenance.code_files(ROOT, (p for p in made["code"] if p.startswith("src/"))):
            break
        time.sleep(5)
    assert done.stdout.startswith("archived ")
    return out


def test_the_archive_lists_every_output_of_the_tiny_run_with_its_job(tiny_run, tiny_archive):
    made = manifest.read(tiny_archive)
    outputs = {o["path"]: o for job in made["jobs"] for o in job["outputs"]}
    assert "figures/REPORT.md" in made["artefacts"] and (tiny_archive / "figures" / "REPORT.md").is_file()
    runs = [job for job in made["jobs"] if job["rule"] == "nonmanip_run"]
    assert runs and all("chunk" in job["wildcards"] for job in runs)
    for job in runs:  # CPU and memory as the job measured them at its end (the last line of its log)
        assert job["cpu_exact"] and (job["cpu_s"], job["max_rss_mb"]) == logs.read_resources(tiny_run / job["log"])
        # the process imported numpy and ran the engine: more than a Python start-up's CPU and memory
        assert job["cpu_s"] > 0.1 and job["max_rss_mb"] > 30
    assert made["run"]["exact_jobs"] == made["run"]["measured_jobs"] == len(made["jobs"])
    for path, entry in list(outputs.items())[::15]:
        assert (tiny_run / path).stat().st_size == entry["bytes"], path
        assert manifest.describe_file(tiny_run / path, path)["sha256"] == entry["sha256"], path
    assert made["provenance"]["config"]["files"] == ["config/tiny.yaml", "config/ci.yaml"]
    assert made["run"]["jobs"] == len(made["jobs"]) and made["run"]["cpu_hours"] > 0


def test_verify_rebuilds_a_sample_byte_identical_and_reports_a_file_that_differs(tiny_archive, tmp_path):
    checkout = copy_workflow(tmp_path / "checkout")
    done = _cli(checkout, "verify", str(tiny_archive), *BUDGET)
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = done.stdout.strip().splitlines()[-1]
    sampled = int(verdict.split(" of ")[1].split()[0])
    assert sampled >= 3 and verdict.startswith(f"{sampled} of {sampled} sampled jobs byte-identical"), verdict
    assert "seed 3" in verdict

    # A manifest whose entry for one sampled output is not what the job makes (digest recomputed).
    made = json.loads((tiny_archive / manifest.MANIFEST).read_text())
    chosen = verify.sample(made["jobs"], (96 - verify.OVERHEAD_S) * 2 * verify.EFFICIENCY, 3)
    entry = made["jobs"][chosen[0]]["outputs"][0]
    entry["sha256"] = entry.get("data_sha256", "0" * 64)
    if "data_sha256" in entry:
        entry["data_sha256"] = "0" * 64
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    for artefact in made["artefacts"]:
        (wrong / artefact).parent.mkdir(parents=True, exist_ok=True)
        (wrong / artefact).write_bytes((tiny_archive / artefact).read_bytes())
    made.pop("digest")
    manifest.write(wrong / manifest.MANIFEST, made)
    done = _cli(checkout, "verify", str(wrong), *BUDGET)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"differs: {entry['path']}: archived sha256" in done.stdout
    assert f"{sampled - 1} of {sampled} sampled jobs byte-identical, 1 differ" in done.stdout


def test_verify_refuses_a_checkout_whose_code_differs_in_one_line(tiny_archive, tmp_path):
    checkout = copy_workflow(tmp_path / "checkout")
    with open(checkout / "src" / "causal_bandits" / "store.py", "a") as module:
        module.write("EDITED = True  # code, not a comment: a comment changes no digest\n")
    done = _cli(checkout, "verify", str(tiny_archive), *BUDGET)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "differs from the archived run" in done.stderr
    assert "the code (1 file: src/causal_bandits/store.py)" in done.stderr and "--force" in done.stderr
