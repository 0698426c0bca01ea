"""The workflow as a user runs it: tiny run end to end (every rule), paper-scale dry run, partial reruns."""

from __future__ import annotations

import os
import re

import pytest
from conftest import TINY, copy_workflow, snakemake
from workflow_outputs import check_parses

from causal_bandits.papers import PAPERS

pytestmark = pytest.mark.workflow

NONMANIP_OUTPUTS = [
    *(f"figures/nonmanip/figure{i}.{ext}" for i in range(1, 6) for ext in ("pdf", "png")),
    "figures/nonmanip/figure5_optimal_arm.pdf",
    "figures/nonmanip/table1.csv",
    "figures/nonmanip/table1.md",
    "figures/nonmanip/catalogue.md",
    "figures/nonmanip/robustness.md",
    "figures/nonmanip/robustness.pdf",
]


def test_tiny_run_writes_every_output(tiny_run):
    for rel in [*NONMANIP_OUTPUTS, "figures/REPORT.md", "figures/REPORT.html"]:
        assert (tiny_run / rel).exists(), rel
    finals = [p for p in (tiny_run / "figures").rglob("*") if p.is_file()]
    assert len(finals) >= len(NONMANIP_OUTPUTS) + 2
    for path in finals:
        check_parses(path)
    report = (tiny_run / "figures" / "REPORT.md").read_text()
    assert "structural causal bandits with non-manipulable variables" in report
    assert re.search(r"\*\*reproduced\*\*", report)
    # Nothing left half-written: no temporary files anywhere in the outputs.
    assert not list(tiny_run.rglob("*.tmp"))


def test_tiny_run_is_complete(tiny_run):
    result = snakemake(tiny_run, "-n", *TINY)
    assert result.returncode == 0
    assert "Nothing to be done" in result.stdout + result.stderr


def test_runs_carry_provenance(tiny_run):
    """Every run file names its coordinates, the hash of the config slice it ran and the versions used."""
    from importlib.metadata import version

    from causal_bandits import __version__, store
    from causal_bandits import config as cb_config

    cfg = cb_config.validate(
        cb_config.load(*(tiny_run / "config" / f for f in ("config.yaml", "tiny.yaml", "ci.yaml")))
    )
    run = tiny_run / "results/runs/nonmanip/fig5b/POMIS/ts/chunk-0.parquet"
    meta = store.read_metadata(run)
    science = {
        "panel": cfg["nonmanip"]["panels"]["fig5b"],
        "horizon": cfg["nonmanip"]["horizon"],
        "record_points": cfg["record_points"],
    }
    assert meta["config_hash"] == store.config_hash(science)
    assert meta["causal_bandits"] == __version__
    for lib in store._LIBRARIES:
        assert meta[f"version_{lib}"] == version(lib), lib
    assert (meta["paper"], meta["experiment"], meta["strategy"], meta["algorithm"]) == (
        "nonmanip",
        "fig5b",
        "POMIS",
        "ts",
    )
    assert meta["seeds"] == f"0-{min(cfg['seeds_per_job'], cfg['nonmanip']['n_seeds']) - 1}"


def _planned_outputs(stdout: str) -> list[str]:
    return [
        o
        for line in stdout.splitlines()
        if line.strip().startswith("output:")
        for o in line.split(":", 1)[1].split(",")
    ]


# One algorithm of each paper (among those the tiny config runs): editing its module reruns only its runs
# (and what depends on them);
# ``expected`` is a regular expression every rerun's path matches.
EDITS = [
    ("bandits/thompson.py", "results/runs/nonmanip/", "/ts/", "figures/nonmanip/table1"),
    # POMIS+ TS and its TS variants (the spot check POMISplus_every_round, the knob study's POMISplus_nmin<n>)
    ("bandits/z2_thompson.py", "results/runs/nonmanip/", "/POMISplus(_\\w+)?/ts/", "figures/nonmanip/table1"),
    ("bandits/ucb_pcb.py", "results/runs/bounds/", "/appendix/default/ucb", "figures/bounds/figure_appendix"),
    ("bandits/fucb.py", "results/runs/fairness/", "/default/fucb_tau", "figures/fairness/table1"),
    ("bandits/ccpe_naive.py", "results/runs/cpe/", "/practical/naive/", "figures/cpe/table2_pac"),
    ("bandits/cn_ucb.py", "results/runs/unknown_graph/", "/default/cn_ucb", "figures/unknown_graph/table_final_regret"),
]


