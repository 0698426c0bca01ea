"""The library stands alone: a wheel built from this checkout, installed (not editable) in a fresh virtualenv outside
the repository, runs the Python API's documented examples (docs/guide/python-api.md, and the docstring examples
tests/test_api.py runs) and one run job, whose files match, byte for byte, the same job run from the checkout.

The fresh virtualenv holds the wheel alone; its dependencies are read from this checkout's environment through a
``.pth`` line naming that environment's site-packages (a path line: the ``.pth`` files there, among them the
checkout's editable install, are not processed), so the test needs no network. Marked ``workflow``: it builds a wheel
and a virtualenv (about a minute)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from workflow_helpers import ROOT

from causal_bandits import config as cb_config
from causal_bandits import runs
from causal_bandits.papers.unknown_graph import runs as unknown_graph_runs

pytestmark = pytest.mark.workflow

#: What the wheel is built from: the package and the files pyproject.toml names.
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "src")
#: The config of the run job: the tiny run's (config/tiny.yaml over config/config.yaml), copied beside the job.
CONFIGS = ("config/config.yaml", "config/tiny.yaml")
#: The documented examples: every ```python block of the guide (a ``>>>`` block runs as a doctest).
GUIDE = ROOT / "docs" / "guide" / "python-api.md"
DOCTESTED = ("causal_bandits.api", "causal_bandits.arms", "causal_bandits.bandits.engine")

#: Run in the fresh virtualenv, in a folder outside the repository: where the package was imported from, the
#: documented examples, then one unknown_graph run job (its first cell and algorithm, chunk 0).
SCRIPT = """
import doctest, importlib, json, sys
import causal_bandits
from causal_bandits import config, runs
from causal_bandits.papers.unknown_graph import runs as unknown_graph_runs

blocks = json.loads(sys.argv[1])
for block in blocks:
    if block.lstrip().startswith(">>>"):
        assert doctest.run_docstring_examples(block, {}, verbose=False) is None
    else:
        exec(compile(block, "python-api.md", "exec"), {"__name__": "__example__"})
for name in sys.argv[2].split(","):
    failed, tried = doctest.testmod(importlib.import_module(name))
    assert tried and not failed, (name, failed, tried)
section = config.validate(config.load("config.yaml", "tiny.yaml"))
job = unknown_graph_runs.describe(section, json.loads(sys.argv[3]))
runs.execute(job, {}, "trace.parquet", "summary.parquet")
print(json.dumps({"package": causal_bandits.__file__, "memory_mb": job.memory_mb}))
"""


def _examples() -> list[str]:
    """The guide's ```python blocks, in order."""
    return re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)


def _wildcards() -> dict[str, str]:
    """The run job's wildcards: the tiny config's first unknown_graph run job."""
    config = cb_config.validate(cb_config.load(*(ROOT / name for name in CONFIGS)))
    return dict(next(iter(unknown_graph_runs.run_jobs(config))))


def _wheel(tmp_path: Path) -> Path:
    """A wheel of this checkout's package, built from a copy of its sources (no build files in the checkout)."""
    source = tmp_path / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    subprocess.run([*pip, "--wheel-dir", str(tmp_path / "dist"), str(source)], check=True)
    (wheel,) = (tmp_path / "dist").glob("causal_bandits-*.whl")
    return wheel


def _fresh_venv(tmp_path: Path, wheel: Path) -> Path:
    """A new virtualenv with the wheel installed (no editable install), reading the dependencies of this checkout's
    environment; returns its Python."""
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", wheel], check=True)
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True
    ).stdout.strip()
    (Path(purelib) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_a_wheel_installed_outside_the_repository_runs_the_examples_and_a_run_job(tmp_path):
    python = _fresh_venv(tmp_path, _wheel(tmp_path))
    work = tmp_path / "outside"
    work.mkdir()
    for name in CONFIGS:
        shutil.copy(ROOT / name, work / Path(name).name)
    wildcards = _wildcards()
    argv = [json.dumps(_examples()), ",".join(DOCTESTED), json.dumps(wildcards)]
    done = subprocess.run([python, "-c", SCRIPT, *argv], cwd=work, capture_output=True, text=True, env={})
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(found["package"]).is_relative_to(tmp_path / "venv"), found  # the wheel's copy, not the checkout's
    # The same job from the checkout: the same bytes, and the same memory request (the wheel's run_peaks.yaml).
    section = cb_config.validate(cb_config.load(*(ROOT / name for name in CONFIGS)))
    job = unknown_graph_runs.describe(section, wildcards)
    runs.execute(job, {}, str(tmp_path / "trace.parquet"), str(tmp_path / "summary.parquet"))
    assert found["memory_mb"] == job.memory_mb
    for name in ("trace.parquet", "summary.parquet"):
        assert (work / name).read_bytes() == (tmp_path / name).read_bytes(), name
