"""``archive`` and ``verify`` end to end on a workflow of ten jobs (seconds, where the tiny run takes minutes): the
archive keeps the intermediates the derived jobs read; ``verify`` rebuilds a sample from scratch (level 1) and the
derived jobs from those intermediates (level 2), ``--all`` every job; an archived aggregate forged together with its
manifest entry is found by level 2.

The workflow: three instances, a run chunk on each (``results/runs/``: a trace and a summary), an aggregate of the
traces, a table of the aggregate and of instance 0, a listing of the seeds in the summaries (derived: the archive
keeps the summaries, as it does for cpe's aggregates and the studies' reports, and Snakemake reads them without
their traces), and a listing of instance 1 that nothing reads, as a file and as a folder (a ``directory()`` output,
as the planned seeds' runs are: archived and compared by the sha256 of its files).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from workflow_helpers import HANG_GUARD_S, ROOT

from causal_bandits.archive import manifest

pytestmark = pytest.mark.workflow

SNAKEFILE = """\
configfile: "config/config.yaml"


rule all:
    input:
        "figures/table.md",
        "results/listing.txt",
        "results/agg/seeds.txt",


rule instance:
    input:
        "config/config.yaml",
    output:
        "results/inst/{i}.txt",
    shell:
        "echo instance {wildcards.i} > {output}"


rule run:
    input:
        "results/inst/{i}.txt",
    output:
        trace="results/runs/x/{i}.parquet",
        summary="results/runs/x/{i}.summary.parquet",
    run:
        import pyarrow as pa
        import pyarrow.parquet as pq

        text = open(input[0]).read()
        pq.write_table(pa.table({"line": [text, text]}), output.trace)
        pq.write_table(pa.table({"seed": [int(wildcards.i)]}), output.summary)


rule seeds:
    input:
        expand("results/runs/x/{i}.summary.parquet", i=range(3)),
    output:
        "results/agg/seeds.txt",
    run:
        import pyarrow.parquet as pq

        open(output[0], "w").write(" ".join(str(pq.read_table(f)["seed"][0]) for f in input))


rule aggregate:
    input:
        expand("results/runs/x/{i}.parquet", i=range(3)),
    output:
        "results/agg/all.txt",
    run:
        import pyarrow.parquet as pq

        open(output[0], "w").write("".join(line for f in input for line in pq.read_table(f)["line"].to_pylist()))


rule table:
    input:
        "results/agg/all.txt",
        "results/inst/0.txt",
    output:
        "figures/table.md",
    shell:
        "cat {input} | sort > {output}"


rule listing:
    input:
        "results/inst/1.txt",
    output:
        "results/listing.txt",
        directory("results/listed"),
    shell:
        "cp {input} {output[0]} && mkdir -p {output[1]}/sub && cp {input} {output[1]}/sub/1.txt"
