"""The workflow as a user runs it: tiny run end to end (every rule), paper-scale dry run, partial reruns."""

from __future__ import annotations

import os
import re

import pytest
from workflow_helpers import ROOT, TINY, copy_workflow, snakemake
from workflow_outputs import check_parses

from causal_bandits import config as cb_config
from causal_bandits import studies
from causal_bandits.artefacts import paths
from causal_bandits.papers import PAPERS, paper
from causal_bandits.studies import STUDIES

pytestmark = pytest.mark.workflow

#: The tiny config (config/tiny.yaml runs every paper and every study, small) as the workflow reads it.
TINY_CONFIG = cb_config.check(cb_config.load(ROOT / "config" / "config.yaml", *(ROOT / f for f in TINY[1:])))
#: What the tiny run writes, from the declarations the workflow reads: every paper's tables and figures
#: (``papers/<key>/artefacts.py``) and claims, every study's (its module's ``artefacts``) and evaluated claims.
PAPER_OUTPUTS = [
    *paths([a for key in PAPERS for a in paper(key).artefacts(TINY_CONFIG[key])]),
    *(f"results/claims/{key}.json" for key in PAPERS),
]
STUDY_OUTPUTS = [
    *paths([a for name in STUDIES for a in studies.module(name).artefacts(TINY_CONFIG[studies.study(name).paper])]),
    *(f"results/claims/studies/{name}.json" for name in STUDIES),
]


def test_tiny_run_writes_every_output(tiny_run):
    assert len(PAPER_OUTPUTS) > 50 and len(STUDY_OUTPUTS) > 2 * len(STUDIES)
    for rel in [*PAPER_OUTPUTS, *STUDY_OUTPUTS, "figures/REPORT.md", "figures/REPORT.html"]:
        assert (tiny_run / rel).exists(), rel
    finals = [p for p in (tiny_run / "figures").rglob("*") if p.is_file()]
    assert len(finals) >= len([f for f in PAPER_OUTPUTS + STUDY_OUTPUTS if f.startswith("figures/")]) + 2
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


def test_growing_the_robustness_study_runs_only_the_new_instances(tiny_run, tmp_path):
    """Raising graphs.sample and scms_per_panel plans the new instances and the tables, and keeps
    every file of the instances already run (their inputs and params do not name the counts)."""
    grown = tmp_path / "grown.yaml"
    grown.write_text("studies:\n  robustness:\n    scms_per_panel: 1\n    graphs: {sample: 2}\n")
    result = snakemake(tiny_run, "-n", *TINY, str(grown))
    assert result.returncode == 0, result.stderr[-3000:]
    planned = [o.strip() for o in _planned_outputs(result.stdout)]
    runs = [o for o in planned if o.startswith("results/runs/")]
    assert runs and all(re.match(r"results/runs/studies/robustness/\w+/(g01|fig5\w-s00)/", o) for o in runs), runs
    assert "results/studies/robustness/g01/instance.json" in planned
    assert not [o for o in planned if "/g00/" in o or o.endswith("robustness/graphs.json")]
    assert "figures/studies/robustness/table.md" in planned
    assert not [o for o in planned if o.startswith("results/claims/") and "studies" not in o]  # no paper's claims


def test_counting_expressions_further_reruns_no_robustness_instance(tiny_run, tmp_path):
    """count_expressions_up_to_edges only changes what the study says of the fitting graphs: it replans their
    counts, the study's table and claims and the report, never the graphs or a run."""
    further = tmp_path / "further.yaml"
    further.write_text("studies:\n  robustness:\n    graphs: {count_expressions_up_to_edges: 7}\n")
    result = snakemake(tiny_run, "-n", *TINY, str(further))
    assert result.returncode == 0, result.stderr[-3000:]
    planned = {o.strip() for o in _planned_outputs(result.stdout)}
    assert {
        "results/studies/robustness/graph_counts.json",
        "figures/studies/robustness/table.md",
        "figures/REPORT.md",
    } <= planned
    assert not [o for o in planned if "instance" in o or "/runs/" in o or o.endswith("robustness/graphs.json")]


def test_another_knob_value_runs_only_its_point(recorded_tiny, tmp_path):
    """A further n_min in the knob study plans that point's POMIS+ runs, the study's report and the report; no
    other run (the main POMIS+ run and the other points keep their params) and no paper's claims."""
    overlay = tmp_path / "knobs.yaml"
    overlay.write_text("studies:\n  knobs: {n_min: [0, 100, 300], no_expression: [beta]}\n")
    planned = _replanned(recorded_tiny, str(overlay))
    runs = [o for o in planned if o.startswith("results/runs/")]
    assert runs and all(re.match(r"results/runs/studies/knobs/n_min-300/fig5\w/POMISplus/ts/", o) for o in runs), runs
    assert {"figures/studies/knobs/table.md", "results/claims/studies/knobs.json", "figures/REPORT.md"} <= set(planned)
    assert "results/claims/nonmanip.json" not in planned


