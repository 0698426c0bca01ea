"""A quiet console: job logs keep this package's INFO lines but not libraries' chatter, and a failed
job's own error line is found in its log for the end of Snakemake's output."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from workflow_helpers import ROOT

from causal_bandits.errors import DataError
from causal_bandits.logs import failures, logged, read_resources


def test_library_info_is_not_logged(tmp_path, capsys):
    path = tmp_path / "job.log"
    with logged(path) as log:
        log.info("ours")
        logging.getLogger("causal_bandits.bandits").info("ours too")
        logging.getLogger("fontTools.subset").info("glyphs subset")
        logging.getLogger("matplotlib.font_manager").info("font found")
        logging.getLogger("fontTools.subset").warning("a real problem")
    text = path.read_text()
    assert "ours" in text and "ours too" in text and "a real problem" in text
    assert "glyphs subset" not in text and "font found" not in text
    assert "glyphs subset" not in capsys.readouterr().err


def test_a_job_collects_garbage_less_often(tmp_path):
    """A job (the ``logged`` context every workflow script enters) runs its youngest-generation collection every
    COLLECT_AFTER allocations, not Python's 700 (docs/performance.md#collector); in a fresh process, so that no other
    test has set it."""
    code = (
        "import gc, sys; from causal_bandits.logs import COLLECT_AFTER, logged; before = gc.get_threshold()[0]\n"
        f"with logged({str(tmp_path / 'job.log')!r}):\n    during = gc.get_threshold()[0]\n"
        "print(before, during, COLLECT_AFTER)"
    )
    before, during, wanted = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout.split()
    assert int(before) == 700 and int(during) == int(wanted) > 700


def test_a_pdf_figure_logs_no_font_subsetting(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = tmp_path / "figure.log"
    with logged(path), matplotlib.rc_context({"pdf.fonttype": 42}):  # TrueType: fontTools subsets it
        fig, ax = plt.subplots()
        ax.set_title("T = 500, 2 seeds")
        fig.savefig(tmp_path / "f.pdf")
        plt.close(fig)
    assert "fontTools" not in path.read_text()


def _failed_job(path, error, expected=None):
    with pytest.raises(expected or type(error)), logged(path):
        raise error


def test_bad_input_ends_a_job_with_one_line(tmp_path, capsys):
    path = tmp_path / "job.log"
    with pytest.raises(SystemExit) as stop, logged(path):
        raise DataError("data/raw/adult/adult.data.gz is missing; download it")
    assert stop.value.code == 1
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and lines[0].endswith(
        "causal_bandits ERROR error: data/raw/adult/adult.data.gz is missing; download it"
    )
    assert lines[1].startswith("resources: cpu_s=")  # the job's CPU and memory, in its log only
    assert "Traceback" not in capsys.readouterr().err


def test_failures_name_each_failed_job_and_its_error(tmp_path):
    start = time.time() - 1
    logs = tmp_path / "logs"
    with logged(logs / "ok" / "a.log") as log:
        log.info("fine")
    _failed_job(logs / "rule_x" / "b.log", ValueError("shape (3,) does not match (4,)"))
    _failed_job(
        logs / "rule_y" / "c.log", DataError("data/raw/adult/adult.data.gz is missing; download it"), SystemExit
    )
    found = dict(failures(logs, since=start))
    assert set(found) == {logs / "rule_x" / "b.log", logs / "rule_y" / "c.log"}
    assert found[logs / "rule_x" / "b.log"] == "ValueError: shape (3,) does not match (4,)"
    assert found[logs / "rule_y" / "c.log"].startswith("error: data/raw/adult/adult.data.gz is missing")
    # As Snakemake's onerror hook: the lines begin the summary of Snakemake's log, and end the console when the
    # process exits, after what Snakemake prints once the hook returned.
    snakemake_log = tmp_path / "run.snakemake.log"
    snakemake_log.write_text("Exiting because a job execution failed. Look above for error messages\n")
    hook = (
        "import sys; from causal_bandits.logs import report_failures; "
        f"report_failures({str(logs)!r}, {start}, [{str(snakemake_log)!r}]); "
        "print('At least one job did not complete successfully.', file=sys.stderr)"
    )
    run = subprocess.run([sys.executable, "-c", hook], capture_output=True, text=True, check=True)
    expected = [
        f"error: ValueError: shape (3,) does not match (4,) (job log: {logs / 'rule_x' / 'b.log'})",
        f"error: data/raw/adult/adult.data.gz is missing; download it (job log: {logs / 'rule_y' / 'c.log'})",
    ]
    assert run.stderr.splitlines() == ["At least one job did not complete successfully.", *expected]
    assert snakemake_log.read_text().splitlines()[1:] == expected
    assert failures(logs, since=time.time() + 60) == []  # older logs are not this run's
    assert failures(tmp_path / "absent", since=start) == []


def test_local_profile_keeps_job_listings_off_the_console():
    profile = yaml.safe_load((ROOT / "workflow" / "profiles" / "default" / "config.yaml").read_text())
    assert profile["quiet"] == ["rules"]
    assert "printshellcmds" not in profile  # every rule runs a script: it printed "Shell command: None"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM is Linux's")
def test_a_job_reports_its_own_peak_memory_not_its_parents(tmp_path):
    """A job forked from a large process (Snakemake, hundreds of megabytes with a big plan) and started through
    bash reports the memory it used itself: ru_maxrss alone would carry the parent's over through exec."""
    import numpy as np

    ballast = np.ones(40_000_000)  # 320 MB in this (the parent) process
    code = "from causal_bandits.logs import resources_line, read_resources; print(resources_line())"
    out = subprocess.run(
        f"set -e; {sys.executable} -c '{code}'", shell=True, executable="/bin/bash", capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    log = tmp_path / "job.log"
    log.write_text(out.stdout)
    cpu, rss = read_resources(log)
    assert 5 < rss < 250 < ballast.nbytes / 2**20 and cpu > 0
