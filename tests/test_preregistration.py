"""Pre-registered claim rules: every paper rule registered, every change amended, the fingerprint covering the rule's
text and the code that applies it, and the places that refuse an unrecorded rule (causal_bandits.preregistration)."""

from __future__ import annotations

import importlib
import json
import shutil
import textwrap
from dataclasses import replace

import pytest

from causal_bandits import cli, papers, preregistration
from causal_bandits.claims import Claim, Rule, Verdict, combined_fingerprint, declared, document
from causal_bandits.errors import DataError
from causal_bandits.preregistration import register


def _rules(paper: str):
    return importlib.import_module(f"causal_bandits.papers.{paper}.claims").RULES


@pytest.fixture
def copied_registry(tmp_path, monkeypatch):
    """The registry and the amendments copied to ``tmp_path`` and read from there (caches cleared around)."""
    for name in ("REGISTRY", "AMENDMENTS"):
        path = getattr(preregistration, name)
        shutil.copy(path, tmp_path / path.name)
        monkeypatch.setattr(preregistration, name, tmp_path / path.name)
    preregistration.registry.cache_clear()
    preregistration.amendments.cache_clear()
    yield tmp_path
    preregistration.registry.cache_clear()
    preregistration.amendments.cache_clear()


@pytest.mark.parametrize("paper", papers.PAPERS)
def test_every_rule_is_registered_and_every_change_amended(paper):
    assert preregistration.check(paper, _rules(paper)) == []


def test_a_changed_rule_without_an_amendment_fails_naming_whole_fingerprints_and_the_command():
    rules = dict(_rules("nonmanip"))
    old = rules["table1"]
    rules["table1"] = replace(old, band={**old.band, "rel_tol": 0.2})
    problems = preregistration.check("nonmanip", rules)
    assert len(problems) == 1 and "nonmanip/table1 changed without an amendment" in problems[0]
    assert rules["table1"].fingerprint in problems[0] and preregistration.current("nonmanip", "table1") in problems[0]
    assert 'causal-bandits rules register nonmanip/table1 --reason "..."' in problems[0]
    rules["brand-new"] = Rule("exact", "x")
    assert any("brand-new is not registered" in p for p in preregistration.check("nonmanip", rules))


def test_the_fingerprint_covers_the_text_and_the_kinds_judges():
    rule = Rule("band", "b", {"rel_tol": 0.15})
    assert rule.fingerprint == Rule("band", "b", {"rel_tol": 0.15}).fingerprint
    assert rule.fingerprint != Rule("band", "b", {"rel_tol": 0.150001}).fingerprint
    assert rule.fingerprint == combined_fingerprint(rule.text_fingerprint, rule.code_fingerprint)
    assert rule.code_fingerprint != Rule("exact", "b").code_fingerprint  # exact rules are applied by holds alone
    assert len(rule.fingerprint) == 64


def _module(tmp_path, monkeypatch, body: str) -> str:
    """A claims module named ``fingerprinted_claims`` with ``body``, importable (fresh each call)."""
    (tmp_path / "fingerprinted_claims.py").write_text(textwrap.dedent(body))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    module = importlib.import_module("fingerprinted_claims")
    return importlib.reload(module).__name__


def test_a_code_change_moves_the_fingerprint_and_a_comment_or_layout_change_does_not(tmp_path, monkeypatch):
    source = """
        def judge(x):
            \"\"\"The rule's function.\"\"\"
            return x > 0  # strict
    """
    name = _module(tmp_path, monkeypatch, source)
    rules = declared(name, {"r": Rule("ordering", "b")}, {"r": ("judge",)})
    first = rules["r"].fingerprint
    name = _module(tmp_path, monkeypatch, source.replace("# strict", "# a comment").replace('"""The', '"""A'))
    assert declared(name, {"r": Rule("ordering", "b")}, {"r": ("judge",)})["r"].fingerprint == first
    name = _module(tmp_path, monkeypatch, source.replace("x > 0", "x >= 0"))
    assert declared(name, {"r": Rule("ordering", "b")}, {"r": ("judge",)})["r"].fingerprint != first
    with pytest.raises(KeyError, match="not declared"):
        declared(name, {"r": Rule("ordering", "b"), "s": Rule("exact", "c")}, {"r": ("judge",)})


def test_every_rule_names_the_functions_that_apply_it_and_its_kinds_judges_are_in_its_fingerprint(monkeypatch):
    from causal_bandits import claims

    for paper in papers.PAPERS:  # a rule's declared functions exist (a paper from the scaffold declares none yet)
        for key, rule in _rules(paper).items():
            module = importlib.import_module(rule.module or "causal_bandits.claims")
            assert all(callable(getattr(module, name, None)) for name in rule.code), f"{paper}/{key}"
    assert _rules("cpe")["pac"].code == ("_pac", "_pac_setting", "_rows")
    before = _rules("cpe")["pac"].fingerprint
    monkeypatch.setitem(claims.JUDGES, "threshold", claims.JUDGES["threshold"][:-1])  # one judge fewer
    assert _rules("cpe")["pac"].fingerprint != before


