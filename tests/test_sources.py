"""Which library files a job executes (causal_bandits.sources): the one way rule inputs are found."""

from __future__ import annotations

from causal_bandits.sources import module_files, script_files


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


def test_a_script_depends_on_what_it_imports(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("def main():\n    from causal_bandits.papers.nonmanip import tables\n")
    assert "causal_bandits/papers/nonmanip/tables.py" in script_files(script)
    assert "causal_bandits/bandits/engine.py" not in script_files(script)
