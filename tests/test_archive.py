"""The archive of a run and its verification: the plan's parser, the sample, the manifest's digest,
the provenance comparison and the data hash of Parquet files (unit level; the workflow test
test_verify_workflow.py archives and verifies the tiny run)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import ROOT

from causal_bandits import runs
from causal_bandits.archive import at_commit, jobs, manifest, provenance, rebuild, stages, verify
from causal_bandits.errors import CausalBanditsError, DataError

PLAN = """\
Job stats:
job      count
rule cpe_instance:
    input: src/causal_bandits/store.py
    output: results/cpe/instances/E3/rho0.8.json
    log: logs/cpe_instance/E3/rho0.8.log
    jobid: 3
    reason: Forced execution
    wildcards: exp=E3, config=rho0.8
    resources: tmpdir=/tmp
rule cpe_run:
    input: results/cpe/instances/E3/rho0.8.json, src/causal_bandits/runs.py
    output: results/runs/cpe/E3/rho0.8/lucb/chunk-0.parquet, results/runs/cpe/E3/rho0.8/lucb/chunk-0.summary.parquet
    log: logs/cpe/E3/rho0.8/lucb/chunk-0.log
    jobid: 2
    benchmark: benchmarks/out/cpe/E3/rho0.8/lucb/chunk-0.tsv
    wildcards: experiment=E3, strategy=rho0.8, algorithm=lucb, chunk=0
localrule all:
    input: results/runs/cpe/E3/rho0.8/lucb/chunk-0.summary.parquet
    jobid: 0
