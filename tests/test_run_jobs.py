"""One run interface: every run job (paper, study, own experiment) is described whole in the library."""

from __future__ import annotations

import copy
import importlib
import math
from pathlib import Path

import pytest
from workflow_helpers import ROOT

from causal_bandits import algorithms, runs, studies
from causal_bandits import config as cb_config
from causal_bandits.errors import CausalBanditsError
from causal_bandits.experiments import runs as experiment_runs
from causal_bandits.papers import PAPERS, paper
from causal_bandits.papers.nonmanip import POMIS_PLUS
from causal_bandits.papers.nonmanip import runs as nonmanip_runs
from causal_bandits.studies import knobs as study_knobs
from causal_bandits.studies import refresh as study_refresh
from causal_bandits.studies import robustness as study_robustness
from causal_bandits.studies import same_means as study_same_means

CONFIG = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "studies.yaml"))


def _wildcards(experiment, strategy, algorithm, chunk=0, **more):
    return {"experiment": experiment, "strategy": strategy, "algorithm": algorithm, "chunk": str(chunk), **more}


@pytest.mark.parametrize("key", PAPERS)
def test_every_paper_contributes_a_description_and_a_builder(key):
    module = runs.runner(key)
    assert module is importlib.import_module(paper(key).runs)
    assert callable(module.describe) and callable(module.simulation)


def test_a_paper_job_is_described_whole():
    section = CONFIG["nonmanip"]
    chunks = nonmanip_runs.chunks(section, CONFIG["seeds_per_job"], "POMIS", "fig5c")
    plain = nonmanip_runs.describe(CONFIG, _wildcards("fig5c", "POMIS", "kl_ucb", chunk=len(chunks) - 1))
    assert plain.seeds == chunks[-1] and chunks[-1].stop == section["n_seeds"]
    assert plain.policy == "kl_ucb" and "pomis_plus" not in plain.science
    assert (plain.paper, plain.experiment, plain.horizon) == ("nonmanip", "fig5c", section["horizon"])
    assert runs.runner(plain.runner) is nonmanip_runs
    plus = nonmanip_runs.describe(CONFIG, _wildcards("fig5c", POMIS_PLUS, "kl_ucb"))
    assert plus.policy == algorithms.played("nonmanip", "kl_ucb", z2=True).key == "z2_kl_ucb"
    assert plus.science["pomis_plus"]["bootstrap"] == section["pomis_plus"]["bootstrap"]
    assert plus.memory_mb > plain.memory_mb  # the bootstrap's replicates