def test_the_default_config_plans_only_the_papers_and_the_overlay_the_studies(tmp_path):
    """config/config.yaml: the papers' own experiments at paper scale and the report, nothing of a study;
    config/studies.yaml adds every study and no paper job."""
    work = copy_workflow(tmp_path / "repo")
    papers = snakemake(work, "-n", "--forceall", "--configfile", "config/config.yaml", "config/ci.yaml")
    assert papers.returncode == 0, papers.stderr[-3000:]
    planned = {o.strip() for o in _planned_outputs(papers.stdout)}
    assert {"figures/REPORT.md", "figures/nonmanip/table1.md"} <= planned
    assert not [o for o in planned if "studies" in o], sorted(o for o in planned if "studies" in o)[:5]
    overlay = snakemake(
        work, "-n", "--forceall", "--configfile", "config/config.yaml", "config/studies.yaml", "config/ci.yaml"
    )
    assert overlay.returncode == 0, overlay.stderr[-3000:]
    with_studies = {o.strip() for o in _planned_outputs(overlay.stdout)}
    assert {f"results/claims/studies/{name}.json" for name in STUDIES} <= with_studies
    assert planned <= with_studies  # the studies add jobs, and change none of the papers'
    papers_table, studies_table = _job_table(papers.stdout), _job_table(overlay.stdout)
    assert {r: n for r, n in studies_table.items() if r in papers_table and r not in ("all", "report")} == {
        r: n for r, n in papers_table.items() if r not in ("all", "report")
    }


