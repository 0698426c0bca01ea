"""tools/house_rules.py, the check ``make lint`` runs beside the linters: it holds on this checkout, and fails, with
one line naming the file and the fix, on a planted import circle (a deferred import included), a planted function
over 60 lines and a test that imports from conftest.py."""

from __future__ import annotations

import importlib.util
import shutil

import pytest
from workflow_helpers import ROOT

_LOADER = importlib.util.spec_from_file_location("house_rules", ROOT / "tools" / "house_rules.py")
assert _LOADER and _LOADER.loader
house_rules = importlib.util.module_from_spec(_LOADER)
_LOADER.loader.exec_module(house_rules)


@pytest.fixture
def tree(tmp_path):
    """A small tree laid out as the checkout: a package with two modules, a test, the tools."""
    package = tmp_path / "src" / "causal_bandits"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from causal_bandits import b\n\n\ndef f():\n    return b.g()\n")
    (package / "b.py").write_text("def g():\n    return 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("from workflow_helpers import ROOT\n")
    shutil.copytree(ROOT / "tools", tmp_path / "tools")
    return tmp_path


def test_the_checkout_keeps_the_house_rules():
    assert house_rules.findings(ROOT) == []


def test_a_clean_tree_passes(tree):
    assert house_rules.findings(tree) == []


def test_a_deferred_import_that_closes_a_circle_fails(tree):
    (tree / "src" / "causal_bandits" / "b.py").write_text(
        "def g():\n    from causal_bandits import a\n\n    return 1\n"
    )
    assert house_rules.findings(tree) == [
        "import circle: causal_bandits.a <-> causal_bandits.b; move what both need into a module of its own, "
        "or pass it in"
    ]


def test_an_import_only_for_type_checking_is_no_circle(tree):
    text = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from causal_bandits.a import f\n"
    (tree / "src" / "causal_bandits" / "b.py").write_text(text)
    assert house_rules.findings(tree) == []


def test_a_function_over_60_lines_fails(tree):
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    (tree / "src" / "causal_bandits" / "b.py").write_text(f"def g():\n{body}    return x0\n")
    assert house_rules.findings(tree) == [
        "src/causal_bandits/b.py: g is 62 lines (at most 60); split it",
    ]


def test_a_test_importing_from_conftest_fails(tree):
    (tree / "tests" / "test_a.py").write_text("from conftest import ROOT\n")
    (found,) = house_rules.findings(tree)
    assert found.startswith("tests/test_a.py imports from conftest.py; import the helper from its module")


def test_the_command_exits_1_with_one_line_per_finding(tree, capsys):
    (tree / "tests" / "test_a.py").write_text("import conftest\n")
    assert house_rules.main([str(tree)]) == 1
    assert len(capsys.readouterr().err.splitlines()) == 1
