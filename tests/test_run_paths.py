"""The run store's path templates and the run files an aggregate reads (causal_bandits.run_paths)."""

from __future__ import annotations

from causal_bandits.run_paths import run_files, run_path, study_run_path
from causal_bandits.store import summary_path


def test_a_runs_trace_log_and_benchmark_mirror_one_path():
    wildcards = {"experiment": "fig5a", "strategy": "POMIS", "algorithm": "ts", "chunk": 3}
    trace = run_path("nonmanip").format(**wildcards)
    assert trace == "results/runs/nonmanip/fig5a/POMIS/ts/chunk-3.parquet"
    assert summary_path(trace) == "results/runs/nonmanip/fig5a/POMIS/ts/chunk-3.summary.parquet"
    assert run_path("nonmanip", "logs").format(**wildcards) == "logs/nonmanip/fig5a/POMIS/ts/chunk-3.log"
    assert run_path("nonmanip", "benchmarks/out").format(**wildcards).endswith("/ts/chunk-3.tsv")
    study = study_run_path("knobs").format(point="n_min-0", **wildcards)
    assert study == "results/runs/studies/knobs/n_min-0/fig5a/POMIS/ts/chunk-3.parquet"


def test_run_files_groups_the_matching_jobs_in_their_order():
    jobs = [
        {"experiment": e, "strategy": s, "algorithm": a, "chunk": str(k)}
        for e in ("b", "a")
        for s in ("MIS", "BF")
        for a in ("ts", "kl_ucb")
        for k in range(2)
    ]
    found = run_files("p", jobs, experiment="a")
    assert list(found) == ["MIS/ts", "MIS/kl_ucb", "BF/ts", "BF/kl_ucb"]
    assert found["BF/ts"] == ["results/runs/p/a/BF/ts/chunk-0.parquet", "results/runs/p/a/BF/ts/chunk-1.parquet"]
    by_algorithm = run_files("p", jobs, "{algorithm}", experiment="b", strategy="BF")
    assert {k: len(v) for k, v in by_algorithm.items()} == {"ts": 2, "kl_ucb": 2}
    assert run_files("p", jobs, experiment="c") == {}