def test_amendments_chain_and_their_old_rules_hash_to_their_old_fingerprints():
    for entry in preregistration.amendments():
        if "old_rule" in entry:
            old = entry["old_rule"]
            assert Rule(old["kind"], old["basis"], old["band"]).text_fingerprint == entry["old"], entry["date"]
    # the Theorem 4-5 change is the first amendment, with both verdicts
    first = preregistration.amendments_of("unknown_graph", "thm45")[0]
    assert first["commit"].startswith("7825992") and first["verdict_old"].startswith("differs")
    assert first["verdict_new"].startswith("reproduced")
    # the rule registered after its result says so in an amendment
    assert any(
        "registered after" in a["reason"] for a in preregistration.amendments_of("unknown_graph", "thm2-ordering")
    )


def test_documents_carry_rule_fingerprints_and_amendments():
    rule = _rules("unknown_graph")["thm45"]
    claim = Claim("thm45", "Thm 4", "s", lambda r: Verdict("reproduced", "p", "o"), "thm45", rule)
    doc = document("unknown_graph", {"horizon": 1, "n_seeds": 1}, [claim.check({})])
    row = doc["claims"][0]
    assert row["rule"]["fingerprint"] == rule.fingerprint and row["rule"]["key"] == "thm45"
    assert row["amendments"][0]["commit"].startswith("7825992")
    assert preregistration.fingerprints({"unknown_graph": doc}) == {"unknown_graph/thm45": rule.fingerprint}


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("registry.json", '{"cpe/pac": "ab', "registry.json cannot be read"),
        ("registry.json", "[1, 2]", "not a mapping of rule keys to fingerprints"),
        ("amendments.yaml", "- paper: cpe\n  rule: [unclosed\n", "amendments.yaml cannot be read at line"),
        ("amendments.yaml", "just text\n", "not a list of amendments"),
    ],
)
def test_a_cut_off_or_corrupt_registry_file_is_one_line_naming_it_and_the_fix(
    copied_registry, name, text, says, capsys
):
    (copied_registry / name).write_text(text)
    with pytest.raises(DataError, match=says) as err:
        preregistration.problems()
    assert "\n" not in str(err.value) and f"git checkout -- src/causal_bandits/preregistration/{name}" in str(err.value)
    assert cli.main(["rules", "check"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_rules_check_lists_each_unrecorded_rule_and_exits_1(copied_registry, capsys):
    assert cli.main(["rules", "check"]) == 0 and capsys.readouterr().out.startswith("ok:")
    found = json.loads((copied_registry / "registry.json").read_text())
    del found["cpe/pac"]
    (copied_registry / "registry.json").write_text(json.dumps(found))
    preregistration.registry.cache_clear()
    assert cli.main(["rules", "check"]) == 1
    err = capsys.readouterr().err.splitlines()
    pac = _rules("cpe")["pac"].fingerprint
    assert (
        err[0] == f'cpe/pac is not registered (fingerprint {pac}): causal-bandits rules register cpe/pac --reason "..."'
    )
    assert err[-1] == "error: 1 rule(s) not registered or amended"


def test_rules_register_writes_a_new_rule_and_an_amendment(copied_registry, capsys, monkeypatch):
    found = json.loads((copied_registry / "registry.json").read_text())
    del found["cpe/pac"]
    (copied_registry / "registry.json").write_text(json.dumps(found))
    (copied_registry / "amendments.yaml").write_text("# no amendment yet\n")
    preregistration.registry.cache_clear()
    preregistration.amendments.cache_clear()
    assert cli.main(["rules", "register", "cpe/pac", "--reason", "new"]) == 0
    assert (
        "registered cpe/pac" in capsys.readouterr().out
        and preregistration.current("cpe", "pac") == _rules("cpe")["pac"].fingerprint
    )
    changed = replace(_rules("cpe")["pac"], basis="another basis")
    monkeypatch.setitem(_rules("cpe"), "pac", changed)
    with pytest.raises(Exception, match="--verdict-new"):
        register.register("cpe/pac", "why", verdict_old="7 reproduced")
    line = register.register("cpe/pac", "why", verdict_new="7 inconclusive at this scale", verdict_old="7 reproduced")
    assert line.startswith("amended cpe/pac") and preregistration.current("cpe", "pac") == changed.fingerprint
    last = preregistration.amendments()[-1]
    assert (last["reason"], last["verdict_new"], last["new"]) == (
        "why",
        "7 inconclusive at this scale",
        changed.fingerprint,
    )
    assert cli.main(["rules", "show", "cpe/pac"]) == 0
    assert capsys.readouterr().out.startswith(f"cpe/pac {changed.fingerprint} text ")


def test_a_forged_manifest_fingerprint_is_named_and_a_recorded_one_passes():
    pac = _rules("cpe")["pac"].fingerprint
    registered = preregistration.registry()["cpe/pac"]
    assert (
        preregistration.forged(
            {"cpe/pac": pac, "unknown_graph/thm45": preregistration.chain("unknown_graph", "thm45")[1]}
        )
        == []
    )
    assert preregistration.forged({"cpe/pac": registered}) == []  # an older archive's rule, amended since
    found = preregistration.forged({"cpe/pac": "f" * 64})
    assert len(found) == 1 and "cpe/pac has fingerprint " + "f" * 64 in found[0]


def test_the_workflow_refuses_to_judge_with_an_unrecorded_rule(copied_registry):
    """The check common.smk runs before any job is planned: one line naming each rule and the command that registers
    it; the planted defect (a rule removed from the registry) is caught, and the workflow calls the check."""
    from pathlib import Path

    from causal_bandits.errors import ConfigError

    preregistration.refuse_unrecorded(["fairness"])
    found = json.loads((copied_registry / "registry.json").read_text())
    del found["fairness/regret"]
    (copied_registry / "registry.json").write_text(json.dumps(found))
    preregistration.registry.cache_clear()
    with pytest.raises(ConfigError) as err:
        preregistration.refuse_unrecorded(["fairness"])
    assert "\n" not in str(err.value) and str(err.value).startswith(
        "refusing to judge claims by a rule not pre-registered: fairness/regret is not registered (fingerprint "
    )
    assert str(err.value).endswith('causal-bandits rules register fairness/regret --reason "..."')
    common = (Path(__file__).parents[1] / "workflow" / "rules" / "common.smk").read_text()
    assert "cb_prereg.refuse_unrecorded(PAPERS)" in common


def test_verify_refuses_an_archive_whose_manifest_carries_an_edited_rule_fingerprint(tmp_path):
    """A forged record: the manifest's rule fingerprint edited and its digest recomputed; verify names it before it
    rebuilds anything (the archive as made passes this check)."""
    from pathlib import Path

    from causal_bandits.archive import manifest, verify

    root = Path(__file__).parents[1]
    folder = tmp_path / "paper-scale"
    shutil.copytree(root / "archive" / "paper-scale", folder)
    record = manifest.read(folder)
    preregistration.refuse_forged(record["rules"])
    manifest.write(folder / "manifest.json", {**record, "rules": {**record["rules"], "cpe/pac": "0" * 64}})
    with pytest.raises(DataError, match=r"manifest's rule cpe/pac has fingerprint 0{64}, which registry.json"):
        verify.verify(root, folder, verify.Settings(budget_cpu_s=60.0, cores=1))


def test_snakemake_stops_before_any_job_with_an_unrecorded_rule(tmp_path):
    """The planted defect end to end: a copy of the checkout whose registry lacks one rule; Snakemake (a dry run of
    the tiny config) exits non-zero with the one line, and plans nothing."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parents[1]
    for part in ("src", "workflow", "config"):
        shutil.copytree(root / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    registry = tmp_path / "src/causal_bandits/preregistration/registry.json"
    found = json.loads(registry.read_text())
    del found["fairness/regret"]
    registry.write_text(json.dumps(found))
    command = [sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--workflow-profile", "none"]
    done = subprocess.run(
        [*command, "--configfile", "config/tiny.yaml"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "src")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode != 0
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("error: refusing to judge claims by a rule not pre-registered: fairness/regret is not ")
    assert line.endswith('causal-bandits rules register fairness/regret --reason "..."')
    assert "Job stats" not in done.stdout + done.stderr and not (tmp_path / "results").exists()


def test_a_rule_set_after_its_result_is_recorded_so_and_a_shared_reason_is_written_once():
    """thm2-ordering was registered after the result it judges: its amendment says so as data; and no amendment
    repeats a long reason another holds (it cites the shared reason by key instead)."""
    assert any(a.get("after_result") for a in preregistration.amendments_of("unknown_graph", "thm2-ordering"))
    assert not any(a.get("after_result") for a in preregistration.amendments_of("bounds", "table1")[-1:])
    sentences: dict[str, int] = {}
    for entry in preregistration.amendments():
        for sentence in {s for s in entry["reason"].split(". ") if len(s) > 200}:
            sentences[sentence] = sentences.get(sentence, 0) + 1
    assert not [s for s, n in sentences.items() if n > 1]
    cited = {a["shared"] for a in preregistration.amendments() if "shared" in a}
    assert cited == set(preregistration.shared_reasons()) == {"one-standard"}


def test_an_amendment_citing_a_shared_reason_that_is_not_written_is_one_line(copied_registry):
    path = copied_registry / "amendments.yaml"
    path.write_text(path.read_text().replace("shared: one-standard", "shared: nowhere", 1))
    preregistration.amendments.cache_clear()
    with pytest.raises(DataError, match=r"shares the reason 'nowhere', which shared_reasons.yaml lacks"):
        preregistration.amendments()


def test_register_records_a_change_made_after_its_result(copied_registry, monkeypatch):
    changed = replace(_rules("cpe")["pac"], basis="another basis")
    monkeypatch.setitem(_rules("cpe"), "pac", changed)
    assert cli.main(["rules", "register", "cpe/pac", "--reason", "why", "--verdict-new", "x", "--after-result"]) == 0
    assert preregistration.amendments()[-1]["after_result"] is True
