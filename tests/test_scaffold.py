"""The scaffolds (``causal-bandits new-paper`` / ``new-study``, causal_bandits.scaffold) on a copy of the files they
add to: what they write, that it passes the linters, that the claim's rule is registered with the fingerprint the
written module declares, and that a bad name or an existing file writes nothing. The skeletons' run is
tests/test_scaffold_workflow.py."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from workflow_helpers import rule_groups

from causal_bandits import scaffold
from causal_bandits.cli import main
from causal_bandits.papers import PAPERS
from causal_bandits.studies import STUDIES

ROOT = Path(__file__).resolve().parents[1]
#: The files the scaffolds read or add to (copied into each test's repository).
TOUCHED = (
    "src/causal_bandits/papers/registry.yaml",
    "src/causal_bandits/studies/registry.yaml",
    "config/config.yaml",
    "config/quick.yaml",
    "config/tiny.yaml",
    "config/studies.yaml",
    "src/causal_bandits/preregistration/registry.json",
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for path in TOUCHED:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    return tmp_path


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_new_paper_writes_its_files_and_one_line_in_each_list(repo, capsys):
    before = _tree(repo)
    assert main(["new-paper", "toy", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    after = _tree(repo)
    new = sorted(set(after) - set(before))
    changed = sorted(p for p in before if before[p] != after[p])
    unchanged = {"src/causal_bandits/studies/registry.yaml", "config/studies.yaml"}
    assert len(new) == 13 and sorted(changed) == sorted(set(TOUCHED) - unchanged)
    assert out.startswith("wrote 13 new files and added to 5:") and all(p in out for p in new)
    papers = yaml.safe_load((repo / "src/causal_bandits/papers/registry.yaml").read_text())
    assert papers == [*PAPERS, "toy"]  # whatever papers a researcher has added: read, not listed here
    config = yaml.safe_load((repo / "config/config.yaml").read_text())
    assert config["toy"]["horizon"] == 2000 and yaml.safe_load((repo / "config/tiny.yaml").read_text())["toy"]
    quick = yaml.safe_load((repo / "config/quick.yaml").read_text())["toy"]
    assert quick["horizon"] < config["toy"]["horizon"] and quick["n_seeds"] < config["toy"]["n_seeds"]
    # each rule names its job group itself (tests/test_cluster_profiles.py: the SLURM profile sizes them)
    post = dict.fromkeys(("toy_aggregate", "toy_table1", "toy_figure1", "toy_claims"), "post")
    assert rule_groups(repo) == {"toy_run": "runs", **post}
    # the registered fingerprint is the one of the rule the written claims module declares
    namespace: dict = {}
    exec(compile((repo / "src/causal_bandits/papers/toy/claims.py").read_text(), "claims.py", "exec"), namespace)
    registry = json.loads((repo / "src/causal_bandits/preregistration/registry.json").read_text())
    assert registry["toy/ts-regret"] == namespace["RULES"]["ts-regret"].fingerprint
    registered = json.loads((ROOT / TOUCHED[-1]).read_text())
    assert list(registry) == sorted(registry) and registry == {**registered, "toy/ts-regret": registry["toy/ts-regret"]}
    _lint(repo, new)
    _judged_at_paper_scale_only(namespace, config["toy"], quick)


def _judged_at_paper_scale_only(claims: dict, paper_scale: dict, quick: dict) -> None:
    """The template claim says *not evaluated* below its section's paper scale (as the papers' claims do) and judges
    the same numbers at it."""
    import pandas as pd

    def verdict(horizon: int, n_seeds: int):
        row = {"algorithm": "ts", "round": horizon, "n_seeds": n_seeds, "mean_cum_regret": 5.0}
        agg = pd.DataFrame([{**row, "ci95_lo": 4.0, "ci95_hi": 6.0}])
        return claims["ts_regret"]({"agg": agg, "section": {**paper_scale, "horizon": horizon}})

    small = verdict(quick["horizon"], quick["n_seeds"])
    assert small.status == claims["NOT_EVALUATED"] and "lack the power" in small.note and small.ours
    assert verdict(paper_scale["horizon"], paper_scale["n_seeds"]).status == "reproduced"


def _lint(repo: Path, new: list[str]) -> None:
    """ruff on the new Python files as if they were in this repository (its settings, per path)."""
    for path in (p for p in new if p.endswith(".py")):
        for lint in (["check"], ["format", "--check"]):
            command = [sys.executable, "-m", "ruff", *lint, "--stdin-filename", path, "-"]
            text = (repo / path).read_text()
            result = subprocess.run(command, input=text, capture_output=True, text=True, cwd=ROOT)
            assert result.returncode == 0, path + result.stdout + result.stderr


def test_new_study_writes_its_files_and_one_line_in_each_list(repo, capsys):
    before = _tree(repo)
    assert main(["new-study", "probe", "--root", str(repo)]) == 0
    after = _tree(repo)
    new = sorted(set(after) - set(before))
    changed = sorted(p for p in before if before[p] != after[p])
    assert new == [
        "src/causal_bandits/studies/probe.py",
        "src/causal_bandits/studies/probe.schema.yaml",
        "workflow/report/study_probe.rst",
        "workflow/rules/studies/probe.smk",
    ]
    assert changed == sorted(["src/causal_bandits/studies/registry.yaml", "config/studies.yaml", "config/tiny.yaml"])
    assert capsys.readouterr().out.startswith("wrote 4 new files and added to 3:")
    assert (repo / "src/causal_bandits/studies/registry.yaml").read_text().endswith(f"- {STUDIES[-1]}\n- probe\n")
    # the block goes last in the overlay (its order is STUDIES') and into the tiny run's studies: block
    assert list(yaml.safe_load((repo / "config/studies.yaml").read_text())["studies"])[-1] == "probe"
    tiny = yaml.safe_load((repo / "config/tiny.yaml").read_text())
    assert tiny["studies"]["probe"] == {"horizon": 200, "n_seeds": 2, "seeds_per_job": 2}
    assert rule_groups(repo) == {"probe_run": "runs", "probe_report": "post"}
    _lint(repo, new)


@pytest.mark.parametrize(
    "name, problem",
    [
        ("Toy", "not lower snake_case"),
        ("1toy", "not lower snake_case"),
        ("toy-paper", "not lower snake_case"),
        ("tøy", "not lower snake_case"),
        ("class", "not lower snake_case"),
        ("x" * 31, "not lower snake_case"),
        ("nonmanip", "already used"),
        ("refresh", "already used"),
        ("report", "already used"),
    ],
)
def test_a_bad_name_is_one_line_exit_2_and_nothing_written(repo, capsys, name, problem):
    before = _tree(repo)
    for command in ("new-paper", "new-study"):
        assert main([command, name, "--root", str(repo)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and problem in err and err.count("\n") == 1
        assert _tree(repo) == before


@pytest.mark.parametrize(
    "command, mine", [("new-paper", "workflow/rules/toy.smk"), ("new-study", "workflow/rules/studies/toy.smk")]
)
def test_the_scaffold_overwrites_nothing(repo, capsys, command, mine):
    (repo / mine).parent.mkdir(parents=True)
    (repo / mine).write_text("# mine\n")
    before = _tree(repo)
    assert main([command, "toy", "--root", str(repo)]) == 2
    assert f"{mine} exists" in capsys.readouterr().err
    assert _tree(repo) == before


@pytest.mark.parametrize(
    "name, rules", [("bounds_data", "rule bounds_data:\n"), ("toy", "use rule x as toy_run with:\n")]
)
def test_a_name_whose_rules_exist_is_refused(repo, capsys, name, rules):
    """Snakemake refuses two rules of one name: the target rule (the name) and the skeleton's rules must be new."""
    (repo / "workflow/rules/studies").mkdir(parents=True)
    (repo / "workflow/rules/studies/other.smk").write_text(rules)
    before = _tree(repo)
    for command in ("new-paper", "new-study"):
        assert main([command, name, "--root", str(repo)]) == 2
        assert "is already a rule of the workflow" in capsys.readouterr().err
    assert _tree(repo) == before


