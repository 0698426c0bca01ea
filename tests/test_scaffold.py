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

from causal_bandits.cli import main

ROOT = Path(__file__).resolve().parents[1]
#: The files the scaffolds read or add to (copied into each test's repository).
TOUCHED = (
    "src/causal_bandits/papers/__init__.py",
    "src/causal_bandits/studies/__init__.py",
    "config/config.yaml",
    "config/tiny.yaml",
    "workflow/profiles/slurm/config.yaml",
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
    assert len(new) == 17 and sorted(changed) == sorted(set(TOUCHED) - {"src/causal_bandits/studies/__init__.py"})
    assert out.startswith("wrote 17 new files and added to 5:") and all(p in out for p in new)
    papers = (repo / "src/causal_bandits/papers/__init__.py").read_text()
    assert 'PAPERS = ("nonmanip", "bounds", "fairness", "cpe", "unknown_graph", "toy")' in papers
    config = yaml.safe_load((repo / "config/config.yaml").read_text())
    assert config["toy"]["horizon"] == 2000 and yaml.safe_load((repo / "config/tiny.yaml").read_text())["toy"]
    slurm = yaml.safe_load((repo / "workflow/profiles/slurm/config.yaml").read_text())
    assert slurm["groups"]["toy_run"] == "toy_runs" and slurm["group-components"]["toy_post"] == 1000
    # the registered fingerprint is the one of the rule the written claims module declares
    namespace: dict = {}
    exec(compile((repo / "src/causal_bandits/papers/toy/claims.py").read_text(), "claims.py", "exec"), namespace)
    registry = json.loads((repo / "src/causal_bandits/preregistration/registry.json").read_text())
    assert registry["toy/ts-regret"] == namespace["RULES"]["ts-regret"].fingerprint
    registered = json.loads((ROOT / TOUCHED[-1]).read_text())
    assert list(registry) == sorted(registry) and registry == {**registered, "toy/ts-regret": registry["toy/ts-regret"]}
    for path in (p for p in new if p.endswith(".py")):  # as if in this repository (its ruff settings, per path)
        for lint in (["check"], ["format", "--check"]):
            command = [sys.executable, "-m", "ruff", *lint, "--stdin-filename", path, "-"]
            text = (repo / path).read_text()
            result = subprocess.run(command, input=text, capture_output=True, text=True, cwd=ROOT)
            assert result.returncode == 0, path + result.stdout + result.stderr


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
def test_a_bad_paper_name_is_one_line_exit_2_and_nothing_written(repo, capsys, name, problem):
    before = _tree(repo)
    assert main(["new-paper", name, "--root", str(repo)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and problem in err and err.count("\n") == 1
    assert _tree(repo) == before


def test_the_scaffold_overwrites_nothing(repo, capsys):
    (repo / "workflow/rules").mkdir(parents=True)
    (repo / "workflow/rules/toy.smk").write_text("# mine\n")
    before = _tree(repo)
    assert main(["new-paper", "toy", "--root", str(repo)]) == 2
    assert "workflow/rules/toy.smk exists" in capsys.readouterr().err
    assert _tree(repo) == before


def test_a_bad_title_is_refused(repo, capsys):
    assert main(["new-paper", "toy", "--root", str(repo), "--title", 'A "quoted" title']) == 2
    assert "--title" in capsys.readouterr().err
