"""The cluster profiles (README, "Running on a cluster"): every rule names a job group (its `group:`) that
workflow/profiles/slurm sizes and whose members never wait on each other through another group, the profile names
only rules that exist, and both it and the cluster-generic (qsub) profile drive the workflow. The real SLURM run
is .ci/slurm_check.sh (CI runs it)."""

from __future__ import annotations

import os
import re
import stat

import networkx as nx
import pytest
import yaml
from workflow_helpers import ROOT, copy_workflow, rule_groups, snakemake

from causal_bandits.papers import PAPERS
from causal_bandits.studies import STUDIES

pytestmark = pytest.mark.workflow

SLURM_PROFILE = yaml.safe_load((ROOT / "workflow/profiles/slurm/config.yaml").read_text())
#: Each rule's job group, from its `group:` in the rule files (None: no group).
GROUPS = rule_groups(ROOT)
GENERIC = "workflow/profiles/cluster-generic"
#: Rules that exist only in some runs: the download when a raw file is missing and stand-ins are off.
CONDITIONAL_RULES = {"fairness_download"}
#: Rules left out of the groups on purpose: the target rules (run by Snakemake itself: all, and one
#: per paper) and the report.
UNGROUPED = {"all", "report", *PAPERS, "studies", *STUDIES}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("profiles") / "repo")