def test_a_root_that_is_no_repository_is_named(tmp_path, capsys):
    assert main(["new-study", "probe", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not found; run the command at the repository's root, or give --root" in err and not any(tmp_path.iterdir())


def test_a_bad_title_is_refused(repo, capsys):
    assert main(["new-paper", "toy", "--root", str(repo), "--title", 'A "quoted" title']) == 2
    assert "--title" in capsys.readouterr().err


def test_the_guides_count_the_files_the_scaffolds_write():
    paper = scaffold.paper_plan(ROOT, "toy", "t", PAPERS, STUDIES)  # plans only: nothing is written
    study = scaffold.study_plan(ROOT, "probe", "t", PAPERS, STUDIES)
    guide = (ROOT / "docs/guide/add-a-paper.md").read_text()
    assert f"**{len(paper.paths)} files**, {len(paper.new)} new and {len(paper.edited)} with lines added" in guide
    assert f"new file ({len(paper.new)})" in guide and f"file with lines added ({len(paper.edited)})" in guide
    studies_guide = (ROOT / "docs/studies.md").read_text()
    assert f"**{len(study.paths)} files**, {len(study.new)} new" in studies_guide
    assert f"and {len(study.edited)} with lines added" in studies_guide
    assert f"one file of the {len(paper.paths)}" in (ROOT / "docs/guide/add-an-algorithm.md").read_text()
    assert f"skeleton of all of this ({len(paper.paths)} files, listed in" in (ROOT / "CONTRIBUTING.md").read_text()