@pytest.mark.parametrize("module, runs_of, expected, downstream", EDITS)
def test_editing_one_algorithm_reruns_only_its_runs(tiny_run, module, runs_of, expected, downstream):
    path = tiny_run / "src" / "causal_bandits" / module
    original = path.read_text()
    try:
        path.write_text(original + "\n# edited\n")
        result = snakemake(tiny_run, "-n", *TINY)
    finally:
        path.write_text(original)
    planned = [o.strip() for o in _planned_outputs(result.stdout)]
    runs = [o for o in planned if o.startswith("results/runs/")]
    assert runs, result.stdout[-3000:]
    assert all(o.startswith(runs_of) and re.search(expected, o) for o in runs), runs
    assert any(o.startswith(downstream) for o in planned)
    assert any(o == "figures/REPORT.md" for o in planned)
    # Nothing upstream of the runs (arm sets, instances, offline estimates) is redone.
    assert not any("/arm_sets/" in o or "/instances/" in o or "/offline/" in o for o in planned)


def test_growing_the_robustness_experiment_runs_only_the_new_instances(tiny_run, tmp_path):
    """Raising graphs.sample and scms_per_panel plans the new instances and the tables, and keeps
    every file of the instances already run (their inputs and params do not name the counts)."""
    grown = tmp_path / "grown.yaml"
    grown.write_text("nonmanip:\n  robustness:\n    scms_per_panel: 1\n    graphs: {sample: 2}\n")
    result = snakemake(tiny_run, "-n", *TINY, str(grown))
    assert result.returncode == 0, result.stderr[-3000:]
    planned = [o.strip() for o in _planned_outputs(result.stdout)]
    runs = [o for o in planned if o.startswith("results/runs/nonmanip/")]
    assert runs and all(re.match(r"results/runs/nonmanip/rob_(g01|fig5\w_s00)/", o) for o in runs), runs
    assert "results/nonmanip/instances/rob_g01.json" in planned
    assert not [o for o in planned if "rob_g00" in o or o.endswith("robustness/graphs.json")]
    assert "figures/nonmanip/robustness.md" in planned


def test_counting_expressions_further_reruns_no_robustness_instance(tiny_run, tmp_path):
    """count_expressions_up_to_edges only changes what the report says of the fitting graphs: it
    replans their counts, the robustness table, the claims and the report, never the graphs or a run."""
    further = tmp_path / "further.yaml"
    further.write_text("nonmanip:\n  robustness:\n    graphs: {count_expressions_up_to_edges: 7}\n")
    result = snakemake(tiny_run, "-n", *TINY, str(further))
    assert result.returncode == 0, result.stderr[-3000:]
    planned = {o.strip() for o in _planned_outputs(result.stdout)}
    assert {
        "results/nonmanip/robustness/graph_counts.json",
        "figures/nonmanip/robustness.md",
        "figures/REPORT.md",
    } <= planned
    assert not [o for o in planned if "/instances/" in o or "/runs/" in o or o.endswith("robustness/graphs.json")]


