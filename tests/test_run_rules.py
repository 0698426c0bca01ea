"""benchmarks/run_rules.py: benchmarked jobs map to the archive's rules, and the weighted speed-up is the archive's CPU
over what it would cost with each rule sped up as measured."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


def _load(name: str):
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


run_rules = _load("run_rules")


def test_every_benchmarked_job_names_a_run_rule_of_the_archived_run():
    jobs = _load("run_jobs_speed")
    archived = run_rules.archive_cpu()
    for job in [*jobs.JOBS, *jobs.TYPICAL]:
        rule = run_rules.rule_of(job)
        assert rule in archived and run_rules.is_run_rule(rule), job
    assert set(jobs.TYPICAL) <= set(jobs.JOBS)
    assert len({run_rules.rule_of(job) for job in jobs.TYPICAL}) == len(jobs.TYPICAL)


def test_the_weighted_speed_up_is_the_archive_s_cpu_over_its_cpu_sped_up_rule_by_rule():
    rows = [
        {"rule": "cpe_run", "cpu_s": 1.0, "before_cpu_s": 2.0},
        {"rule": "cpe_run", "cpu_s": 3.0, "before_cpu_s": 6.0},
        {"rule": "nonmanip_run", "cpu_s": 5.0, "before_cpu_s": 5.0, "floor_cpu_s": 0.5},
    ]
    weights = {"cpe_run": 100.0, "nonmanip_run": 300.0, "cpe_theory": 600.0}
    rules = {rule["rule"]: rule for rule in run_rules.by_rule(rows, weights)}
    assert rules["cpe_run"]["jobs"] == 2 and rules["cpe_run"]["speedup"] == pytest.approx(2.0)
    assert rules["nonmanip_run"]["over_floor"] == pytest.approx(10.0)
    # 400 CPU-s of the archive would cost 100 / 2 + 300 / 1 = 350
    assert run_rules.weighted_speedup(list(rules.values())) == pytest.approx(400 / 350)
    assert run_rules.coverage(list(rules.values()), weights) == pytest.approx(1.0)


def test_without_an_archive_the_rules_carry_no_weight(tmp_path):
    weights = run_rules.archive_cpu((tmp_path / "manifest.json",))
    rules = run_rules.by_rule([{"rule": "cpe_run", "cpu_s": 1.0, "before_cpu_s": 2.0}], weights)
    assert weights == {} and rules[0]["speedup"] == pytest.approx(2.0)
    assert run_rules.coverage(rules, weights) == 0.0 and run_rules.weighted_speedup(
        rules
    ) != run_rules.weighted_speedup(rules)
