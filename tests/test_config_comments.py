"""The shipped configs' comments carry no count of what a run plans (jobs, total CPU): such a count goes stale
at the next change of the workflow (config/tiny.yaml said 148 jobs when it planned 186). `make plan` and
`causal-bandits check-config` print them from the config itself. A rate ("2 CPU-s per seed") is allowed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*ROOT.glob("config/*.yaml"), *ROOT.glob("examples/**/*.yaml")])
#: "148 jobs", "26 run jobs"; "240 CPU-seconds", "2.7 CPU-h" unless a rate ("... per seed") follows.
STALE = re.compile(r"\b\d[\d,]*\s+(?:run\s+)?jobs\b|\b\d[\d,.]*\s*CPU-(?:s|seconds|h|hours)\b(?!\s+per\b)")


def stale_counts(text: str) -> list[str]:
    """The counts of a run in the comments of a YAML text, as found."""
    return [m.group(0) for line in text.splitlines() if "#" in line for m in STALE.finditer(line.split("#", 1)[1])]


def test_the_pattern_finds_what_went_stale_and_leaves_rates():
    assert stale_counts("# look at a new install: 148 jobs, about 240 CPU-seconds") == ["148 jobs", "240 CPU-seconds"]
    assert stale_counts("x: 1   # 26 run jobs, 2.7 CPU-h") == ["26 run jobs", "2.7 CPU-h"]
    assert stale_counts("# POMIS+ about 2 CPU-s per seed on Fig. 5d, at most ~7 CPU-min per job") == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_config_comments_carry_no_run_counts(path):
    found = stale_counts(path.read_text())
    assert not found, (
        f"{path.relative_to(ROOT)} comments give {found}: a count that goes stale; say where to get it instead "
        "(make plan CONFIGS=...; causal-bandits check-config FILE)"
    )