"""


def test_the_plan_gives_each_job_its_rule_wildcards_files_and_benchmark():
    instance, run, target = jobs.parse_plan(PLAN)
    assert (instance.rule, instance.wildcards) == ("cpe_instance", {"exp": "E3", "config": "rho0.8"})
    assert instance.benchmark is None and instance.log == "logs/cpe_instance/E3/rho0.8.log"
    assert run.inputs == ["results/cpe/instances/E3/rho0.8.json", "src/causal_bandits/runs.py"]
    assert len(run.outputs) == 2 and run.benchmark == "benchmarks/out/cpe/E3/rho0.8/lucb/chunk-0.tsv"
    assert run.wildcards["chunk"] == "0"
    assert target.rule == "all" and target.outputs == [] and len(target.inputs) == 1


def test_the_plan_reads_the_jobs_inside_group_job_blocks():
    """Rules that name a job group (`group:`) are printed inside their group job's block, each line indented once
    more, in a dry run too (run locally, every connected piece of a group is a group job of its own): PLAN's jobs,
    two of them in groups as a dry run prints them."""
    head, instance, rest = PLAN.split("\nrule ")
    run, target = rest.split("\nlocalrule ")
    grouped = "".join(
        f"[Thu Nov 26 22:49:04 2026] Group job {group} (jobs in lexicogr. order):\n\n"
        "    [Thu Nov 26 22:49:04 2026]\n" + "".join(f"    {line}\n" for line in f"rule {job}".splitlines())
        for group, job in (("prep", instance), ("runs", run))
    )
    planned = jobs.parse_plan(f"{head}\n{grouped}[Thu Nov 26 22:49:04 2026]\nlocalrule {target}")
    assert [vars(job) for job in planned] == [vars(job) for job in jobs.parse_plan(PLAN)]


def _job(path, cpu, inputs=()):
    return {"outputs": [{"path": path, "sha256": "0"}], "inputs": list(inputs), "cpu_s": cpu, "wall_s": None}


#: Two instances, four run chunks on them, an aggregate of chunks 0-1 and one of all four, a table of the second
#: aggregate and of instance b, and a listing of instance b that nothing reads.
JOBS = [
    _job("results/inst/a.json", 1.0),
    _job("results/inst/b.json", 1.0),
    *[_job(f"results/runs/x/{i}.parquet", 10.0, [f"results/inst/{'ab'[i // 2]}.json"]) for i in range(4)],
    _job("results/agg/a.parquet", 2.0, [f"results/runs/x/{i}.parquet" for i in range(2)]),
    _job("results/agg/all.parquet", 2.0, [f"results/runs/x/{i}.parquet" for i in range(4)]),
    _job("figures/table.md", 1.0, ["results/agg/all.parquet", "results/inst/b.json"]),
    _job("results/listing.md", 1.0, ["results/inst/b.json"]),
]


def test_the_stages_and_the_intermediates_the_derived_jobs_read():
    found = stages.stages(JOBS)
    assert (found.runs, found.aggregates, found.derived) == ({2, 3, 4, 5}, {6, 7}, {8})
    assert found.others == {0, 1, 9}
    assert stages.intermediates(JOBS, found) == ["results/agg/all.parquet", "results/inst/b.json"]


def test_a_job_that_reads_only_kept_run_summaries_is_derived_and_the_archive_keeps_them():
    runs = [
        {
            "outputs": [
                {"path": f"results/runs/y/chunk-{i}.parquet", "sha256": "0"},
                {"path": f"results/runs/y/chunk-{i}.summary.parquet", "sha256": "0"},
            ],
            "inputs": ["results/inst/a.json"],
            "cpu_s": 10.0,
            "wall_s": None,
        }
        for i in range(2)
    ]
    summaries = [f"results/runs/y/chunk-{i}.summary.parquet" for i in range(2)]
    both = [
        *JOBS,
        *runs,
        _job("results/agg/y.parquet", 2.0, summaries),
        _job("results/agg/z.parquet", 2.0, ["results/runs/y/chunk-0.parquet", summaries[0]]),
    ]
    assert stages.summaries(both) == set(summaries)  # z reads a trace too: its summary is not kept for it
    made = stages.stages(both, stages.summaries(both))
    assert 12 in made.derived and 13 in made.aggregates
    assert set(summaries) <= set(stages.intermediates(both, made))
    # an archive that did not keep them (archive/paper-scale): the job that reads them is an aggregate
    assert 12 in stages.stages(both).aggregates and 12 in stages.stages(both, ["results/agg/all.parquet"]).aggregates


def test_the_prepared_raw_data_are_not_kept_and_are_rebuilt_with_the_derived_jobs():
    prepared = [
        _job("results/raw/check.json", 1.0),
        _job("data/processed/users.parquet", 2.0, ["results/raw/check.json"]),
        _job("results/inst/c.json", 1.0, ["data/processed/users.parquet"]),
        _job("results/runs/y/0.parquet", 10.0, ["results/inst/c.json"]),
        _job("results/agg/y.parquet", 2.0, ["results/runs/y/0.parquet"]),
        _job("figures/claims.json", 1.0, ["results/agg/y.parquet", "data/processed/users.parquet"]),
    ]
    found = stages.stages(prepared)
    kept = stages.intermediates(prepared, found)
    assert kept == ["results/agg/y.parquet"]
    assert stages.rebuilt_with_derived(prepared, found, kept) == {0, 1, 5}
    # an archive that kept them (made before they were left out) rebuilds only the derived job
    assert stages.rebuilt_with_derived(prepared, found, [*kept, "data/processed/users.parquet"]) == {5}


def test_the_sample_holds_each_job_with_what_it_needs_within_the_budget():
    needs = stages.needs(JOBS)
    for seed in range(10):
        chosen = verify.sample(JOBS, 23.0, seed=seed)
        assert sum(verify.cost(JOBS[i]) for i in chosen) <= 23.0
        assert all(needs[i] <= set(chosen) for i in chosen)
        assert 8 not in chosen  # a derived job: level 2 rebuilds it
        assert verify.sample(JOBS, 23.0, seed=seed) == chosen
    assert len({tuple(verify.sample(JOBS, 23.0, seed=s)) for s in range(10)}) > 1


def test_a_large_sample_holds_every_job_but_the_derived_and_grows_into_them_without_a_level_2():
    assert verify.sample(JOBS, 100.0, seed=0) == [i for i in range(len(JOBS)) if i != 8]
    assert verify.sample(JOBS, 100.0, seed=0, derived=True) == list(range(len(JOBS)))
    # the pool holds aggregates (with all their chunks) and jobs no chunk leads to, not only chunks
    drawn = {i for s in range(30) for i in verify.sample(JOBS, 12.0, seed=s)}
    assert {9} <= drawn and {6, 7}.isdisjoint(drawn)  # an aggregate costs 22 CPU-s or more with its chunks
    assert any(6 in verify.sample(JOBS, 25.0, seed=s) for s in range(30))


def test_a_budget_below_the_cheapest_job_is_a_clear_error():
    with pytest.raises(CausalBanditsError, match=r"less than the cheapest job with what it needs"):
        verify.sample(JOBS, 0.5, seed=0)


def _archive(tmp_path):
    (tmp_path / "figures").mkdir(exist_ok=True)
    (tmp_path / "figures" / "REPORT.md").write_text("# report\n")
    entry = manifest.describe_file(tmp_path / "figures" / "REPORT.md", "figures/REPORT.md")
    record = {
        "format": manifest.FORMAT,
        "provenance": {"config": {"files": []}},
        "run": {},
        "artefacts": ["figures/REPORT.md"],
        "jobs": [{"rule": "report", "inputs": [], "outputs": [entry], "cpu_s": 1.0, "wall_s": 1.0}],
    }
    manifest.write(tmp_path / manifest.MANIFEST, record)
    return tmp_path / manifest.MANIFEST


def test_a_manifest_reads_back_and_an_edited_line_or_artefact_is_detected(tmp_path):
    path = _archive(tmp_path)
    assert manifest.read(tmp_path)["jobs"][0]["rule"] == "report"
    lines = path.read_text().splitlines()
    assert lines[-2].startswith('{"cpu_s"')  # one job per line
    path.write_text(path.read_text().replace('"rule": "report"', '"rule": "other"'))
    with pytest.raises(DataError, match="edited after it was made"):
        manifest.read(tmp_path)
    _archive(tmp_path)
    (tmp_path / "figures" / "REPORT.md").write_text("# another report\n")
    with pytest.raises(DataError, match=r"REPORT\.md is missing or not the file the run wrote"):
        manifest.read(tmp_path)


def test_a_folder_without_an_archive_is_one_clear_error(tmp_path):
    with pytest.raises(DataError, match=r"holds no archived run \(no manifest\.json\)"):
        manifest.read(tmp_path)


def test_parquet_files_with_the_same_data_and_other_metadata_have_one_data_hash(tmp_path):
    table = pa.table({"seed": [0, 1, 2], "regret": [0.5, 1.5, 2.5]})
    pq.write_table(table.replace_schema_metadata({"version_pyarrow": "1"}), tmp_path / "a.parquet")
    pq.write_table(table.replace_schema_metadata({"version_pyarrow": "2"}), tmp_path / "b.parquet")
    pq.write_table(table.set_column(1, "regret", pa.array([0.5, 1.5, 2.0])), tmp_path / "c.parquet")
    a, b, c = (manifest.describe_file(tmp_path / f"{n}.parquet", f"{n}.parquet") for n in "abc")
    assert a["sha256"] != b["sha256"] and a["data_sha256"] == b["data_sha256"] != c["data_sha256"]


def test_provenance_names_what_differs():
    made = {
        "code": {"workflow/Snakefile": "1", "src/a.py": "2", "src/b.py": "3"},
        "config": {"files": ["config/tiny.yaml"], "sha256": "c"},
        "lock": {"sha256": "l"},
    }
    assert provenance.differences(made, json.loads(json.dumps(made))) == []
    now = {"code": {**made["code"], "src/b.py": "4"}, "config": {"sha256": "d"}, "lock": {"sha256": "l"}}
    assert provenance.differences(made, now) == [
        "the code (1 file: src/b.py)",
        "the config (config/config.yaml + config/tiny.yaml)",
    ]


def test_the_code_record_sees_code_and_not_comments(tmp_path):
    """The library's files by the digest the workflow reruns jobs by (a comment changes neither), every
    workflow file and any other file by its bytes."""
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "Snakefile").write_text("rule all:\n")
    for name, text in {"a": "X = 1\n", "b": "# a comment\nX = 1\n", "c": "X = 2\n"}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text(text)
        (tmp_path / name / "t.css").write_text(text)
    found = {n: provenance.code_files(tmp_path, [f"{n}/m.py", f"{n}/t.css", f"{n}/gone.py"]) for n in "abc"}
    assert found["a"]["a/m.py"] == found["b"]["b/m.py"] != found["c"]["c/m.py"]
    assert found["a"]["a/t.css"] != found["b"]["b/t.css"] and found["a"]["a/gone.py"] is None
    assert found["a"]["workflow/Snakefile"] == provenance.file_sha256(tmp_path / "workflow" / "Snakefile")


def test_the_code_record_leaves_out_the_rules_job_groups(tmp_path):
    """A rule's `group:` says which jobs a cluster job bundles, not what they compute: a rule file with groups has
    the sha256 of the same file without them (an archive made before the rules named groups still verifies), and any
    other change still counts."""
    rule = 'rule a:\n    output:\n        "a.txt",\n{}    shell:\n        "touch {{output}}"\n'
    texts = {
        "none": rule.format(""),
        "snakefmt": rule.format('    group:\n        "prep"\n'),
        "inline": rule.format('    group: "runs"\n'),
        "other": rule.format("    threads: 2\n"),
    }
    for name, text in texts.items():
        (tmp_path / "workflow" / "rules" / name).mkdir(parents=True)
        (tmp_path / "workflow" / "rules" / name / "a.smk").write_text(text)
    found = provenance.code_files(tmp_path, [])
    digests = {name: found[f"workflow/rules/{name}/a.smk"] for name in texts}
    assert digests["none"] == digests["snakefmt"] == digests["inline"] != digests["other"]
    assert digests["none"] == provenance.file_sha256(tmp_path / "workflow" / "rules" / "none" / "a.smk")


def test_the_profiles_schedule_jobs_and_set_no_config(tmp_path):
    """The profiles, and the run jobs' measured peaks (package data, no module), are left out of the code record (a
    cluster's requests can follow new measurements), which holds only while no profile of the workflow sets config:
    verify rebuilds without a profile."""
    (tmp_path / "workflow" / "profiles" / "slurm").mkdir(parents=True)
    (tmp_path / "workflow" / "Snakefile").write_text("rule all:\n")
    (tmp_path / "workflow" / "profiles" / "slurm" / "config.yaml").write_text("jobs: 10\n")
    assert runs.PEAKS_FILE.suffix == ".yaml"
    assert runs.PEAKS_FILE.relative_to(ROOT).as_posix() not in provenance.job_modules()
    assert list(provenance.code_files(tmp_path, [])) == ["workflow/Snakefile"]
    profiles = sorted((ROOT / provenance.PROFILES).rglob("config.yaml"))
    assert len(profiles) >= 3
    for profile in profiles:
        settings = yaml.safe_load(profile.read_text()) or {}
        assert not {"config", "configfile", "configfiles"} & set(settings), f"{profile} sets config"


def test_the_config_hash_leaves_out_where_the_raw_files_are():
    config = {"data": {"raw_dir": "data/raw", "files": {"a": 1}}, "seeds_per_job": 2}
    moved = {"data": {"raw_dir": "/elsewhere", "files": {"a": 1}}, "seeds_per_job": 2}
    assert provenance.config_sha256(config) == provenance.config_sha256(moved)
    assert provenance.config_sha256(config) != provenance.config_sha256({**config, "seeds_per_job": 3})


def test_the_busy_time_of_a_resumed_run_leaves_out_its_pauses():
    # two overlapping jobs (0-15 s), a pause, then one job (20-30 s): 25 s busy, 30 s from first start to last end
    entries = [
        {"start": s, "end": e, "cpu_s": 1.0, "wall_s": e - s, "max_rss_mb": 1.0}
        for s, e in ((0, 10), (5, 15), (20, 30))
    ]
    totals = manifest._totals(entries)
    assert totals["busy_hours"] == round(25 / 3600, 2) and totals["wall_hours"] == round(30 / 3600, 2)
    assert manifest._busy_seconds([(e["start"], e["end"]) for e in entries]) == 25
    assert manifest._busy_seconds([(0, 10), (2, 3), (20, 30)]) == 20

    made = json.loads((Path(__file__).parents[1] / "archive" / "paper-scale" / manifest.MANIFEST).read_text())
    paused = {**made, "run": {**made["run"], "busy_hours": 2.0, "wall_hours": 3.0}}
    assert "running for 2.0 h of it, the rest being pauses between resumptions" in manifest.readme(paused)
    assert "with no pause" in manifest.readme({**made, "run": {**made["run"], "busy_hours": 1.0, "wall_hours": 1.0}})
    # the gaps between jobs of a run that never stopped are not pauses
    assert "with no pause" in manifest.readme({**made, "run": {**made["run"], "busy_hours": 2.62, "wall_hours": 2.63}})


@pytest.mark.parametrize(("wall", "tail"), [(8.1, 0.1), (14.99, 0.49), (20.2, 5.2), (50.3, 5.3), (76.0, 1.0)])
def test_the_unsampled_tail_follows_snakemakes_benchmark_schedule(wall, tail):
    """Snakemake samples a benchmarked job every 0.5 s for 15 s, then every 30 s (15, 45, 75 s ...)."""
    assert manifest.unsampled_seconds(wall) == tail


def test_the_schedule_is_snakemakes():
    """The schedule's constants are the installed Snakemake's: 30 short samples, then the long interval."""
    from snakemake import benchmark

    assert manifest.EVERY_FIRST == benchmark.BENCHMARK_INTERVAL_SHORT
    assert manifest.EVERY_AFTER == benchmark.BENCHMARK_INTERVAL
    assert manifest.SAMPLED_FIRST == benchmark.BENCHMARK_INTERVAL * benchmark.BENCHMARK_INTERVAL_SHORT


def test_the_committed_paper_scale_archive_is_whole():
    """Every artefact of the archive shipped with the repository is tracked and is the file the run wrote."""
    folder = Path(__file__).parents[1] / "archive" / "paper-scale"
    made = manifest.read(folder)
    assert made["run"]["jobs"] == len(made["jobs"]) > 0
    assert "figures/REPORT.md" in made["artefacts"] and "figures/REPORT.html" in made["artefacts"]


def test_the_archive_copies_the_docs_pages_the_report_links(tmp_path):
    """The report links its readings as ../docs/papers/<key>.md from figures/: the archive holds those pages
    beside it, so that the links resolve from the archive's folder (and only pages that exist are copied)."""
    (tmp_path / "figures").mkdir()
    (tmp_path / "docs" / "papers").mkdir(parents=True)
    (tmp_path / "docs" / "papers" / "cpe.md").write_text("# cpe\n")
    (tmp_path / "figures" / "REPORT.html").write_text(
        '<a href="../docs/papers/cpe.md#cpe-results">r</a> <a href="../docs/papers/gone.md">g</a> '
        '<a href="cpe/table1.md">t</a>'
    )
    (tmp_path / "figures" / "REPORT.md").write_text("[r](../docs/papers/cpe.md#cpe-x)\n")
    found = manifest.linked_docs(tmp_path, ["figures/REPORT.html", "figures/REPORT.md", "figures/cpe/x.png"])
    assert found == ["docs/papers/cpe.md"]


