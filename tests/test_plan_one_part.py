"""A plan and a cost for exactly one's own work: ``make plan EXPERIMENT=name`` / ``TARGET=path`` and
``causal-bandits check-config --experiment/--targets`` (causal_bandits.plan.targets, cost_of), the config checked
first, with the tools of .venv or of PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from causal_bandits import config as cb_config
from causal_bandits import cost, plan
from causal_bandits.experiments.rule_inputs import figures

ROOT = Path(__file__).resolve().parents[1]
OWN = ROOT / "examples" / "own_experiment.yaml"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "causal_bandits", "check-config", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_one_experiments_targets_and_cost():
    done = cli(str(OWN), "--targets", "my_study")
    assert done.returncode == 0 and done.stdout.split() == figures("my_study")
    assert cli("--targets", "nonmanip").stdout.split() == ["nonmanip"]  # a paper: the workflow's rule of its name
    done = cli(str(OWN), "--experiment", "my_study")
    assert done.returncode == 0
    cost_lines = [line for line in done.stdout.splitlines() if line.startswith("  ")]
    assert len(cost_lines) == 1 and cost_lines[0].startswith("  own experiment my_study: ")


def test_an_unknown_name_is_one_line_with_the_closest_before_any_estimate():
    done = cli(str(OWN), "--experiment", "my_stdy")
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "did you mean 'my_study'?" in done.stderr


def test_a_papers_cost_alone():
    config = cb_config.check(cb_config.load(ROOT / "config" / "config.yaml", OWN))
    found = cost.estimate(config)
    assert plan.cost_of(config, found, "cpe") == [f"  cpe: {found.cpu_hours['cpe']:.2g} CPU-h"]


def make_n(*args: str, cwd: Path = ROOT, path: str | None = None) -> list[str]:
    """The recipe lines ``make -n`` prints, as a user's make would: not as a sub-make of ``make test`` (whose
    MAKELEVEL and MAKEFLAGS would add "Entering directory" lines)."""
    outer = {"MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES"}
    env = {k: v for k, v in os.environ.items() if k not in outer} | {
        "PATH": path if path is not None else os.environ["PATH"]
    }
    done = subprocess.run(["make", "-n", *args], capture_output=True, text=True, cwd=cwd, env=env, check=True)
    return done.stdout.splitlines()


def _tools() -> str:
    """Where the Makefile takes the tools from in this checkout: .venv once set up, else PATH's when both are there."""
    on_path = shutil.which("snakemake") and shutil.which("causal-bandits")
    return "" if on_path and not (ROOT / ".venv" / ".installed").exists() else ".venv/bin/"


def test_make_plan_checks_the_config_first_and_plans_one_part():
    tools = _tools()
    lines = make_n("plan", "EXPERIMENT=my_study", f"CONFIGS={OWN}")
    assert lines[-2] == f"{tools}causal-bandits check-config --experiment my_study {OWN}"
    assert lines[-1].startswith(f"{tools}snakemake -n --quiet host --configfile ")
    assert lines[-1].endswith(f"-- $({tools}causal-bandits check-config --targets my_study {OWN})")
    assert make_n("plan", "TARGET=figures/nonmanip/table1.md")[-1].endswith("-- figures/nonmanip/table1.md")
    assert make_n("plan", "CONFIGS=nowhere.yaml")[-2] == f"{tools}causal-bandits check-config nowhere.yaml"


def test_make_plan_uses_the_tools_on_path_without_a_venv(tmp_path):
    """A checkout without .venv whose PATH has snakemake and causal-bandits (a conda environment) uses those."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    tools = str(Path(sys.executable).parent)
    assert (Path(tools) / "snakemake").exists() and (Path(tools) / "causal-bandits").exists()
    lines = make_n("plan", "EXPERIMENT=my_study", cwd=tmp_path, path=f"{tools}:/usr/bin:/bin")
    assert lines == [
        "causal-bandits check-config --experiment my_study",
        "snakemake -n --quiet host  -- $(causal-bandits check-config --targets my_study )",
    ]