def _rules(work, configfile: str) -> set[str]:
    result = snakemake(work, "--list-rules", "--configfile", configfile, "config/ci.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    return {line.split()[0] for line in result.stdout.splitlines() if line[:1].isalpha()}  # not docstring lines


def _rule_graph(work) -> nx.DiGraph:
    own = ("examples/own_experiment.yaml", "examples/own_pure_exploration.yaml")
    result = snakemake(
        work, "--rulegraph", "--configfile", "config/config.yaml", "config/studies.yaml", *own, "config/ci.yaml"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    names = dict(re.findall(r'^\s*(\d+)\[label = "([^"]+)"', result.stdout, re.M))
    graph = nx.DiGraph()
    graph.add_nodes_from(names.values())
    graph.add_edges_from((names[a], names[b]) for a, b in re.findall(r"^\s*(\d+) -> (\d+)", result.stdout, re.M))
    return graph


def test_every_rule_has_a_group_the_slurm_profile_sizes_and_it_names_no_other_rule(work):
    rules = _rules(work, "config/config.yaml") | _rules(work, "config/quick.yaml") | _rules(work, "config/studies.yaml")
    unknown = set(SLURM_PROFILE["set-resources"]) - rules - CONDITIONAL_RULES
    assert not unknown, f"workflow/profiles/slurm names rules the workflow does not have: {sorted(unknown)}"
    assert "groups" not in SLURM_PROFILE, "each rule names its group itself (`group:` in workflow/rules/)"
    grouped = (rules | set(GROUPS)) - UNGROUPED - CONDITIONAL_RULES  # the own experiments' rules too
    ungrouped = {rule for rule in grouped if not GROUPS.get(rule)}
    assert not ungrouped, f"give these rules a `group:` (prep, runs or post): {sorted(ungrouped)}"
    groups = {GROUPS[rule] for rule in grouped}
    assert groups == set(SLURM_PROFILE["group-components"]), "every group needs its group-components, and no other"


def test_no_group_waits_on_itself_through_another(work):
    """A group job cannot start before all its inputs exist: if a path left a group's rules and came
    back (prep -> run -> prep), the group job would wait on itself. Checked on the rule graph of the
    paper-scale workflow with the studies and own experiments, which has a path wherever some pair of jobs does."""
    graph = _rule_graph(work)
    groups: dict[str, set[str]] = {}
    for rule, group in GROUPS.items():
        if group and rule in graph:
            groups.setdefault(group, set()).add(rule)
    for group, members in groups.items():
        outside = graph.subgraph(set(graph) - members)
        leaves = {b for a in members for b in graph.successors(a) if b not in members}
        enters = {a for b in members for a in graph.predecessors(b) if a not in members}
        crossing = [(a, b) for a in leaves for b in enters if a == b or nx.has_path(outside, a, b)]
        assert not crossing, f"group {group} leaves through {crossing[0][0]} and comes back through {crossing[0][1]}"


def test_slurm_profile_dry_run(work):
    pytest.importorskip("snakemake_executor_plugin_slurm")
    result = snakemake(
        work,
        "-n",
        "--workflow-profile",
        "workflow/profiles/slurm",
        "--configfile",
        "config/quick.yaml",
        "config/ci.yaml",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "workflow specific profile workflow/profiles/slurm" in result.stderr
    # The quick config plans every rule (test_workflow); the paper-scale job counts are checked by
    # test_workflow's paper-scale dry run, at a third of this profile's planning time.
    total = re.search(r"^total\s+(\d+)", result.stdout, re.M)
    assert total and int(total.group(1)) > 50, result.stdout[-2000:]


def test_cluster_generic_profile_dry_run(work):
    pytest.importorskip("snakemake_executor_plugin_cluster_generic")
    result = snakemake(
        work,
        "-n",
        "--profile",
        "workflow/profiles/slurm",
        "--workflow-profile",
        GENERIC,
        "--configfile",
        "config/quick.yaml",
        "config/ci.yaml",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"workflow specific profile {GENERIC}" in result.stderr
    total = re.search(r"^total\s+(\d+)", result.stdout, re.M)
    assert total and int(total.group(1)) > 50, result.stdout[-2000:]


def test_cluster_generic_profile_submits_with_qsub(work, tmp_path, monkeypatch):
    """One group job through the cluster-generic profile, with a stand-in `qsub` on PATH that
    records its arguments and runs the job script: the submit command is filled in (memory, time,
    CPUs) and the job's output appears."""
    pytest.importorskip("snakemake_executor_plugin_cluster_generic")
    record = tmp_path / "qsub.args"
    qsub = tmp_path / "bin" / "qsub"
    qsub.parent.mkdir()
    qsub.write_text(
        f'#!/bin/sh\necho "$@" >> {record}\nfor script; do :; done\nsh "$script" >/dev/null 2>&1\necho $$\n'
    )
    qsub.chmod(qsub.stat().st_mode | stat.S_IXUSR)
    profile = (work / GENERIC / "config.yaml").read_text().replace("<your-queue>", "test.q")
    (tmp_path / "generic").mkdir()
    (tmp_path / "generic" / "config.yaml").write_text(profile)
    (work / "logs" / "cluster").mkdir(parents=True)
    target = "results/nonmanip/instances/fig5a.json"
    monkeypatch.setenv("PATH", f"{qsub.parent}{os.pathsep}{os.environ['PATH']}")
    result = snakemake(
        work,
        target,
        "--profile",
        "workflow/profiles/slurm",
        "--workflow-profile",
        str(tmp_path / "generic"),
        "--configfile",
        "config/quick.yaml",
        "config/ci.yaml",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (work / target).is_file()
    calls = record.read_text().splitlines()
    assert len(calls) == 1, calls
    assert re.search(r"-q test\.q -pe smp 1 -l h_vmem=\d+M,h_rt=\d+:00 ", calls[0]), calls[0]


def test_local_profile_drives_a_run(tmp_path):
    """workflow/profiles/default: plain `snakemake` loads it by itself (it sits beside
    workflow/Snakefile), and its settings parse and reach a real run, among them the re-plan every
    10 s (README, "Two commands")."""
    work = copy_workflow(tmp_path / "repo")
    target = "results/nonmanip/arm_sets/fig5d.json"
    result = snakemake(
        work,
        target,
        "--cores",
        "1",
        "--verbose",
        "--configfile",
        "config/quick.yaml",
        "config/ci.yaml",
        local_profile=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "workflow specific profile workflow/profiles/default" in result.stderr
    assert "Submitting maximum 1000 job(s) over 10.0 second(s)." in result.stderr
    assert (work / target).is_file()