def test_a_manifest_of_the_first_format_reads_and_an_unknown_format_is_one_clear_error(tmp_path):
    path = _archive(tmp_path)
    made = json.loads(path.read_text())
    for version, ok in ((1, True), (3, False)):
        made["format"] = version
        made.pop("digest")
        manifest.write(path, made)
        made = json.loads(path.read_text())
        if ok:
            assert manifest.read(tmp_path)["format"] == 1 and manifest.copied(made) == ["figures/REPORT.md"]
        else:
            with pytest.raises(DataError, match="has format 3, which this version does not read"):
                manifest.read(tmp_path)


def test_the_history_line_names_the_run_commit_and_whether_the_checkout_holds_it(tmp_path):
    line = verify.git_history(tmp_path, tmp_path / "archive", "a" * 40)
    assert "run made at commit aaaaaaaaaaaa" in line and "not a git checkout" in line
    root = Path(__file__).parents[1]
    committed = verify.git_history(
        root, Path("archive/paper-scale"), manifest.read(root / "archive/paper-scale")["provenance"]["commit"]
    )
    assert "(in this checkout's history)" in committed and "archive committed in" in committed
    assert "(NOT in this checkout's history)" in verify.git_history(root, Path("archive/paper-scale"), "0" * 40)


def test_missing_raw_files_are_named_and_a_failed_rebuild_leaves_no_scratch(tmp_path, monkeypatch):
    pinned = {"sha256": "0" * 64, "url": "file:///nowhere"}
    raw = {"adult": {"path": "adult/adult.data", **pinned}, "youtube": [{"path": "y/y.txt", **pinned}]}
    config = {"fairness": {"raw": raw}}
    (tmp_path / "y").mkdir()
    (tmp_path / "y" / "y.txt.gz").write_bytes(b"")
    assert rebuild.missing_raw(config, tmp_path) == ["adult/adult.data"]
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(verify.tempfile, "tempdir", None)

    def stop(*args, **kwargs):
        raise CausalBanditsError("Snakemake stopped")

    monkeypatch.setattr(verify, "_run_level", stop)
    monkeypatch.setattr(at_commit.provenance, "differences", lambda *args: [])
    monkeypatch.setattr(at_commit, "current", lambda *args: {})
    monkeypatch.setattr(verify.raw_data, "check_before_run", lambda *args: None)  # the raw data: the next test
    (tmp_path / "archive").mkdir()
    folder = _archive(tmp_path / "archive").parent
    with pytest.raises(CausalBanditsError, match="Snakemake stopped"):
        verify.verify(Path(__file__).parents[1], folder, verify.Settings(budget_cpu_s=60.0, cores=1, everything=True))
    assert list((tmp_path / "tmp").iterdir()) == []


