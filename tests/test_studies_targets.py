"""The commands the studies' docs give run as written: a study's target before ``--configfile``."""

from __future__ import annotations

import shlex

import pytest
from workflow_helpers import copy_workflow, snakemake

from causal_bandits import studies

pytestmark = pytest.mark.workflow


def test_each_studys_command_plans_that_study_alone(tmp_path):
    work = copy_workflow(tmp_path / "repo")
    for name in ("knobs", "naive_estimand"):
        args = shlex.split(studies.study(name).command)[1:]  # without "snakemake"
        result = snakemake(work, "-n", *args, "config/ci.yaml")
        assert result.returncode == 0, result.stderr[-3000:]
        assert f"results/claims/studies/{name}.json" in result.stdout
        others = [s for s in studies.STUDIES if s != name]
        assert not [s for s in others if f"results/claims/studies/{s}.json" in result.stdout]