def test_another_knob_value_runs_only_its_variant(recorded_tiny, tmp_path):
    """A further n_min in the knob study plans that variant's POMIS+ runs, the study's report, the claims and the
    report; no other run (the main POMIS+ run, the spot check and the other variants keep their params)."""
    overlay = tmp_path / "knobs.yaml"
    overlay.write_text("nonmanip:\n  pomis_plus:\n    knobs: {n_min: [0, 100, 300], no_expression: [beta]}\n")
    planned = _replanned(recorded_tiny, str(overlay))
    runs = [o for o in planned if o.startswith("results/runs/")]
    assert runs and all(re.match(r"results/runs/nonmanip/fig5\w/POMISplus_nmin300/ts/", o) for o in runs), runs
    assert {"figures/nonmanip/knobs.md", "results/claims/nonmanip.json", "figures/REPORT.md"} <= set(planned)


def test_papers_only_overlay_plans_the_report_without_the_added_studies(tmp_path):
    """config/papers_only.yaml: the papers' own experiments at paper scale and the report, no robustness
    instance, same-means point or knob variant."""
    work = copy_workflow(tmp_path / "repo")
    result = snakemake(work, "-n", "--configfile", "config/papers_only.yaml", "config/ci.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    planned = {o.strip() for o in _planned_outputs(result.stdout)}
    assert {"figures/REPORT.md", "figures/nonmanip/table1.md"} <= planned
    # (the same-means family per panel stays: Table 1's notes print the canonical SCM's efficiencies)
    added = [
        o for o in planned if re.search(r"/rob_|_sens\d|POMISplus_(nmin|beta)|/knobs|sensitivity[._]|robustness", o)
    ]
    assert not added, sorted(added)[:5]
    assert re.search(r"nonmanip_run_pomisplus\s+90\b", result.stdout)  # 3 panels x 2 solvers x 5 chunks + spot check 60


def test_paper_scale_dry_run_lists_paper_jobs(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    result = snakemake(work, "-n", "--configfile", "config/config.yaml", "config/ci.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    # nonmanip, with nonmanip.seeds_per_job 1000 (BF/MIS/POMIS: all of a setting's seeds in one job): 3 panels x 3 arm
    # sets x 2 algorithms (18); the robustness experiment (docs/papers/nonmanip.md#nonmanip-robustness): 50 graphs +
    # 3 panels x 30 SCMs = 140 instances of 200 seeds, x 3 arm sets x 2 algorithms (840); the same-means sweep: 3
    # panels x 8 points, POMIS x 2 algorithms (48).
    assert re.search(r"nonmanip_run\s+906\b", result.stdout)
    # POMIS+, 200 seeds per job (pomis_plus.seeds_per_job): 3 panels x 2 algorithms x 5 chunks (30), robustness 140
    # instances x 2 algorithms (280), the every_round spot check: 3 panels x 2 algorithms x 10 chunks of 5 seeds (60),
    # the same-means sweep's 24 points x 2 algorithms x 5 chunks (240), and the knob study: n_min 0, 100, 300, 1000 x
    # 3 panels x 2 algorithms x 5 chunks (120) and no_expression beta x 3 panels x KL-UCB x 5 chunks (15).
    assert re.search(r"nonmanip_run_pomisplus\s+745\b", result.stdout)
    assert not re.search(r"results/runs/nonmanip/fig5\w/POMISplus_beta/ts/", result.stdout)  # z²-KL-UCB only
    assert (
        len(
            re.findall(
                r"results/runs/nonmanip/fig5\w/POMISplus_every_round/(?:ts|kl_ucb)/chunk-0\.parquet", result.stdout
            )
        )
        == 6
    )
    # unknown_graph: V2 14 cells x 3 + V3 4 x 3 + V4 9 x 4 algorithms, 20 seeds in one chunk each.
    assert re.search(r"unknown_graph_run\s+90\b", result.stdout)
    # V6 discovery: one job per regime (A, B) and tree height (3, 5, 7, 9), none holding the whole grid.
    assert re.search(r"unknown_graph_discovery\s+8\b", result.stdout)


def _job_table(stdout: str) -> dict[str, int]:
    """Rule name -> job count, from the "Job stats" table of a dry run."""
    table = stdout.split("Job stats:", 1)[1].split("total", 1)[0]
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\w+)\s+(\d+)$", table, re.M)}


def test_tiny_config_runs_every_rule_the_quick_config_runs(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    quick = snakemake(work, "-n", "--configfile", "config/quick.yaml", "config/ci.yaml")
    tiny = snakemake(work, "-n", *TINY)
    assert quick.returncode == 0 and tiny.returncode == 0, (quick.stderr + tiny.stderr)[-3000:]
    quick_jobs, tiny_jobs = _job_table(quick.stdout), _job_table(tiny.stdout)
    assert len(quick_jobs) > 50 and set(tiny_jobs) == set(quick_jobs)
    assert sum(tiny_jobs.values()) < sum(quick_jobs.values())


def test_a_paper_target_plans_that_paper_alone(tmp_path):
    """`snakemake cpe` (README, "One paper") plans cpe's jobs down to its claims, and no job of another
    paper nor the report."""
    work = copy_workflow(tmp_path / "repo")
    result = snakemake(work, "-n", "cpe", *TINY)
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = _job_table(result.stdout)
    assert {"cpe", "cpe_run", "cpe_tables", "cpe_claims"} <= set(jobs), jobs
    assert all(rule.split("_")[0] == "cpe" for rule in jobs), jobs


@pytest.fixture(scope="module")
def planned_tiny(tmp_path_factory):
    """A scratch copy whose tiny outputs all exist and are up to date, without running a job: every
    output of the dry run created empty, then ``--touch`` in the DAG's order. Cheap, and enough to
    see what an edit replans through modified inputs (the params and code triggers need the
    metadata of real runs: the tests on ``tiny_run`` above cover those)."""
    work = copy_workflow(tmp_path_factory.mktemp("planned") / "repo")
    dry = snakemake(work, "-n", *TINY)
    assert dry.returncode == 0, dry.stderr[-3000:]
    for out in {o.strip() for o in _planned_outputs(dry.stdout)}:
        (work / out).parent.mkdir(parents=True, exist_ok=True)
        (work / out).touch()
    touched = snakemake(work, "--cores", "1", "--touch", *TINY)
    assert touched.returncode == 0, touched.stderr[-3000:]
    return work


def _replanned(work, *args) -> list[str]:
    result = snakemake(work, "-n", *TINY, *args)
    assert result.returncode == 0, result.stderr[-3000:]
    return [o.strip() for o in _planned_outputs(result.stdout)]


def _edit(path, text: str) -> tuple[str, os.stat_result]:
    """Write ``text`` to ``path``; returns what to hand :func:`_restore` (content and times as they were)."""
    before = path.read_text(), path.stat()
    path.write_text(text)
    return before


def _restore(path, before: tuple[str, os.stat_result]) -> None:
    """Put back a file's content and modification time: nothing is newer than the outputs again."""
    path.write_text(before[0])
    os.utime(path, ns=(before[1].st_atime_ns, before[1].st_mtime_ns))


def test_a_comment_in_a_config_module_replans_no_run(planned_tiny):
    """A paper's config module holds the checks the workflow runs when it parses; no run job executes
    it, so a comment in every paper's config module replans no run: no job at all except, for fairness,
    the tables and claims that read a constant of its config module (the paper's W)."""
    paths = [planned_tiny / "src" / "causal_bandits" / "papers" / p / "config.py" for p in PAPERS]
    saved = [_edit(p, p.read_text() + "\n# a comment\n") for p in paths]
    try:
        planned = _replanned(planned_tiny)
    finally:
        for path, before in zip(paths, saved):
            _restore(path, before)
    assert not [o for o in planned if o.startswith("results/runs/") or "/instances/" in o], planned
    assert not [o for o in planned if o.split("/")[1] in ("nonmanip", "bounds", "cpe", "unknown_graph")], planned


def test_adding_an_algorithm_plans_only_its_runs(planned_tiny, tmp_path):
    """The worked example (examples/add_an_algorithm: one new module, one registry line, an overlay
    naming it) plans ε-greedy's runs and the artefacts that show them; no run of the paper's
    algorithms, no instance or catalogue, and no POMIS+ run (ε-greedy has no z² version)."""
    example = planned_tiny / "examples" / "add_an_algorithm"
    module = planned_tiny / "src" / "causal_bandits" / "bandits" / "epsilon_greedy.py"
    registry = planned_tiny / "src" / "causal_bandits" / "papers" / "nonmanip" / "algorithms.py"
    overlay = tmp_path / "overlay.yaml"  # the example's overlay, with the tiny config's solvers
    overlay.write_text("nonmanip:\n  algorithms: [ts, eps_greedy]\n")
    head, _, tail = registry.read_text().rpartition("\n)\n")
    saved = _edit(registry, head + "\n" + (example / "registry_line.txt").read_text() + ")\n" + tail)
    try:
        module.write_text((example / "epsilon_greedy.py").read_text())
        planned = _replanned(planned_tiny, str(overlay))
    finally:
        _restore(registry, saved)
        module.unlink()
    runs = [o for o in planned if o.startswith("results/runs/")]
    assert runs and all(
        re.match(r"results/runs/nonmanip/[^/]+/(BF|MIS|POMIS)/eps_greedy/chunk-\d+", o) for o in runs
    ), runs
    assert {"figures/nonmanip/table1.md", "figures/nonmanip/figure5.pdf", "results/claims/nonmanip.json"} <= set(
        planned
    )
    assert not [o for o in planned if "/instances/" in o or "/catalogue/" in o or "/arm_sets/" in o]


@pytest.fixture(scope="module")
def recorded_tiny(tmp_path_factory):
    """Like ``planned_tiny``, but touched with ``--forceall``: every job's metadata (params, code) is
    recorded as a run would record it, so a dry run sees what a params edit replans."""
    work = copy_workflow(tmp_path_factory.mktemp("recorded") / "repo")
    dry = snakemake(work, "-n", *TINY)
    assert dry.returncode == 0, dry.stderr[-3000:]
    for out in {o.strip() for o in _planned_outputs(dry.stdout)}:
        (work / out).parent.mkdir(parents=True, exist_ok=True)
        (work / out).touch()
    touched = snakemake(work, "--cores", "1", "--touch", "--forceall", *TINY)
    assert touched.returncode == 0, touched.stderr[-3000:]
    return work


@pytest.mark.parametrize(
    ("edit", "replanned", "spared"),
    [
        # a V6 discovery constant: the V6 runs and their tables, no V1-V5 run
        ("discovery: {n_seeds: 5}", "results/unknown_graph/V6/", ("results/runs/", "/V5/", "/agg/")),
        # a V5 constant: the V5 runs and their tables, no V1-V4 run and no V6 run
        ("lower_bounds: {n_seeds: 3}", "results/unknown_graph/V5/", ("results/runs/", "/V6/", "/agg/")),
        # a V1-V4 constant: their runs, no V5 or V6 run
        ("horizon: 3000", "results/runs/unknown_graph/", ("/V5/", "/V6/")),
    ],
)
def test_a_rule_sees_only_its_slice_of_config(recorded_tiny, tmp_path, edit, replanned, spared):
    """Each rule gets the keys it reads as params: editing one of them replans that rule's jobs and
    what reads their outputs, and no job of a rule that does not read it (no V1-V4 run, at T = 10^6 in
    the paper-scale config, for a discovery constant)."""
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(f"unknown_graph: {{{edit}}}\n")
    planned = _replanned(recorded_tiny, str(overlay))
    assert [o for o in planned if o.startswith(replanned)], planned
    assert not [o for o in planned if o.split("/")[1] in ("nonmanip", "bounds", "cpe", "fairness")], planned
    assert not [o for o in planned if any(s in o for s in spared)], planned