def test_verify_names_missing_raw_data_in_one_line_before_any_rebuild(tmp_path, monkeypatch):
    """Raw data that are not there and cannot be downloaded (a ``file:`` address naming no file stands for a host
    out of reach): verify says so first, in one line, and rebuilds nothing."""

    def rebuilt(*args, **kwargs):
        raise AssertionError("a rebuild started")

    monkeypatch.setattr(verify, "_run_level", rebuilt)
    monkeypatch.setattr(at_commit.provenance, "differences", lambda *args: [])
    monkeypatch.setattr(at_commit, "current", lambda *args: {})
    (tmp_path / "archive").mkdir()
    folder = _archive(tmp_path / "archive").parent
    empty = tmp_path / "raw"
    overlay = tmp_path / "raw.yaml"
    overlay.write_text(
        f"data: {{raw_dir: {empty}}}\nfairness: {{raw: {{on_missing: download, adult: {{url: 'file://{empty}/x'}}}}}}\n"
    )
    with pytest.raises(DataError, match=r"^raw file adult/adult.data is missing \(file://.* cannot be reached") as err:
        verify.verify(
            Path(__file__).parents[1],
            folder,
            verify.Settings(budget_cpu_s=60.0, cores=1, configfiles=(str(overlay),), everything=True),
        )
    assert "\n" not in str(err.value)


