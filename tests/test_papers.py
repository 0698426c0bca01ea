"""The paper registry: every registered paper is laid out as a Paper, found through one function."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

from causal_bandits.algorithms import registry
from causal_bandits.config import check, load
from causal_bandits.papers import PAPERS, Paper, paper


@pytest.mark.parametrize("key", PAPERS)
def test_every_registered_paper_is_a_paper(key):
    found = paper(key)
    assert isinstance(found, Paper) and found.key == key and found.title
    assert registry(key), key
    module = __import__(f"causal_bandits.papers.{key}.config", fromlist=["check_config"])
    assert list(inspect.signature(module.check_config).parameters) == ["section"]


@pytest.mark.parametrize("key", PAPERS)
def test_a_paper_checks_and_lists_its_section(key):
    section = check(load("config/config.yaml", "config/tiny.yaml", "config/ci.yaml"))[key]
    found = paper(key)
    found.check_config(section)
    assert found.artefacts(section)
    for name in (found.runs, found.claims):
        assert __import__(name, fromlist=["_"])


def test_an_unregistered_paper_is_named_with_the_registered_ones():
    with pytest.raises(KeyError, match="no paper 'nope' is registered; registered papers: nonmanip"):
        paper("nope")


def test_finding_a_paper_imports_none_of_its_modules():
    """The workflow finds papers while it parses: that must not import their heavy modules."""
    code = (
        "import sys; from causal_bandits.papers import PAPERS, paper; [paper(k) for k in PAPERS]; "
        "print(sorted(m for m in sys.modules if m.count('.') > 2 and m.startswith('causal_bandits.papers.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
