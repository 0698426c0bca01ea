"""The scaffolds prove the declarations suffice: in a copy of the repository, ``causal-bandits new-paper toy`` and
``new-study probe`` write skeletons that run on the tiny config (only their targets), whose outputs and claims are
there; they touch no existing file but the ones they list and change no existing job's code digest, and a paper run
before them (nonmanip, the study's) is still complete after them: Snakemake reruns none of its jobs; the whole
workflow still plans; the repository's own tests over every paper pass with the
sixth, and so do the linters; and the docs build strictly with its page (docs/guide/add-a-paper.md, docs/studies.md)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from workflow_helpers import HANG_GUARD_S, ROOT, TINY, copy_finished_run, rule_groups, snakemake
from workflow_outputs import check_parses

from causal_bandits.claims import STATUSES
from causal_bandits.papers import PAPERS
from causal_bandits.studies import OUTCOMES

pytestmark = pytest.mark.workflow

#: Every existing job's code (causal_bandits.sources): each workflow script's, each step function's module the rule
#: files name (``stage("module:function")``, the skeletons' own left out), and each paper's run job's.
CODE = r"""
import json, re, sys
from pathlib import Path
from causal_bandits import sources
from causal_bandits.papers import paper
scripts = sorted(Path("workflow/scripts").glob("*.py"))
code = {s.name: sources.code(script=s) for s in scripts}
rules = sorted(Path("workflow/rules").rglob("*.smk"))
steps = {m for f in rules for m in re.findall(r'stage\(\s*"([\w.]+):', f.read_text())}
code |= {m: sources.code(m) for m in sorted(steps) if not re.search(r"\.(toy|probe)\b", m)}
code |= {p: sources.code(paper(p).runs) for p in sys.argv[1:]}
print(json.dumps(code, sort_keys=True))
"""
#: The files the skeletons' targets must write, read from their declarations in the copy.
OUTPUTS = """
import json
from causal_bandits import artefacts, config, studies
from causal_bandits.papers import paper
cfg = config.check(config.load("config/config.yaml", "config/tiny.yaml", "config/ci.yaml"))
found = artefacts.paths(paper("toy").artefacts(cfg["toy"])) + ["results/claims/toy.json"]
found += artefacts.paths(studies.module("probe").artefacts(cfg["nonmanip"])) + ["results/claims/studies/probe.json"]
print(json.dumps(found))
"""


def _python(work: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    return subprocess.run(
        [sys.executable, *args], cwd=work, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S
    )


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".snakemake" not in p.parts
    }


@pytest.fixture(scope="module")
def scaffolded(tiny_run, tmp_path_factory):
    """A copy of the finished tiny run (every paper run, nonmanip the study's), then a paper and a study scaffolded:
    (copy, its files before, the listed files, every existing job's code before and after)."""
    work = copy_finished_run(tiny_run, tmp_path_factory.mktemp("scaffold") / "repo")
    code = [_python(work, "-c", CODE, *PAPERS)]
    before = _tree(work)
    listed = []
    for command in (("new-paper", "toy"), ("new-study", "probe")):
        result = _python(work, "-m", "causal_bandits", *command)
        assert result.returncode == 0, result.stderr
        listed += [line.split()[1] for line in result.stdout.splitlines() if line.startswith("  ")]
    code.append(_python(work, "-c", CODE, *PAPERS))
    assert all(c.returncode == 0 for c in code), [c.stderr for c in code]
    return work, before, listed, [json.loads(c.stdout) for c in code]


def test_the_scaffolds_touch_only_what_they_list_and_change_no_jobs_code(scaffolded):
    work, before, listed, (code_before, code_after) = scaffolded
    after = _tree(work)
    touched = {p for p in after if before.get(p) != after[p]}
    assert (
        touched == set(listed) and len(listed) == 13 + 5 + 4 + 3
    )  # new-paper: 13 new, 5 added to; new-study: 4 new, 3 added to
    # no existing job's code changes: Snakemake reruns none of them (a skeleton's rule may name a shared step module
    # no rule named before, such as causal_bandits.aggregate, whose code is then new, not changed)
    assert {key: code_after[key] for key in code_before} == code_before


def test_a_paper_run_before_the_scaffolds_is_complete_after_them(scaffolded):
    planned = snakemake(scaffolded[0], "-n", "nonmanip", *TINY)
    assert planned.returncode == 0 and "Nothing to be done" in planned.stdout + planned.stderr, planned.stdout[-2000:]


def test_the_skeletons_run_on_the_tiny_config(scaffolded):
    work = scaffolded[0]
    result = snakemake(work, "--cores", "2", "toy", "probe", *TINY)
    assert result.returncode == 0, result.stderr[-3000:]
    listed = _python(work, "-c", OUTPUTS)
    assert listed.returncode == 0, listed.stderr
    outputs = json.loads(listed.stdout)
    assert len(outputs) == 4 + 1 + 2 + 1
    for path in outputs:
        check_parses(work / path)
    claims = json.loads((work / "results/claims/toy.json").read_text())
    (row,) = claims["claims"]
    assert row["status"] in STATUSES and row["rule"]["key"] == "ts-regret" and len(row["rule"]["fingerprint"]) == 64
    study = json.loads((work / "results/claims/studies/probe.json").read_text())
    assert study["claims"] and [f["outcome"] for f in study["findings"].values()] == ["inconclusive"]
    assert set(OUTCOMES) >= {f["outcome"] for f in study["findings"].values()}
    # the study reran the main run's panel under the paper's key: its seeds pair with the main run's
    trace = next((work / "results/runs/studies/probe").rglob("chunk-0.parquet"))
    assert "p0/fig5a/POMIS/ts" in trace.as_posix()


def test_the_whole_workflow_still_checks_and_plans(scaffolded):
    work = scaffolded[0]
    checked = _python(work, "-m", "causal_bandits", "check-config", "config/tiny.yaml", "config/ci.yaml")
    assert checked.returncode == 0 and "unknown_graph, toy)" in checked.stdout, checked.stderr
    planned = snakemake(work, "-n", "--forceall", *TINY)  # every job, those the copied run has done included
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "report" in planned.stdout and "bounds_run" in planned.stdout
    # each new rule names a job group the SLURM profile sizes (tests/test_cluster_profiles.py checks every rule so)
    listed = snakemake(work, "--list-rules", *TINY)
    new = {line.split()[0] for line in listed.stdout.splitlines() if line.startswith(("toy_", "probe_"))}
    groups = rule_groups(work)
    sized = yaml.safe_load((work / "workflow/profiles/slurm/config.yaml").read_text())["group-components"]
    assert len(new) == 5 + 2 and all(groups.get(rule) in sized for rule in new)


def test_the_repositorys_tests_over_every_paper_and_study_pass_with_the_new_ones(scaffolded):
    work = scaffolded[0]
    tests = [
        "tests/test_papers.py",
        "tests/test_preregistration.py",
        "tests/test_coverage.py",  # the other papers' cases read the archive, which a copy has not
        "tests/test_run_jobs.py::test_every_paper_contributes_a_description_and_a_builder",
        "tests/test_config.py::test_the_paper_config_runs_no_study_and_the_overlay_runs_them_all",
    ]
    chosen = "toy or overlay_runs_them_all"
    result = _python(work, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", chosen, *tests)
    assert result.returncode == 0, result.stdout[-4000:]
    assert "9 passed, 1 skipped" in result.stdout, result.stdout[-500:]  # the toy cases; its text is not beside a copy
    # and the type check CI runs (make lint) passes on the new modules as on the others
    typed = _python(work, "-m", "mypy", "src/causal_bandits/papers/toy", "src/causal_bandits/studies/probe.py")
    assert typed.returncode == 0, typed.stdout[-3000:]


def test_the_docs_build_strictly_with_the_new_papers_page(scaffolded):
    work = scaffolded[0]
    if (ROOT / "archive" / "paper-scale").is_dir():  # the archive has no section of the new paper: a note says so
        (work / "archive").mkdir(exist_ok=True)
        (work / "archive" / "paper-scale").symlink_to(ROOT / "archive" / "paper-scale")
    site = work / "site"
    result = _python(work, "-m", "mkdocs", "build", "--strict", "-d", str(site))
    assert result.returncode == 0, result.stderr[-4000:]
    assert "No archived run yet" in (site / "papers" / "toy.html").read_text()
    api = (site / "api.html").read_text()  # the API reference lists the new modules (docs/hooks/packages.py)
    assert 'id="causal_bandits.papers.toy.runs"' in api and 'id="causal_bandits.studies.probe"' in api
