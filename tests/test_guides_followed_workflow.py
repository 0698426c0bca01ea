"""The suite tests what users add: in a copy of the repository, every guide is followed as a researcher would
(docs/guide/add-an-algorithm.md: ε-greedy, and MOSS with its horizon as a parameter; own-experiment.md: an own
experiment and a pure-exploration experiment; add-a-paper.md and docs/studies.md: ``new-paper mypaper`` and
``new-study mystudy``), each step checked as the guide says (``causal-bandits check-config`` answers ok), and then
the whole unit suite runs there and passes. A guide step that breaks, or a unit test that expects only today's
registries, fails it.

Slow (the whole unit suite, on 2 processes): 13 minutes on 2 cores shared with other work (load about 22); it runs
with the workflow tests. A hang is caught at GUIDES_SUITE_LIMIT_S seconds (4 hours unless set), far above that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_helpers import ROOT, SHARED_RAW, copy_workflow, register_example

pytestmark = pytest.mark.workflow

#: Each guide's steps: (what, command arguments of ``causal-bandits``), run in order in the copy.
STEPS = (
    ("add-an-algorithm.md: the overlay naming ε-greedy", ("check-config", "examples/add_an_algorithm/overlay.yaml")),
    ("add-an-algorithm.md: MOSS with T", ("check-config", "examples/add_an_algorithm/moss_overlay.yaml")),
    ("own-experiment.md: an own experiment", ("check-config", "examples/own_experiment.yaml")),
    ("own-experiment.md: pure exploration", ("check-config", "examples/own_pure_exploration.yaml")),
    ("add-a-paper.md: the paper scaffold", ("new-paper", "mypaper")),
    ("studies.md: the study scaffold", ("new-study", "mystudy")),
    ("add-a-paper.md: its quick block", ("check-config", "config/quick.yaml", "--experiment", "mypaper")),
    ("studies.md: the study's block", ("check-config", "config/studies.yaml", "--experiment", "mystudy")),
)
#: Wall-clock limit of the unit suite in the copy: far above its time on a loaded 2-core machine.
SUITE_LIMIT_S = int(os.environ.get("GUIDES_SUITE_LIMIT_S", 4 * 3600))


def follow_the_guides(dest: Path) -> Path:
    """A copy of the repository at ``dest`` (beside it the shared raw data, as the tests find them; the committed
    archive linked) with every guide's additions made and each step checked; returns the copy."""
    work = copy_workflow(dest)
    (work / "archive").symlink_to(ROOT / "archive")
    shared = dest.parent / "shared"
    if not shared.exists():
        shared.symlink_to(SHARED_RAW.parents[1])
    register_example(work / "src", "epsilon_greedy.py", "registry_line.txt")  # add-an-algorithm.md, steps 1-2
    register_example(work / "src", "moss.py", "moss_registry_line.txt")  # its MOSS with a parameter
    for what, args in STEPS:
        done = _in(work, sys.executable, "-m", "causal_bandits", *args, timeout=900)
        assert done.returncode == 0, f"{what}: causal-bandits {' '.join(args)}\n{done.stderr[-2000:]}"
    return work


def _in(work: Path, *command: str, timeout: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=timeout, check=False)


#: Unit tests that read what a copy has not: the checkout's git history.
NOT_IN_A_COPY = ("tests/test_archive.py::test_the_history_line_names_the_run_commit_and_whether_the_checkout_holds_it",)


def test_the_unit_suite_passes_after_every_guide_is_followed(tmp_path_factory):
    work = follow_the_guides(tmp_path_factory.mktemp("guides") / "repo")
    suite = (sys.executable, "-m", "pytest", "-q", "-m", "not workflow", "-n", "2", "-p", "no:cacheprovider")
    deselected = [f"--deselect={test}" for test in NOT_IN_A_COPY]
    done = _in(work, *suite, *deselected, "tests", timeout=SUITE_LIMIT_S)
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    assert done.returncode == 0, "\n".join(failed or [done.stdout[-3000:], done.stderr[-2000:]])