def test_pomis_plus_jobs_are_sized_per_panel_and_the_size_is_no_setting():
    """pomis_plus.panel_seeds_per_job sizes the named panels' POMIS+ jobs (the others take pomis_plus.seeds_per_job,
    BF/MIS/POMIS the section's), and no job's science records a size: chunking never changes results."""
    section = CONFIG["nonmanip"]
    assert section["pomis_plus"]["panel_seeds_per_job"] == {"fig5a": 1000, "fig5b": 500}
    plus = [wc for wc in nonmanip_runs.run_jobs(CONFIG) if wc["strategy"] == POMIS_PLUS]
    per_panel = {p: sum(wc["experiment"] == p for wc in plus) // len(section["algorithms"]) for p in section["panels"]}
    assert per_panel == {"fig5a": 1, "fig5b": 2, "fig5c": 5}
    last = nonmanip_runs.describe(CONFIG, _wildcards("fig5b", POMIS_PLUS, "ts", chunk=1))
    assert last.seeds == range(500, 1000)
    unsized = copy.deepcopy(CONFIG)
    del unsized["nonmanip"]["pomis_plus"]["panel_seeds_per_job"]
    assert len(nonmanip_runs.chunks(unsized["nonmanip"], unsized["seeds_per_job"], POMIS_PLUS, "fig5b")) == 5
    first = nonmanip_runs.describe(CONFIG, _wildcards("fig5b", POMIS_PLUS, "ts"))
    assert first.science == nonmanip_runs.describe(unsized, _wildcards("fig5b", POMIS_PLUS, "ts")).science
    assert not {"seeds_per_job", "panel_seeds_per_job"} & set(first.science["pomis_plus"])


def test_a_study_job_changes_only_what_the_study_varies():
    main = nonmanip_runs.describe(CONFIG, _wildcards("fig5b", POMIS_PLUS, "ts"))
    point = next(iter(study_knobs.runs_of(CONFIG["studies"]["knobs"], CONFIG["nonmanip"]["pomis_plus"])))
    knob = study_knobs.describe(CONFIG, _wildcards("fig5b", POMIS_PLUS, "ts", point=point))
    changed = {
        k for k in knob.science["pomis_plus"] if knob.science["pomis_plus"][k] != main.science["pomis_plus"].get(k)
    }
    assert len(changed) == 1 and {k: v for k, v in knob.science.items() if k != "pomis_plus"} == {
        k: v for k, v in main.science.items() if k != "pomis_plus"
    }
    assert (knob.paper, knob.experiment) == (main.paper, main.experiment)  # the main run's streams: seeds pair
    refresh = study_refresh.describe(CONFIG, _wildcards("fig5b", POMIS_PLUS, "ts", point="every_round"))
    assert refresh.science["pomis_plus"]["refresh"] == "every_round" and len(refresh.seeds) <= len(main.seeds)


def test_a_same_means_point_has_streams_of_its_own_and_robustness_its_horizon():
    job = study_same_means.describe(CONFIG, _wildcards("fig5a", "POMIS", "ts", point="3"))
    assert (job.paper, job.experiment) == ("nonmanip", "fig5a_sens3") and "sweep" in job.science
    robust = study_robustness.describe(CONFIG, _wildcards("g01", "BF", "kl_ucb", point="graphs"))
    assert robust.horizon == CONFIG["studies"]["robustness"]["horizon"] == robust.science["horizon"]


def test_an_own_experiment_runs_on_nonmanip_runner_under_its_own_key():
    config = {
        "record_points": 10,
        "experiments": {
            "mine": {
                "horizon": 50,
                "n_seeds": 5,
                "seeds_per_job": 2,
                "algorithms": ["ts"],
                "pomis_plus": {"bootstrap": 300},
            },
        },
    }
    job = experiment_runs.describe(config, _wildcards("mine", POMIS_PLUS, "ts", chunk=2))
    assert (job.paper, job.seeds, job.horizon) == ("experiments", range(4, 5), 50)
    assert runs.runner(job.runner) is nonmanip_runs and job.science["pomis_plus"] == {"bootstrap": 300}
    assert job.memory_mb == 500 + 1 * (4 + 3)


def test_chunks_are_one_partition_of_the_seeds():
    for chunks in (runs.chunk_seeds(10, 3), studies.chunks({"n_seeds": 7, "seeds_per_job": 7})):
        seeds = [s for chunk in chunks for s in chunk]
        assert seeds == sorted(set(seeds)) == list(range(seeds[-1] + 1))


def test_a_job_reaches_its_script_as_builtin_fields():
    """Snakemake records a rule's params to rerun a job whose description changed, but only values of builtin
    types (it drops an object it cannot represent): the run rules pass a job's fields, and the script rebuilds it."""
    job = nonmanip_runs.describe(CONFIG, _wildcards("fig5c", POMIS_PLUS, "ts"))
    fields = job.fields()
    assert runs.RunJob(**fields) == job and "memory_mb" not in fields  # a new memory request reruns nothing
    assert all(isinstance(v, (int, str, range, dict)) for v in fields.values()), fields


@pytest.fixture(scope="module")
def resources():
    """``benchmarks/resources.py``, which fits the requests and checks them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("resources", ROOT / "benchmarks" / "resources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def archived_manifest() -> dict:
    import json

    return json.loads((ROOT / "archive" / "paper-scale" / "manifest.json").read_text())


@pytest.fixture(scope="module")
def archived_request_ratios(resources, archived_manifest) -> dict[str, list[float]]:
    """Run rule -> each of its jobs' own memory request (RunJob.memory_mb, which the SLURM profile leaves to it) over
    its peak in the archived paper-scale run, as ``benchmarks/resources.py`` reports them."""
    config = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))
    return resources.run_job_ratios(archived_manifest, config)


@pytest.mark.parametrize("paper_key", PAPERS)
def test_run_jobs_ask_for_at_most_half_again_their_archived_peak_memory(
    paper_key, archived_request_ratios, archived_manifest
):
    """Every run job of the archived paper-scale run asks, by its own request, for at least its peak (on a cluster a
    job over its request is killed) and at most 1.5 times it (runs.MEMORY_MARGIN over the measured figures)."""
    from causal_bandits import cost

    if paper_key not in cost.measured(archived_manifest):
        pytest.skip(f"the archived run has no job of {paper_key} (a paper added since)")
    ratios = [r for rule, rs in archived_request_ratios.items() if rule.startswith(f"{paper_key}_run") for r in rs]
    assert ratios and min(ratios) >= 1.0 and max(ratios) <= 1.5, (min(ratios), max(ratios))


def test_the_run_jobs_peaks_are_what_the_archived_run_measured(resources, archived_manifest, tmp_path):
    """src/causal_bandits/run_peaks.yaml is what ``resources.py --write-peaks`` makes of the archive's manifest: a
    remade archive lands with its refit, and no figure is edited by hand."""
    paper_scale = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))
    resources.write_peaks(archived_manifest, tmp_path / "run_peaks.yaml", paper_scale)
    assert (tmp_path / "run_peaks.yaml").read_text() == runs.PEAKS_FILE.read_text()


def test_the_resources_check_names_the_run_rules_whose_jobs_peak_well_below_their_requests(
    resources, archived_manifest, tmp_path
):
    """``benchmarks/resources.py --check --archive`` on a run whose peaks all came out a quarter lower than the
    figures were fitted to exits 1 and names every run rule (each asks for 1.15 / 0.75 > 1.5 times its peaks)."""
    import json
    import subprocess
    import sys

    manifest = copy.deepcopy(archived_manifest)
    for job in manifest["jobs"]:
        job["max_rss_mb"] *= 0.75
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    profile, lower = "workflow/profiles/slurm/config.yaml", str(tmp_path / "manifest.json")
    check = subprocess.run(
        [sys.executable, "benchmarks/resources.py", "--check", profile, "--archive", lower],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    named = {line.split()[1].rstrip(":") for line in check.stdout.splitlines() if "times their peaks" in line}
    run_rules = {job["rule"] for job in manifest["jobs"] if resources.paper_of(job["rule"])}
    assert check.returncode == 1 and named == run_rules, check.stdout[-2000:] + check.stderr[-2000:]


def test_a_kind_of_run_job_not_measured_asks_for_the_largest_figure_of_its_kin():
    """A study's instance, an own experiment: the largest figure with the same strategy and algorithm, else the
    same strategy, else the paper's; a paper not measured: runs.PROCESS_MB."""
    nonmanip = runs.measured_peaks()["nonmanip"]
    kin = [mb for kind, mb in nonmanip.items() if kind.endswith(f"/{POMIS_PLUS}/ts")]
    assert runs.measured_peak("nonmanip", _wildcards("study-panel", POMIS_PLUS, "ts")) == max(kin)
    same_strategy = [mb for kind, mb in nonmanip.items() if kind.split("/")[1] == "POMIS"]
    assert runs.measured_peak("nonmanip", _wildcards("study-panel", "POMIS", "new_solver")) == max(same_strategy)
    assert runs.measured_peak("nonmanip", _wildcards("x", "new_strategy", "ts")) == max(nonmanip.values())
    assert runs.measured_peak("new_paper", _wildcards("toy", "all", "ucb")) == runs.PROCESS_MB


def test_a_pomis_plus_job_asks_for_more_the_more_replicates_it_keeps():
    """A POMIS+ job's replicates grow with its seeds and B: half the seeds and half of B ask for the process plus a
    quarter of the measured excess; at the measured size, for the measured figure."""
    config = copy.deepcopy(CONFIG)
    settings = config["nonmanip"]["pomis_plus"]
    measured = (nonmanip_runs.MEASURED_SEEDS, nonmanip_runs.MEASURED_BOOTSTRAP)
    assert (settings["seeds_per_job"], settings["bootstrap"]) == measured
    wildcards = _wildcards("fig5c", POMIS_PLUS, "ts")
    peak = runs.measured_peak("nonmanip", wildcards)
    base = runs.measured_peak("nonmanip", {**wildcards, "strategy": "POMIS"})
    assert nonmanip_runs.describe(config, wildcards).memory_mb == runs.memory_request(peak)
    config["nonmanip"]["pomis_plus"]["bootstrap"] //= 2
    config["nonmanip"]["pomis_plus"]["seeds_per_job"] //= 2
    assert nonmanip_runs.describe(config, wildcards).memory_mb == math.ceil(
        runs.MEMORY_MARGIN * (base + (peak - base) / 4)
    )


def test_the_run_jobs_peaks_file_missing_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(runs, "PEAKS_FILE", tmp_path / "run_peaks.yaml")
    runs.measured_peaks.cache_clear()
    try:
        with pytest.raises(CausalBanditsError, match=r"run_peaks\.yaml is missing: restore it"):
            runs.measured_peak("cpe", _wildcards("E1-n4", "practical", "lucb"))
    finally:
        runs.measured_peaks.cache_clear()


def test_the_slurm_profile_asks_each_rule_for_its_measured_resources(resources):
    """workflow/profiles/slurm states, for every rule of the archived paper-scale run, the memory and time that
    benchmarks/resources.py derives from the run's measured jobs (the run rules: the time only, their jobs ask for
    their own memory); each rule's memory at least the largest peak of its jobs and within 1.5 times the smallest, but
    for the two rules with one request over jobs of different sizes (V6 discovery over tree heights, 262-574 MB; the
    three efficiency tables, 122-179 MB)."""
    import json
    import subprocess
    import sys

    import yaml

    check = subprocess.run(
        [sys.executable, "benchmarks/resources.py", "--check", "workflow/profiles/slurm/config.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
    stated = yaml.safe_load((ROOT / "workflow/profiles/slurm/config.yaml").read_text())["set-resources"]
    manifest = json.loads((ROOT / "archive" / "paper-scale" / "manifest.json").read_text())
    spread = set()
    for rule, wanted in stated.items():
        peaks = [job["max_rss_mb"] for job in manifest["jobs"] if job["rule"] == rule]
        if "mem_mb" in wanted:
            mem = int(wanted["mem_mb"].split("*")[0])
            assert max(peaks) <= mem, (rule, mem, max(peaks))
            if mem > 1.5 * min(peaks):
                spread.add(rule)
    # planned_claim judges one claim of any paper per job, so its jobs' peaks differ by paper
    assert spread == {"unknown_graph_discovery", "nonmanip_efficiency", "planned_claim"}
    run_rules = {job["rule"] for job in manifest["jobs"] if resources.paper_of(job["rule"])}
    assert run_rules <= set(stated) and not [rule for rule in run_rules if "mem_mb" in stated[rule]]


def test_a_study_rerun_reads_the_panel_from_the_paper_declaration_not_a_copy():
    """A setting added to a panel reaches the main run's job and every study job on that panel alike (the seed
    pairing needs both to depend on the same settings)."""
    config = cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "studies.yaml"))
    config["nonmanip"]["panels"]["fig5b"]["probe"] = 1
    main = nonmanip_runs.describe(config, _wildcards("fig5b", POMIS_PLUS, "ts"))
    rerun = study_refresh.describe(config, _wildcards("fig5b", POMIS_PLUS, "ts", point="every_round"))
    sweep = study_same_means.describe(config, _wildcards("fig5b", "POMIS", "ts", point="0"))
    assert main.science["panel"]["probe"] == rerun.science["panel"]["probe"] == sweep.science["panel"]["probe"] == 1


def test_the_radius_study_runs_the_papers_fucb_job_with_the_points_scales():
    from causal_bandits.papers.fairness import runs as fairness_runs
    from causal_bandits.studies import fucb_radius

    section = CONFIG["studies"]["fucb_radius"]
    jobs = list(fucb_radius.run_jobs(CONFIG))
    assert len(jobs) == len(fucb_radius.points(section)) * len(CONFIG["fairness"]["taus"]) * len(
        studies.chunks(section)
    )
    last = jobs[-1]
    study = fucb_radius.describe(CONFIG, last)
    paper_job = fairness_runs.describe(CONFIG, last)
    assert (study.runner, study.paper, study.experiment, study.algorithm) == (
        paper_job.runner,
        paper_job.paper,
        "email",
        last["algorithm"],
    )
    assert study.horizon == section["horizon"] == study.science["horizon"]
    alpha_r, alpha_c = fucb_radius.points(section)[-1]
    assert study.science["fucb"] == {**paper_job.science["fucb"], "alpha_r": alpha_r, "alpha_c": alpha_c}
    changed = {k for k in study.science if study.science[k] != paper_job.science[k]}
    assert "fucb" in changed and changed <= {"horizon", "fucb"}  # the study's horizon is Table 1's by default


@pytest.mark.parametrize("name", ["refresh", "knobs", "same_means", "robustness", "fucb_radius"])
def test_a_study_report_reads_exactly_the_runs_its_jobs_make(name):
    """One enumeration: the report's inputs are the summaries of the jobs the cost check counts, each once."""
    from causal_bandits.run_paths import study_run_path
    from causal_bandits.store import summary_path
    from causal_bandits.studies import rule_inputs

    made = {summary_path(study_run_path(name)).format(**wc) for wc in studies.module(name).run_jobs(CONFIG)}
    read = [f for files in rule_inputs.summaries(name, CONFIG).values() for f in files]
    assert len(read) == len(set(read)) == len(made) > 0 and set(read) == made


def test_a_batch_writes_each_of_its_jobs_files_as_the_job_alone_would(tmp_path):
    """cpe's parallel bandit runs every budget of one config and chunk in one process (runs.RunBatch, rule
    cpe_run_budgets): each budget's trace and summary are, byte for byte, what its job run alone writes."""
    from causal_bandits import store
    from causal_bandits.papers.cpe import design
    from causal_bandits.papers.cpe import runs as cpe_runs
    from causal_bandits.papers.cpe.families import from_config

    config = copy.deepcopy(CONFIG)
    section, key = config["cpe"], "n4"
    spec = section["experiments"]["E1"]["configs"][key]
    section["experiments"] = {"E1": {"configs": {key: spec}, "runs": [{"algorithms": [design.BUDGETED], "n_seeds": 6}]}}
    section["pb_budgets"], section["run_experiments"], config["seeds_per_job"] = [40, 100, 250], None, 4
    inputs = {"instance": str(tmp_path / "instance.json")}
    store.write_json(inputs["instance"], from_config(spec).to_document())
    wildcards = {"experiment": design.run_key("E1", key), "algorithm": design.BUDGETED, "chunk": "1"}
    assert wildcards in list(cpe_runs.run_jobs(config))  # once, without a strategy

    batch = cpe_runs.describe(config, wildcards)
    assert [job.strategy for job in batch.jobs] == ["T40", "T100", "T250"] and batch.jobs[0].seeds == range(4, 6)
    assert isinstance(batch.fields(), list) and runs.RunJob(**batch.fields()[1]) == batch.jobs[1]
    paths = [tmp_path / "batch" / f"{job.strategy}.parquet" for job in batch.jobs]
    summaries = [store.summary_path(p) for p in paths]
    runs.execute_batch(batch.fields(), inputs, [str(p) for p in paths], summaries)
    for job, path, summary in zip(batch.jobs, paths, summaries, strict=True):
        alone = tmp_path / "alone" / f"{job.strategy}.parquet"
        alone_job = cpe_runs.describe(config, {**wildcards, "strategy": job.strategy})
        runs.execute_batch(alone_job.fields(), inputs, str(alone), store.summary_path(alone))
        assert path.read_bytes() == alone.read_bytes(), job.strategy
        assert Path(summary).read_bytes() == Path(store.summary_path(alone)).read_bytes(), job.strategy


def test_the_release_refits_the_profile_to_what_it_states(tmp_path):
    """``resources.py --write-profile``, as the release runs it (release.REFITS) on the committed archive, leaves the
    committed SLURM profile byte for byte as it is: its comments and other keys kept, its requests the archive's."""
    import subprocess
    import sys

    profile = tmp_path / "config.yaml"
    committed = (ROOT / "workflow/profiles/slurm/config.yaml").read_text()
    profile.write_text(
        committed.replace('mem_mb: "', 'mem_mb: "1').replace("set-resources:\n", "set-resources:\n  x: {}\n")
    )
    done = subprocess.run(
        [sys.executable, "benchmarks/resources.py", "--write-profile", str(profile)], cwd=ROOT, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    # the default-resources' mem_mb is not the block's: only the set-resources lines are rewritten
    assert profile.read_text() == committed.replace('  mem_mb: "1000', '  mem_mb: "11000'), "profile not refitted"