def test_paper_scale_dry_run_lists_paper_jobs(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    result = snakemake(work, "-n", "--configfile", "config/config.yaml", "config/ci.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    # nonmanip, with nonmanip.seeds_per_job 1000 (BF/MIS/POMIS: all of a setting's seeds in one job): 3 panels x 3 arm
    # sets x 2 algorithms (18); POMIS+ in chunks of pomis_plus.panel_seeds_per_job (fig5a 1000: 1 chunk, fig5b 500: 2)
    # or of pomis_plus.seeds_per_job (fig5c 200: 5), x 2 algorithms (16). No study: config/studies.yaml turns them on.
    assert re.search(r"nonmanip_run\s+18\b", result.stdout)
    assert re.search(r"nonmanip_run_pomisplus\s+16\b", result.stdout)
    assert "results/runs/studies/" not in result.stdout and "figures/studies/" not in result.stdout
    # unknown_graph: V2 14 cells x 3 + V3 4 x 3 + V4 9 x 4 algorithms, 20 seeds in one chunk each.
    assert re.search(r"unknown_graph_run\s+90\b", result.stdout)
    # V6 discovery: one job per regime (A, B), tree height (3, 5, 7, 9) and (delta, c_B) setting (2 x 4), none
    # holding a whole height (a height-9 setting costs about a minute of CPU).
    assert re.search(r"unknown_graph_discovery\s+64\b", result.stdout)


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
    # the tiny config also runs every study (quick runs only the papers)
    study_rules = {r for r in tiny_jobs if any(r.startswith(f"{name}_") for name in STUDIES)}
    assert len(quick_jobs) > 50 and set(tiny_jobs) - study_rules == set(quick_jobs)
    assert {r.rsplit("_", 1)[0] for r in study_rules} >= {"refresh", "knobs", "robustness", "fucb_radius"}
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


def test_adding_an_algorithm_plans_only_its_runs(recorded_tiny, tmp_path):
    """The worked example (examples/add_an_algorithm: one new module, one registry line, an overlay
    naming it) plans ε-greedy's runs and the artefacts that show them; no run of the paper's
    algorithms, no instance or catalogue, and no POMIS+ run (ε-greedy has no z² version)."""
    example = recorded_tiny / "examples" / "add_an_algorithm"
    module = recorded_tiny / "src" / "causal_bandits" / "bandits" / "epsilon_greedy.py"
    registry = recorded_tiny / "src" / "causal_bandits" / "papers" / "nonmanip" / "algorithms.py"
    overlay = tmp_path / "overlay.yaml"  # the example's overlay, with the tiny config's solvers
    overlay.write_text("nonmanip:\n  algorithms: [ts, eps_greedy]\n")
    head, _, tail = registry.read_text().rpartition("\n)\n")
    saved = _edit(registry, head + "\n" + (example / "registry_line.txt").read_text() + ")\n" + tail)
    try:
        module.write_text((example / "epsilon_greedy.py").read_text())
        planned = _replanned(recorded_tiny, str(overlay))
    finally:
        _restore(registry, saved)
        module.unlink()
    runs = [o for o in planned if o.startswith("results/runs/")]
    bad = [o for o in runs if not re.match(r"results/runs/nonmanip/[^/]+/(BF|MIS|POMIS)/eps_greedy/chunk-\d+", o)]
    assert runs and not bad, bad
    assert {"figures/nonmanip/table1.md", "figures/nonmanip/figure5.pdf", "results/claims/nonmanip.json"} <= set(
        planned
    )
    assert not [o for o in planned if "/instances/" in o or "/catalogue/" in o or "/arm_sets/" in o]


@pytest.fixture(scope="module")
def recorded_tiny(tmp_path_factory):
    """A scratch copy whose tiny outputs all exist, with every job's metadata (its params, its code's digests)
    recorded as a run records it, without running a job: every output of the dry run created empty, then
    ``--touch --forceall``. Cheap, and enough for a dry run to see what an edit of the config or the code replans."""
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


# Rerun tracking (causal_bandits.sources): a job's ``code`` parameter maps every library file it executes to a digest
# of its code, which Snakemake records with the outputs. One algorithm of each paper (among those the tiny config
# runs): ``expected`` is a regular expression that picks, among all the tiny run's run files, exactly those an edit
# of the module must rerun; ``downstream`` the start of another output it must redo.
EDITS = [
    # TS: the paper's runs and the studies' (same-means POMIS, robustness BF / MIS / POMIS)
    ("bandits/thompson.py", "/(BF|MIS|POMIS)/ts/", "figures/nonmanip/table1"),
    # z²-TS: POMIS+ with TS, the paper's and every study's (every study of the tiny config plays it)
    ("bandits/z2_thompson.py", "/POMISplus/ts/", "figures/nonmanip/table1"),
    # UCB-PCB, and UCB, the same class without the bounds
    ("bandits/ucb_pcb.py", "^results/runs/bounds/appendix/default/ucb(_pcb)?/", "figures/bounds/figure_appendix"),
    # F-UCB: the paper's runs (one per tau) and the radius study's, which builds it by its registry path
    ("bandits/fucb.py", "^results/runs/(fairness/\\w+/default/fucb|studies/fucb_radius/)", "figures/fairness/table1"),
    ("bandits/ccpe_naive.py", "^results/runs/cpe/[^/]+/practical/naive/", "figures/cpe/table2_pac"),
    # CN-UCB, and its literal reading (the same class, another setting); V5, which builds it by its registry path
    (
        "bandits/cn_ucb.py",
        "^results/runs/unknown_graph/[^/]+/default/cn_ucb(_literal)?/",
        "results/unknown_graph/V5/thm4-cn_ucb",
    ),
]
#: An edit of a module's code (a comment or a docstring would change nothing).
CODE_EDIT = "\nEDITED = True\n"


@pytest.fixture(scope="module")
def tiny_runs_planned(recorded_tiny) -> list[str]:
    """Every run file of the tiny config, from a dry run of every job."""
    return [o for o in _replanned(recorded_tiny, "--forceall") if o.startswith("results/runs/")]


def _replanned_after(work, module: str, edit) -> list[str]:
    """What a dry run plans after ``edit`` (old text -> new text) of ``module`` (under src/causal_bandits)."""
    path = work / "src" / "causal_bandits" / module
    saved = _edit(path, edit(path.read_text()))
    try:
        return _replanned(work)
    finally:
        _restore(path, saved)


@pytest.mark.parametrize("module, expected, downstream", EDITS)
def test_editing_one_algorithm_reruns_exactly_its_runs(recorded_tiny, tiny_runs_planned, module, expected, downstream):
    planned = _replanned_after(recorded_tiny, module, lambda text: text + CODE_EDIT)
    runs = {o for o in planned if o.startswith("results/runs/")}
    assert runs and runs == {o for o in tiny_runs_planned if re.search(expected, o)}, sorted(runs)
    assert any(o.startswith(downstream) for o in planned)
    assert "figures/REPORT.md" in planned
    # Nothing upstream of the runs (arm sets, instances, offline estimates) is redone.
    assert not any("/arm_sets/" in o or "/instances/" in o or "/offline/" in o for o in planned)


def test_editing_a_papers_module_reruns_only_that_papers_jobs(recorded_tiny, tiny_runs_planned):
    """bounds' run module: every bounds run, what reads them and the report; no job of another paper or a study."""
    planned = _replanned_after(recorded_tiny, "papers/bounds/runs.py", lambda text: text + CODE_EDIT)
    runs = {o for o in planned if o.startswith("results/runs/")}
    assert runs == {o for o in tiny_runs_planned if o.startswith("results/runs/bounds/")}
    others = [o for o in planned if "bounds" not in o and not o.startswith("figures/REPORT.")]
    assert not others, others


def test_editing_the_engine_reruns_every_run(recorded_tiny, tiny_runs_planned):
    planned = _replanned_after(recorded_tiny, "bandits/engine.py", lambda text: text + CODE_EDIT)
    assert {o for o in planned if o.startswith("results/runs/")} == set(tiny_runs_planned)


def _comments_and_docstrings(text: str) -> str:
    """``text`` with its first docstring reworded and a comment added: the same code."""
    start = text.index('"""') + 3
    return text[:start] + "Reworded. " + text[start:] + "\n# a comment\n"


@pytest.mark.parametrize("module", ["bandits/engine.py", "bandits/thompson.py", "papers/nonmanip/runs.py", "store.py"])
def test_a_comment_or_a_docstring_reruns_nothing(recorded_tiny, module):
    assert _replanned_after(recorded_tiny, module, _comments_and_docstrings) == []
