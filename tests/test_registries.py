"""A malformed registry (papers' or studies' ``registry.yaml``, a paper's ``ALGORITHMS``) is one line naming the file
and the entry, with the fix; a command that does not read the registry still works, and the workflow stops in one
line before it plans a job."""

from __future__ import annotations

import os
import subprocess
import sys
import types

import pytest
from workflow_helpers import HANG_GUARD_S, TINY, copy_workflow

from causal_bandits import algorithms
from causal_bandits.errors import ConfigError

#: Malformed registry files, and what the one line says of them.
BAD = [
    ("- nonmanip\n- bounds: x\n", "registry.yaml, entry 2 ({'bounds': 'x'}) is not a key in lower snake_case"),
    ("- nonmanip\n- nonmanip\n", "registry.yaml, entry 2 ('nonmanip') is listed twice"),
    ("- nonmanip\n- nope\n", "registry.yaml, entry 2 ('nope') names no module causal_bandits.papers.nope"),
    ("- nonmanip\n-\n", "registry.yaml, entry 2 (None) is not a key"),
    ("nonmanip: 1\n", "registry.yaml holds a dict, not a list of keys"),
    ("", "registry.yaml holds nothing, not a list of keys"),
    ("- [nonmanip\n", "registry.yaml:2 cannot be read (did not find expected ',' or ']')"),
]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A copy of the repository whose papers' registry (src/causal_bandits/papers/registry.yaml) the tests break."""
    return copy_workflow(tmp_path_factory.mktemp("registries") / "repo")


def _run(work, *command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=work, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S
    )


@pytest.mark.parametrize(("text", "expected"), BAD)
def test_a_malformed_papers_registry_is_one_line_and_other_commands_work(work, text, expected):
    registry = work / "src" / "causal_bandits" / "papers" / "registry.yaml"
    kept = registry.read_text()
    registry.write_text(text)
    try:
        checked = _run(work, "causal_bandits", "check-config")
        pomis = _run(work, "causal_bandits", "pomis", "--help")
    finally:
        registry.write_text(kept)
    assert checked.returncode == 2 and checked.stderr.count("\n") == 1, checked.stderr[-3000:]
    assert checked.stderr.startswith(f"error: {registry.parent}/") and expected in checked.stderr, checked.stderr
    assert "write one '- <key>' line per entry" in checked.stderr
    assert pomis.returncode == 0 and pomis.stdout.startswith("usage: causal-bandits pomis"), pomis.stderr[-3000:]


@pytest.mark.workflow
def test_a_malformed_papers_registry_stops_the_workflow_in_one_line(work):
    registry = work / "src" / "causal_bandits" / "papers" / "registry.yaml"
    kept = registry.read_text()
    registry.write_text(BAD[0][0])
    try:
        done = _run(work, "snakemake", "-n", "--workflow-profile", "none", *TINY)
    finally:
        registry.write_text(kept)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode != 0 and len(errors) == 1 and BAD[0][1] in errors[0], done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "File " not in done.stderr


def _algorithms(monkeypatch, paper: str, *entries) -> None:
    module = types.ModuleType(algorithms.registry_module(paper))
    module.ALGORITHMS = entries  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, algorithms.registry_module(paper), module)


def test_a_malformed_algorithms_registry_is_one_line_naming_the_entry(monkeypatch):
    ts = algorithms.Algorithm("ts", "causal_bandits.bandits.thompson.Thompson", "TS")
    _algorithms(monkeypatch, "twice", ts, ts)
    with pytest.raises(
        ConfigError, match=r"^causal_bandits.papers.twice.algorithms.ALGORITHMS, entry 2 registers 'ts' tw"
    ):
        algorithms.registry("twice")
    _algorithms(monkeypatch, "loose", ts, ("kl_ucb", "path"))
    with pytest.raises(ConfigError, match=r"ALGORITHMS, entry 2 \(\('kl_ucb', 'path'\)\) is not an Algorithm"):
        algorithms.registry("loose")
    _algorithms(monkeypatch, "z2less", algorithms.Algorithm("ts", "x.Y", "TS", z2="z2_ts"))
    with pytest.raises(ConfigError, match="'ts' names z² version 'z2_ts', which is not registered; register it"):
        algorithms.registry("z2less")