"""


def _cli(cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TMPDIR": str(cwd.parent / "tmp")}
    return subprocess.run(
        [sys.executable, "-m", "causal_bandits", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=HANG_GUARD_S,
    )


def _checkout(tmp_path):
    work = tmp_path / "repo"
    for folder in ("workflow", "config", "src"):
        (work / folder).mkdir(parents=True)
    (work / "workflow" / "Snakefile").write_text(SNAKEFILE)
    (work / "config" / "config.yaml").write_text("x: 1\n")
    (work / "requirements.lock").write_text("numpy==2\n")
    (tmp_path / "tmp").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "1", "--workflow-profile", "none"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return work


def test_verify_checks_a_sample_from_scratch_and_every_derived_job_from_the_intermediates(tmp_path):
    work = _checkout(tmp_path)
    done = _cli(work, "archive", "--out", "archive/run")
    assert done.returncode == 0, done.stderr
    made = manifest.read(work / "archive" / "run")
    assert made["format"] == 2
    summaries = [f"results/runs/x/{i}.summary.parquet" for i in range(3)]
    assert made["intermediates"] == ["results/agg/all.txt", "results/inst/0.txt", *summaries]
    assert (work / "archive" / "run" / "results" / "agg" / "all.txt").is_file()
    listed = next(o for job in made["jobs"] for o in job["outputs"] if o["path"] == "results/listed")
    assert listed["bytes"] == len("instance 1\n") and len(listed["sha256"]) == 64

    done = _cli(work, "verify", "archive/run", "--budget", "60", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = done.stdout.strip().splitlines()[-1]
    assert (
        "level 1, from scratch (seed 0): 8 of 8 jobs (3 run chunks, 1 aggregates, 4 others) byte-identical" in verdict
    )
    # the seeds listing reads the kept summaries without their traces: derived, rebuilt at level 2
    assert "level 2, from the archived intermediates: 2 of 2 jobs (2 derived) byte-identical (2 files)" in verdict
    assert "archive: run made at an unknown commit" in done.stdout  # not a git checkout: nothing vouches for it
    assert list((tmp_path / "tmp").iterdir()) == []  # no scratch folder left

    done = _cli(work, "verify", "archive/run", "--all", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every job from scratch: 10 of 10 jobs" in done.stdout.strip().splitlines()[-1]
    assert "(14 files)" in done.stdout.strip().splitlines()[-1]  # the folder output one of them

    # the aggregate forged, with its manifest entry and the manifest's digest: level 2 rebuilds the table from it
    forged = work / "archive" / "run" / "results" / "agg" / "all.txt"
    forged.write_text("instance 9\n")
    record = json.loads((work / "archive" / "run" / manifest.MANIFEST).read_text())
    for job in record["jobs"]:
        for entry in job["outputs"]:
            if entry["path"] == "results/agg/all.txt":
                entry.update(manifest.describe_file(forged, entry["path"]))
    record.pop("digest")
    manifest.write(work / "archive" / "run" / manifest.MANIFEST, record)
    done = _cli(work, "verify", "archive/run", "--budget", "60", "--jobs", "1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "differs: figures/table.md: archived sha256" in done.stdout
    assert "level 2, from the archived intermediates: 1 of 2 jobs (2 derived) byte-identical, 1 differ" in done.stdout


def test_a_verification_stopped_in_its_scratch_folder_goes_on_there(tmp_path):
    """``--scratch DIR`` keeps the rebuilt files; the same command run again after a stop (here: one job's output
    gone and the stopped run's lock left behind) rebuilds only what is missing and gives the whole verdict. A folder
    holding another verification, or other files, is refused."""
    work = _checkout(tmp_path)
    assert _cli(work, "archive", "--out", "archive/run").returncode == 0
    scratch = tmp_path / "scratch"
    done = _cli(work, "verify", "archive/run", "--all", "--jobs", "1", "--scratch", str(scratch))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"rebuilt files kept in {scratch}" in done.stdout
    level = scratch / "level1"
    untouched = (level / "results" / "inst" / "2.txt").stat().st_mtime_ns
    (level / "figures" / "table.md").unlink()
    (level / ".snakemake" / "locks").mkdir(exist_ok=True)
    (level / ".snakemake" / "locks" / "0.output.lock").write_text("figures/table.md\n")  # as Snakemake writes it
    (work / "config" / "config.yaml").touch()  # a checkout file newer than what was made from it rebuilds nothing

    done = _cli(work, "verify", "archive/run", "--all", "--jobs", "1", "--scratch", str(scratch))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"going on with the verification stopped in {scratch}" in done.stdout
    assert "every job from scratch: 10 of 10 jobs" in done.stdout.strip().splitlines()[-1]
    assert "(14 files)" in done.stdout.strip().splitlines()[-1]  # the folder output one of them
    assert (level / "figures" / "table.md").is_file()
    assert (level / "results" / "inst" / "2.txt").stat().st_mtime_ns == untouched  # not rebuilt

    done = _cli(work, "verify", "archive/run", "--budget", "60", "--jobs", "1", "--scratch", str(scratch))
    assert done.returncode == 2 and "holds another verification" in done.stderr, done.stdout + done.stderr
    done = _cli(work, "verify", "archive/run", "--all", "--scratch", str(work / "config"))
    assert done.returncode == 2 and "is not empty and holds no verification" in done.stderr, done.stderr


def _git(work, *args):
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=work, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_archive_verifies_at_its_own_commit_after_a_later_commit_edits_a_run_rule(tmp_path):
    """The archive made at one commit, a later commit editing what the run jobs compute: ``verify`` rebuilds at the
    archive's commit in a temporary git worktree (removed after), prints both commits, and passes; ``--force`` uses
    the checkout's code and finds the difference; an archive whose commit the clone lacks says what to fetch."""
    work = _checkout(tmp_path)
    (work / ".gitignore").write_text(".snakemake/\nresults/\nfigures/\nlogs/\n")
    (work / "src" / "README").write_text("the library\n")  # git keeps no empty folder
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "the run's code")
    made_at = _git(work, "rev-parse", "HEAD")
    assert _cli(work, "archive", "--out", "archive/run").returncode == 0
    snakefile = work / "workflow" / "Snakefile"
    snakefile.write_text(SNAKEFILE.replace("[text, text]", "[text, text, text]"))
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "the archive, and a run rule that writes one more row")
    later = _git(work, "rev-parse", "HEAD")

    done = _cli(work, "verify", "archive/run", "--all", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        f"this checkout (commit {later[:12]}) differs from the archived run in the code (1 file: workflow/Snakefile)"
        in done.stdout
    )
    assert f"rebuilding at the run's commit {made_at[:12]} in a temporary git worktree" in done.stdout
    verdict = done.stdout.strip().splitlines()[-1]
    assert "every job from scratch: 10 of 10 jobs" in verdict and f"code of commit {made_at[:12]}" in verdict
    assert _git(work, "worktree", "list").count("\n") == 0  # the temporary worktree is gone
    assert list((tmp_path / "tmp").iterdir()) == []

    done = _cli(work, "verify", "archive/run", "--all", "--jobs", "1", "--force")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "differs: results/runs/x/0.parquet: archived sha256" in done.stdout

    record = json.loads((work / "archive" / "run" / manifest.MANIFEST).read_text())
    record["provenance"]["commit"] = "f" * 40
    record.pop("digest")
    manifest.write(work / "archive" / "run" / manifest.MANIFEST, record)
    done = _cli(work, "verify", "archive/run", "--all", "--jobs", "1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stdout + done.stderr
    assert f"this clone lacks commit {'f' * 40}: fetch it (git fetch origin {'f' * 40}" in done.stderr