def test_progress_reads_snakemakes_step_lines_after_the_offset_and_estimates_the_rest(tmp_path):
    log = tmp_path / "level-1.log"
    assert rebuild.progress(log, 0, 0.0, 10.0) is None
    log.write_bytes(b"old run\n9 of 9 steps (100%) done\n")
    offset = log.stat().st_size
    assert rebuild.progress(log, offset, 0.0, 10.0) is None
    with open(log, "ab") as out:
        out.write(b"[Sun Nov 29]\nFinished job 3.\n1 of 4 steps (25%) done\nFinished job 1.\n2 of 4 steps (50%) done\n")
    assert rebuild.progress(log, offset, 0.0, 150.0) == (
        2,
        4,
        "2 of 4 jobs done, 2 min 30 s elapsed, about 2 min 30 s left",
    )
    log.write_bytes(b"4 of 4 steps (100%) done\n")
    assert rebuild.progress(log, 0, 0.0, 61.0) == (4, 4, "4 of 4 jobs done, 1 min 1 s elapsed")


def test_configfile_is_repeated_and_leaves_the_archive_positional_alone():
    import argparse

    from causal_bandits.commands import verify as command

    parser = argparse.ArgumentParser()
    command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["verify", "--configfile", "raw.yaml", "some/archive", "--configfile", "b.yaml"])
    assert args.configfile == ["raw.yaml", "b.yaml"] and args.archive == Path("some/archive")


@pytest.mark.parametrize(
    ("out", "command"),
    [
        ("archive/paper-scale", "`make verify`"),
        ("/home/me/checkout/archive/paper-scale", "`make verify`"),
        ("archive/studies", "`make verify VERIFY_ARGS=archive/studies`"),
        ("/tmp/elsewhere", "`make verify VERIFY_ARGS=/tmp/elsewhere`"),
    ],
)
def test_an_archives_readme_names_the_folder_verify_checks(out: str, command: str) -> None:
    """The default folder is what ``make verify`` checks; any other is named in VERIFY_ARGS."""
    made = json.loads((Path(__file__).parents[1] / "archive" / "paper-scale" / manifest.MANIFEST).read_text())
    assert f"Check it from the repository root: {command} rebuilds" in manifest.readme(made, Path(out))
