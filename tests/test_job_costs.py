"""benchmarks/job_costs.py: a benchmarked job's CPU and peak come exact from its log, where it has the line."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location("job_costs", Path(__file__).parents[1] / "benchmarks" / "job_costs.py")
job_costs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(job_costs)

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_a_job_s_log_line_replaces_the_sampled_cpu_and_peak_of_its_benchmark_file(tmp_path):
    for key in ("nonmanip/fig5b/POMISplus/kl_ucb/chunk-0", "cpe/E1-n4/practical/lucb/chunk-0"):
        tsv = tmp_path / "benchmarks" / "out" / f"{key}.tsv"
        tsv.parent.mkdir(parents=True)
        tsv.write_text(HEADER + "45.2\t0:00:45\t200.5\t-\t-\t-\t-\t-\t-\t14.69\n")
    log = tmp_path / "logs" / "nonmanip/fig5b/POMISplus/kl_ucb/chunk-0.log"
    log.parent.mkdir(parents=True)
    log.write_text("2026-11-28 INFO done\nresources: cpu_s=43.04 max_rss_mb=250.0\n")
    rows = dict(job_costs.benchmark_rows(tmp_path))
    assert rows["nonmanip/fig5b/POMISplus/kl_ucb/chunk-0"] == {"cpu_s": 43.04, "wall_s": 45.2, "max_rss": 250.0}
    assert rows["cpe/E1-n4/practical/lucb/chunk-0"] == {"cpu_s": 14.69, "wall_s": 45.2, "max_rss": 200.5}
