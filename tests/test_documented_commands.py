"""Every command line the README, CONTRIBUTING.md and the docs give a user works as written, from a clean
copy of the repository with no results: the raw data placed in ``data/raw`` and nothing else.

The commands are read from the Markdown itself: every line of a shell code block, and every inline
span that starts with ``snakemake``, ``make`` or ``causal-bandits``. Each must have an entry in
:data:`COMMANDS` saying how it is checked, so a command the docs gain without a check fails here by
name. The checks, from the strongest:

- ``Run``: at tiny size (``--configfile config/tiny.yaml`` added after the command's own words), it plans the
  file it promises from the clean copy, and in a copy of the finished tiny run with that file removed, it runs
  to the end and writes it again (the tiny run itself has run every job from an empty tree).
- ``Plan``: Snakemake plans it exactly as written, in a dry run (``-n`` added); what the plan must show
  is checked (the target's rule, a job count, the reason lines).
- ``Make``: ``make -n`` knows the target, and each Snakemake line of its recipe plans as above.
- ``Cli``: the console script runs it as written, placeholders filled, and exits 0.
- ``RunByTest``: a command that needs a finished run, a cluster or ten minutes (the report bundle, the
  SLURM profiles, the archive and ``verify``, the linters) is run by the named test, which must mention it.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from workflow_helpers import ROOT, SHARED_RAW, copy_finished_run, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

#: Markdown a user reads for commands.
DOCUMENTS = ("README.md", "CONTRIBUTING.md", "docs", "examples/add_an_algorithm/README.md")
_BLOCK = re.compile(r"^```(?:sh|bash|console|shell)\n(.*?)^```", re.M | re.S)
_INLINE = re.compile(r"`((?:snakemake|make|causal-bandits) [^`]*)`")


@dataclass(frozen=True)
class Run:
    """Planned from nothing, then run at tiny size where ``writes`` is missing: it must exist afterwards."""

    args: str
    writes: str


@dataclass(frozen=True)
class Plan:
    """Plan as written (``-n`` added; placeholders filled in ``args``); ``shows`` must be in the output."""

    args: str
    shows: str = "Job stats:"


@dataclass(frozen=True)
class Make:
    """``make -n target [VAR=value]`` succeeds and its Snakemake lines plan."""

    target: str


@dataclass(frozen=True)
class Cli:
    """``causal-bandits args`` exits 0 and prints ``shows``."""

    args: str
    shows: str


@dataclass(frozen=True)
class RunByTest:
    """Run by ``test`` (a path under tests/ or .ci/), whose text contains ``mentions``."""

    test: str
    mentions: str


SMOKE = "snakemake --cores 2 --configfile config/quick.yaml examples/add_an_algorithm/overlay.yaml"
COMMANDS: dict[str, Run | Plan | Make | Cli | RunByTest] = {
    # make targets
    "make quick": Make("quick"),
    "make reproduce": Make("reproduce"),
    "make reproduce CORES=16": Make("reproduce CORES=16"),
    "make test": Make("test"),
    "make lint": Make("lint"),
    "make docs": Make("docs"),
    "make serve": Make("serve"),
    "make help": Make("help"),
    "make clean": Make("clean"),
    "make benchmark": Make("benchmark"),
    "make plan": Make("plan"),
    'make plan CONFIGS="config/config.yaml examples/own_experiment.yaml"': Make(
        'plan CONFIGS="config/config.yaml examples/own_experiment.yaml"'
    ),
    "make verify": RunByTest("tests/test_verify_workflow.py", "verify"),
    'make run CONFIGS="a.yaml b.yaml"': Make("run CONFIGS=config/quick.yaml"),
    # whole runs, planned as written
    "snakemake --cores 16": Plan("--cores 16"),
    "snakemake --cores N": Plan("--cores 2"),
    "snakemake -n": Plan(""),
    "snakemake -n --forceall": Plan("--forceall"),
    "snakemake -n --forceall --quiet rules": Plan("--forceall --quiet rules"),
    "snakemake -n --quiet host": Plan("--quiet host", shows="reason:"),
    "snakemake --cores 2 --configfile config/quick.yaml": Plan("--cores 2 --configfile config/quick.yaml"),
    "snakemake --cores 16 --configfile config/studies.yaml": Plan("--cores 16 --configfile config/studies.yaml"),
    "snakemake --cores 16 studies --configfile config/studies.yaml": Plan(
        "--cores 16 studies --configfile config/studies.yaml", shows="knobs_report"
    ),
    "snakemake --cores 16 knobs --configfile config/studies.yaml": Plan(
        "--cores 16 knobs --configfile config/studies.yaml", shows="knobs_report"
    ),
    "snakemake --cores 2 --configfile config/config.yaml examples/own_experiment.yaml "
    "-- figures/experiments/my_study/table.md": Plan(
        "--cores 2 --configfile config/config.yaml examples/own_experiment.yaml "
        "-- figures/experiments/my_study/table.md",
        shows="experiments_summary",
    ),
    "snakemake --cores 2 --configfile config/config.yaml examples/own_pure_exploration.yaml "
    "-- figures/pure_exploration/confounded_six/table.md": Plan(
        "--cores 2 --configfile config/config.yaml examples/own_pure_exploration.yaml "
        "-- figures/pure_exploration/confounded_six/table.md",
        shows="pure_exploration_table",
    ),
    "snakemake --cores 2 --configfile config/quick.yaml <overlay>.yaml": RunByTest(
        "tests/test_add_an_algorithm_workflow.py", "overlay.yaml"
    ),
    "snakemake --cores 1 results/fairness/raw/adult.json results/fairness/raw/youtube.json": Plan(
        "--cores 1 results/fairness/raw/adult.json results/fairness/raw/youtube.json", shows="fairness_"
    ),
    "snakemake -n TARGET": Plan("figures/cpe/table1_instances.md", shows="cpe_tables"),
    # one paper, one artefact: run at tiny size
    "snakemake --cores 4 cpe": Run("--cores 2 cpe", writes="results/claims/cpe.json"),
    "snakemake --cores 2 <paper>": Run("--cores 2 cpe", writes="results/claims/cpe.json"),
    "snakemake --cores 4 <key>": Run("--cores 2 cpe", writes="results/claims/cpe.json"),
    "snakemake --cores 4 figures/nonmanip/table1.md": Run(
        "--cores 2 figures/nonmanip/table1.md", writes="figures/nonmanip/table1.md"
    ),
    "snakemake --cores 2 <path>": Run("--cores 2 figures/nonmanip/table1.md", writes="figures/nonmanip/table1.md"),
    "snakemake --unlock": Plan("--unlock", shows=""),
    "snakemake --lint": RunByTest(".ci/run", "make lint"),
    # what needs a finished run, a cluster or a paper-scale archive
    SMOKE: RunByTest("tests/test_add_an_algorithm_workflow.py", "overlay.yaml"),
    "snakemake --report report.zip": RunByTest("tests/test_report_workflow.py", "--report"),
    "snakemake --workflow-profile workflow/profiles/slurm": RunByTest("tests/test_slurm.py", "profiles/slurm"),
    "snakemake --profile workflow/profiles/slurm --workflow-profile workflow/profiles/cluster-generic": RunByTest(
        "tests/test_cluster_profiles.py", "cluster-generic"
    ),
    # the scaffolds write into the repository: run, with their skeletons, in a copy of their own
    "causal-bandits new-paper mypaper": RunByTest("tests/test_scaffold_workflow.py", '("new-paper", "toy")'),
    "causal-bandits new-study mystudy": RunByTest("tests/test_scaffold_workflow.py", '("new-study", "probe")'),
    "causal-bandits new-paper <key>": RunByTest("tests/test_scaffold_workflow.py", '("new-paper", "toy")'),
    "causal-bandits new-study <name>": RunByTest("tests/test_scaffold_workflow.py", '("new-study", "probe")'),
    "snakemake --cores 2 mypaper --configfile config/tiny.yaml": RunByTest(
        "tests/test_scaffold_workflow.py", '"--cores", "2", "toy", "probe", *TINY'
    ),
    "snakemake --cores 2 mystudy --configfile config/tiny.yaml": RunByTest(
        "tests/test_scaffold_workflow.py", '"--cores", "2", "toy", "probe", *TINY'
    ),
    "causal-bandits archive": RunByTest("tests/conftest.py", '"archive"'),
    "causal-bandits verify": RunByTest("tests/test_verify_workflow.py", '"verify"'),
    "causal-bandits rules check": RunByTest("tests/test_preregistration.py", '["rules", "check"]'),
    ".venv/bin/causal-bandits rules check": RunByTest("tests/test_preregistration.py", '["rules", "check"]'),
    ".venv/bin/causal-bandits rules show cpe/pac": RunByTest(
        "tests/test_preregistration.py", '["rules", "show", "cpe/pac"]'
    ),
    "causal-bandits rules register <key>/<rule> --reason TEXT": RunByTest(
        "tests/test_preregistration.py", '["rules", "register", "cpe/pac", "--reason"'
    ),
    '.venv/bin/causal-bandits rules register cpe/pac --reason "why" --verdict-new "7 inconclusive at this scale"': (
        RunByTest("tests/test_preregistration.py", '["rules", "register", "cpe/pac", "--reason"')
    ),
    "causal-bandits quotes --write": RunByTest("tests/test_docs_record.py", '["quotes", "--write"]'),
    'make tiny-digests REASON="why the outputs moved"': RunByTest("tests/test_byte_guard.py", "make tiny-digests"),
    'make tiny-digests REASON="..."': RunByTest("tests/test_byte_guard.py", "make tiny-digests"),
    "make release VERSION=X.Y.Z": RunByTest("tests/test_release.py", "check_version"),
    "causal-bandits release": RunByTest("tests/test_release.py", "check_version"),
    "causal-bandits release X.Y.Z --estimate": RunByTest("tests/test_release.py", '"--estimate"'),
    "make plan EXPERIMENT=my_study CONFIGS=examples/own_experiment.yaml": RunByTest(
        "tests/test_plan_one_part.py", '"EXPERIMENT=my_study"'
    ),
    "make plan TARGET=figures/experiments/my_study/table.md CONFIGS=examples/own_experiment.yaml": RunByTest(
        "tests/test_plan_one_part.py", '"TARGET=figures/nonmanip/table1.md"'
    ),
    "make check-config": Make("check-config"),
    "make run": Make("run"),
    "causal-bandits archive --out DIR": RunByTest("tests/conftest.py", '"--out"'),
    "causal-bandits check-store FILE...": RunByTest("tests/test_store_check.py", '"check-store"'),
    "causal-bandits check-store --before-run": RunByTest("tests/test_damaged_files.py", '"--before-run"'),
    "snakemake --cores all <path>": RunByTest("tests/test_damaged_files.py", "rebuild.replace"),
    'make check-store CONFIGS="..."': RunByTest("tests/test_store_check.py", '"check-store"'),
    "causal-bandits verify --budget 60 --jobs 8 --seed 4": RunByTest("tests/test_verify_workflow.py", '"verify"'),
    'make verify VERIFY_ARGS="--all"': Make("verify VERIFY_ARGS=--all"),
    'make verify VERIFY_ARGS="--all --scratch .verify/all"': RunByTest("tests/test_verify_levels.py", '"--scratch"'),
    "make verify VERIFY_ARGS=archive/studies": Make("verify VERIFY_ARGS=archive/studies"),
    'make verify VERIFY_ARGS="--configfile raw.yaml"': Make("verify VERIFY_ARGS=--configfile=raw.yaml"),
    "causal-bandits pomis": RunByTest("tests/test_cli.py", '"pomis"'),
    "causal-bandits run-job RULE NAME=VALUE... --configfile FILE...": RunByTest("tests/test_run_job.py", '"run-job"'),
    "causal-bandits run-job nonmanip_run experiment=fig5a strategy=POMIS algorithm=ts chunk=0 --configfile "
    "config/quick.yaml": RunByTest("tests/test_run_job.py", '"run-job"'),
    "causal-bandits pomis GRAPH.json": RunByTest("tests/test_cli.py", '"pomis"'),
    # the config check, as written
    "causal-bandits check-config": Cli("check-config", shows="ok:"),
    "causal-bandits check-config FILE": Cli("check-config config/quick.yaml", shows="ok:"),
    "causal-bandits check-config FILE...": Cli("check-config config/quick.yaml config/tiny.yaml", shows="ok:"),
    "causal-bandits check-config config/config.yaml config/studies.yaml": Cli(
        "check-config config/config.yaml config/studies.yaml", shows="ok:"
    ),
}


def _markdown() -> list[Path]:
    files = []
    for name in DOCUMENTS:
        path = ROOT / name
        files += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    return files


def documented_commands() -> dict[str, str]:
    """Every command the Markdown gives, with where it is first given (``file:line``)."""
    found: dict[str, str] = {}
    for path in _markdown():
        text = path.read_text(encoding="utf-8")
        spans = [(m.start(1), line) for m in _BLOCK.finditer(text) for line in m.group(1).splitlines()]
        spans += [(m.start(1), m.group(1)) for m in _INLINE.finditer(text)]
        for offset, raw in spans:
            command = " ".join(raw.split("  #")[0].split())  # a comment after two spaces is prose
            if command and not command.startswith("#"):
                where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"
                found.setdefault(command, where)
    return found


def test_every_documented_command_has_a_check():
    unchecked = {c: where for c, where in documented_commands().items() if c not in COMMANDS}
    assert not unchecked, "documented commands no test checks (add them to COMMANDS): " + "; ".join(
        f"{where}: {c}" for c, where in unchecked.items()
    )
    stale = sorted(set(COMMANDS) - set(documented_commands()))
    assert not stale, f"COMMANDS entries the docs no longer give (remove them): {stale}"


@pytest.fixture(scope="module")
def clean_checkout(tmp_path_factory) -> Path:
    """A copy of the repository with no results, and the raw data where the docs say to put it."""
    work = copy_workflow(tmp_path_factory.mktemp("documented") / "repo")
    (work / "data").mkdir(exist_ok=True)
    (work / "data" / "raw").symlink_to(SHARED_RAW)
    return work


def _checks(kind: type) -> list:
    seen: dict = {}
    for command, check in COMMANDS.items():
        if isinstance(check, kind):
            seen.setdefault(check, command)
    return [pytest.param(check, id=command) for check, command in seen.items()]


def _plan(work: Path, args: list[str], shows: str) -> None:
    result = snakemake(work, "-n", *args, local_profile=True)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert shows in output, f"{shows!r} not in the plan of {args}:\n{output[-3000:]}"


@pytest.mark.parametrize("check", _checks(Plan))
def test_documented_plan(clean_checkout, check):
    _plan(clean_checkout, shlex.split(check.args), check.shows)


@pytest.fixture(scope="module")
def finished_run(tiny_run, tmp_path_factory) -> Path:
    """A copy of the finished tiny run, with the raw data where the docs say to put it."""
    work = copy_finished_run(tiny_run, tmp_path_factory.mktemp("documented_finished") / "repo")
    if not (work / "data" / "raw").exists():
        (work / "data" / "raw").symlink_to(SHARED_RAW)
    return work


@pytest.mark.parametrize("check", _checks(Run))
def test_documented_run_at_tiny_size(clean_checkout, finished_run, check):
    args = [*shlex.split(check.args), "--configfile", "config/tiny.yaml"]
    _plan(clean_checkout, args, "Job stats:")
    (finished_run / check.writes).unlink()
    result = snakemake(finished_run, *args)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (finished_run / check.writes).is_file()


@pytest.mark.parametrize("check", _checks(Make))
def test_documented_make_target(clean_checkout, check):
    result = subprocess.run(
        ["make", "-n", *shlex.split(check.target)], cwd=clean_checkout, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    for part in (part for line in result.stdout.splitlines() for part in line.split(" && ")):
        words = [w for w in shlex.split(part) if w != "$targets"]  # the run targets' checks name targets to rebuild
        if words and words[0].endswith("/snakemake") and "--lint" not in words:
            _plan(clean_checkout, words[1:], "")


@pytest.mark.parametrize("check", _checks(Cli))
def test_documented_cli(clean_checkout, check):
    result = subprocess.run(
        [sys.executable, "-m", "causal_bandits", *shlex.split(check.args)],
        cwd=clean_checkout,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(clean_checkout / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert check.shows in result.stdout


@pytest.mark.parametrize("check", _checks(RunByTest))
def test_documented_command_is_run_by_its_test(check):
    assert check.mentions in (ROOT / check.test).read_text(encoding="utf-8")
