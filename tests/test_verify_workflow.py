"""``causal-bandits archive`` on the tiny run and ``causal-bandits verify`` in a fresh copy of the
repository: a clean sample and every derived job are byte-identical; a manifest entry that does not match what
the jobs make (level 1) and an archived aggregate forged together with its entry (level 2) are each reported with
exit status 1; a checkout whose code differs is refused."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from workflow_helpers import cli as _cli
from workflow_helpers import copy_workflow

from causal_bandits import logs
from causal_bandits.archive import manifest, stages, verify

pytestmark = pytest.mark.workflow

#: A small sample: one CPU-minute; the tiny run's chunks take 2-5 CPU-s each, so about ten jobs.
BUDGET = ("--budget", "1", "--jobs", "2", "--seed", "3")


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


def _level(verdict: str, n: int) -> tuple[int, int]:
    """(identical, rebuilt) jobs of level ``n`` in a verdict line."""
    part = verdict.split(f"level {n}, ")[1].split(":", 1)[1]
    same, of = part.split(" jobs ")[0].split(" of ")
    return int(same), int(of)


def _forged(tiny_archive, tmp_path, made) -> None:
    """An archive folder in ``tmp_path`` with the (edited) manifest ``made``, its digest recomputed."""
    tmp_path.mkdir()
    for path in manifest.copied(made):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes((tiny_archive / path).read_bytes())
    made.pop("digest", None)
    manifest.write(tmp_path / manifest.MANIFEST, made)


def test_verify_rebuilds_a_sample_and_every_derived_job_and_reports_what_differs(tiny_archive, tmp_path):
    checkout = copy_workflow(tmp_path / "checkout")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = _cli(checkout, "verify", str(tiny_archive), *BUDGET, tmp=scratch)
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = done.stdout.strip().splitlines()[-1]
    sampled, derived = _level(verdict, 1), _level(verdict, 2)
    assert sampled[0] == sampled[1] >= 3 and "(seed 3)" in verdict, verdict
    made = json.loads((tiny_archive / manifest.MANIFEST).read_text())
    found = stages.stages(made["jobs"], made["intermediates"])
    again = stages.rebuilt_with_derived(made["jobs"], found, made["intermediates"])
    assert derived == (len(again), len(again)) and len(found.derived) >= 10, verdict
    rules = {made["jobs"][i]["rule"] for i in found.derived}
    # cpe's aggregates read only run summaries, which the archive keeps: rebuilt from them without their traces
    assert {"report", "cpe_claims", "cpe_tables", "nonmanip_table1", "cpe_aggregate"} <= rules
    assert any(path.endswith(".summary.parquet") for path in made["intermediates"])
    # the prepared raw data are not archived: level 2 rebuilds them (and the raw-data checks they need) from raw data
    assert not [path for path in made["intermediates"] if path.startswith(stages.PREPARED_DATA)]
    prepared = {made["jobs"][i]["rule"] for i in again - found.derived}
    assert prepared == {"fairness_raw_check", "fairness_adult_users", "fairness_youtube_videos"}, prepared
    assert done.stdout.startswith("archive: run made at ")  # where the archive comes from (here: no git history)
    assert list(scratch.iterdir()) == []  # the scratch folders are removed after a pass

    # One sampled output's manifest entry is not what the job makes, and one aggregate the derived jobs read is
    # forged together with its entry: level 1 and level 2 each find theirs.
    chosen = verify.sample(made["jobs"], 60, 3, kept=made["intermediates"])
    archived = set(made["intermediates"]) | set(made["artefacts"])  # their bytes are checked before any rebuild
    entry = next(o for i in chosen for o in made["jobs"][i]["outputs"] if o["path"] not in archived)
    entry["sha256"] = entry.get("data_sha256", "0" * 64)
    if "data_sha256" in entry:
        entry["data_sha256"] = "0" * 64
    wrong = tmp_path / "wrong"
    _forged(tiny_archive, wrong, made)
    aggregate = next(p for p in made["intermediates"] if "/agg/" in p and p.endswith(".parquet"))
    table = pq.read_table(wrong / aggregate)
    for i, column in enumerate(table.schema):  # every float of it half as large again
        if pa.types.is_floating(column.type):
            table = table.set_column(i, column, pc.multiply(table.column(i), 1.5))
    pq.write_table(table, wrong / aggregate)
    forged = next(o for job in made["jobs"] for o in job["outputs"] if o["path"] == aggregate)
    forged.update(manifest.describe_file(wrong / aggregate, aggregate))
    made.pop("digest", None)
    manifest.write(wrong / manifest.MANIFEST, made)
    done = _cli(checkout, "verify", str(wrong), *BUDGET, tmp=scratch)  # its kept folders go with tmp_path
    assert done.returncode == 1, done.stdout + done.stderr
    verdict = done.stdout.strip().splitlines()[-1]
    assert f"differs: {entry['path']}: archived sha256" in done.stdout
    assert _level(verdict, 1) == (sampled[0] - 1, sampled[1]) and ", 1 differ" in verdict
    assert _level(verdict, 2)[0] < derived[0], verdict
    assert "rebuilt files kept in" in verdict


def test_verify_refuses_a_checkout_whose_code_differs_in_one_line(tiny_archive, tmp_path):
    checkout = copy_workflow(tmp_path / "checkout")
    with open(checkout / "src" / "causal_bandits" / "store.py", "a") as module:
        module.write("EDITED = True  # code, not a comment: a comment changes no digest\n")
    done = _cli(checkout, "verify", str(tiny_archive), *BUDGET)
    # one line says where the archive comes from (here: no git history), then one refuses; nothing is rebuilt
    assert done.returncode == 2 and done.stdout.startswith("archive: run made at") and done.stdout.count("\n") == 1
    assert done.stderr.count("\n") == 1
    assert "differs from the archived run" in done.stderr
    assert "the code (1 file: src/causal_bandits/store.py)" in done.stderr and "--force" in done.stderr
