"""The code a job executes and its digest (causal_bandits.sources): the rule parameter Snakemake reruns a job by.

What the digest means for a run is checked on the workflow itself (test_workflow.py: an algorithm's edit, a
paper module's, the engine's, a comment's); here, what it is made of.
"""

from __future__ import annotations

import json

import pytest

from causal_bandits.sources import code, file_digest, module_files

MODULE = '''"""A module docstring."""

import math

# a comment


def area(r):
    """A function docstring."""
    return math.pi * r**2


class Circle:
    """A class docstring."""

    radius = 1
'''


def test_a_run_job_depends_on_its_algorithm_and_not_on_the_others():
    ts = set(module_files("causal_bandits.papers.nonmanip.runs", "causal_bandits.bandits.thompson"))
    assert {
        "causal_bandits/bandits/thompson.py",
        "causal_bandits/bandits/beta.py",
        "causal_bandits/bandits/engine.py",
        "causal_bandits/store.py",
    } <= ts
    assert "causal_bandits/bandits/klucb.py" not in ts
    fucb = set(module_files("causal_bandits.papers.fairness.runs", "causal_bandits.bandits.fucb"))
    assert {"causal_bandits/bandits/ducb.py", "causal_bandits/bandits/certificate.py"} <= fucb  # its base class
    ducb = set(module_files("causal_bandits.papers.fairness.runs", "causal_bandits.bandits.ducb"))
    assert "causal_bandits/bandits/fucb.py" not in ducb  # the auditor shares the certificate, not F-UCB


def test_imports_inside_functions_count_and_type_checking_imports_do_not():
    # scm/cpt.py imports pandas and networkx lazily (not project modules); the environments module
    # names the SCM class for annotations only.
    assert "causal_bandits/scm/xor_bernoulli.py" not in module_files("causal_bandits.bandits.environments")
    assert "causal_bandits/scm/diagram.py" in module_files("causal_bandits.scm.cpt")


def test_a_jobs_code_maps_every_file_it_executes_to_its_digest(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("def main():\n    from causal_bandits.papers.nonmanip import tables\n")
    found = code("causal_bandits.bandits.ucb", script=script)
    assert {"causal_bandits/papers/nonmanip/tables.py", "causal_bandits/bandits/ucb.py"} <= set(found)
    assert "causal_bandits/bandits/engine.py" not in code(script=script)
    assert all(len(digest) == 10 and int(digest, 16) >= 0 for digest in found.values())
    assert found == code("causal_bandits.bandits.ucb", script=script)


def _digest(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return file_digest(path)


def test_comments_docstrings_and_layout_leave_the_digest_alone(tmp_path):
    base = _digest(tmp_path, "base.py", MODULE)
    unchanged = {
        "comment": MODULE.replace("# a comment", "# another comment, longer\n# and a second line"),
        "docstrings": MODULE.replace("A function docstring.", "Another.\n\n    More.").replace(
            '"""A class docstring."""', ""
        ),
        "layout": MODULE.replace("return math.pi * r**2", "return (\n        math.pi\n        * r**2\n    )"),
    }
    for name, text in unchanged.items():
        assert _digest(tmp_path, f"{name}.py", text) == base, name


def test_any_change_to_the_code_changes_the_digest(tmp_path):
    base = _digest(tmp_path, "base.py", MODULE)
    changed = {
        "constant": MODULE.replace("radius = 1", "radius = 2"),
        "operator": MODULE.replace("r**2", "r**3"),
        "name": MODULE.replace("def area", "def surface"),
        "string": MODULE.replace("return math.pi", 'print("x")\n    return math.pi'),
    }
    digests = {name: _digest(tmp_path, f"{name}.py", text) for name, text in changed.items()}
    assert base not in digests.values() and len(set(digests.values())) == len(changed), digests


def test_a_later_process_reads_the_digest_from_the_cache_and_a_damaged_entry_is_parsed_again(tmp_path, monkeypatch):
    """The digests and imports are kept between processes, keyed by the file's bytes (sources.CACHE): a file read
    again gives the same digest from its entry, an edit another one, and an entry that is not JSON is ignored."""
    from causal_bandits import sources

    monkeypatch.setattr(sources, "CACHE", tmp_path / "cache")
    parsed = _digest(tmp_path, "base.py", MODULE)
    (entry,) = (tmp_path / "cache").rglob("*.json")
    sources._facts.cache_clear()  # as a new process: only the cache on disk is left
    monkeypatch.setattr(sources.ast, "parse", lambda *a, **k: pytest.fail("parsed again with an entry on disk"))
    assert file_digest(tmp_path / "base.py") == parsed
    monkeypatch.undo()
    monkeypatch.setattr(sources, "CACHE", tmp_path / "cache")
    sources._facts.cache_clear()
    assert _digest(tmp_path, "base.py", MODULE.replace("radius = 1", "radius = 2")) != parsed
    entry.write_text("{not json")
    sources._facts.cache_clear()
    assert _digest(tmp_path, "base.py", MODULE) == parsed and json.loads(entry.read_text())["digest"] == parsed
