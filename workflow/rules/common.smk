# The helpers every rule file uses (run paths, run jobs, code, targets) and the config check, before any rule file.
# No rules here: the rule files hold rules, imports and global values (Snakemake's linter refuses functions beside
# rules), and their input functions live in the library (causal_bandits.papers.<paper>.rule_inputs).
import os
import sys
import time
from pathlib import Path

from causal_bandits.errors import CausalBanditsError

# A malformed registry.yaml of papers or studies: one line naming the file and the entry (papers.registered).
try:
    from causal_bandits import algorithms as cb_algorithms
    from causal_bandits import artefacts as cb_artefacts
    from causal_bandits import config as cb_config
    from causal_bandits import cost as cb_cost
    from causal_bandits import kernels as cb_kernels
    from causal_bandits import logs as cb_logs
    from causal_bandits import papers as cb_papers
    from causal_bandits import planned_runs as cb_planned
    from causal_bandits import plan as cb_plan
    from causal_bandits import preregistration as cb_prereg
    from causal_bandits import sources as cb_sources
    from causal_bandits import stages as cb_stages
    from causal_bandits import studies as cb_studies
    from causal_bandits.papers import PAPERS as REGISTERED
    from causal_bandits.run_paths import run_files, run_path, study_run_path
    from causal_bandits.store import summary_path
except CausalBanditsError as err:
    sys.exit(f"error: {err}")

# Papers in pipeline order; a paper runs when the config has a section for it.
PAPERS = [p for p in REGISTERED if p in config]

# Bad config: one line naming the key or file and the fix, before any job is planned. (A config file
# Snakemake cannot read at all stops Snakemake before this runs: `causal-bandits check-config FILE`.)
try:
    # Every job imports numpy under one OpenBLAS kernel set and numpy's baseline SIMD code, whatever the CPU: the
    # same bytes on any machine (causal_bandits.kernels; a job is a process started from this environment).
    os.environ.update(cb_kernels.pinned())
    cb_config.check_files(workflow.overwrite_configfiles)
    cb_config.command_line_scalars(config, workflow.config_settings.config)
    cb_config.check(config)  # the schema, then each paper's checks (graphs, SCM parameters, names)
    if workflow.is_main_process:  # once per run, before any job is planned
        cb_prereg.refuse_unrecorded(PAPERS)  # no claim judged by a rule neither registered nor amended
        # the cost of the whole run (causal_bandits.cost)
        print(cb_cost.check(config).line(), file=sys.stderr)
        for line in cb_plan.skipped(config):  # the pairs the config names and does not run (causal_bandits.plan)
            print(f"skipped: {line}", file=sys.stderr)
except CausalBanditsError as err:
    sys.exit(f"error: {err}")

# A failed job's own error line (from its log) is the last thing on the console and the first of the failure summary
# in Snakemake's log (.snakemake/log/, after "Exiting because a job execution failed"): logs.report_failures (the
# profile's `quiet: [rules]` keeps the job listings off the console). Before it, the outputs of the jobs this run
# planned to redo and did not are removed, so that the next run redoes them instead of ending in "Nothing to be done"
# with a file missing (logs.drop_unfinished).
STARTED = time.time()


onerror:
    cb_logs.drop_unfinished(f for job in workflow.dag.needrun_jobs() for f in job.output)
    cb_logs.report_failures("logs", since=STARTED, logfiles=log)


# Studies beyond the papers (causal_bandits/studies), each when the config has a block for it under studies:.
STUDIES = cb_studies.configured(config)

# Each paper's rule file adds its final outputs here; the report reads results/claims/<paper>.json.
TARGETS = {}
# Each study's rule file adds its final outputs here; the report reads results/claims/studies/<study>.json.
STUDY_TARGETS = {}


def script_code(script, *modules, policy=None):
    """Params function: the code a rule's job executes, library file -> digest (causal_bandits.sources.code): the
    modules its script imports, ``modules``, and where the script builds a policy from its registry path, the
    module of that class (``policy(wildcards)``, its dotted path), closed over their imports. Snakemake reruns a
    job whose params changed. Evaluated only for the jobs Snakemake checks, so a cluster job that runs one rule
    reads only its modules."""
    path = f"{workflow.basedir}/scripts/{script}"

    def code(wildcards):
        loaded = [policy(wildcards).rpartition(".")[0]] if policy else []
        return cb_sources.code(*modules, *loaded, script=path)

    return code


# The one script of every rule whose job calls one library function (stage(...) names the function).
STAGE = f"{workflow.basedir}/scripts/stage.py"


def stage(call, *modules, policy=None):
    """A step rule's params: the library function its job calls, ``call`` (``"module:function"``,
    causal_bandits.stages), and the job's code, that function's module closed over its imports (:func:`script_code`
    of the generic script), with the ``modules`` the function loads by name and the module of the policy class the
    job builds by name, ``policy(wildcards)``, if any. Use as ``params: **stage("causal_bandits.papers.bounds.tables:
    table1")`` beside ``script: STAGE``: the rule names its function once."""
    return {"call": call, "code": script_code("stage.py", cb_stages.module_of(call), *modules, policy=policy)}


def run_job(describe):
    """A run rule's params and resources function: the job ``describe(config, wildcards)`` describes (a
    causal_bandits.runs.RunJob, made by the library module that owns the run), made once per job."""
    jobs = {}

    def job(wildcards):
        key = tuple(wildcards.items())
        if key not in jobs:
            jobs[key] = describe(config, dict(key))
        return jobs[key]

    return job


def run_code(paper, policy=None):
    """Params function of a run rule: the code a job of ``{algorithm}`` executes (:func:`script_code` of the run
    script): the run module of ``paper``, which builds the job, and the module of the policy class that plays,
    ``policy(wildcards)``, by default the entry the ``algorithm`` wildcard names in the paper's registry
    (causal_bandits.algorithms). Editing one algorithm reruns only its runs."""
    policy = policy or (lambda wildcards: cb_algorithms.registry(paper)[wildcards.algorithm].path)
    return script_code("run.py", cb_papers.paper(paper).runs, policy=policy)


def paper_artefact_paths(paper):
    """A paper's final outputs: every file of its artefacts (declared once, in its package's artefacts.py)."""
    return cb_artefacts.paths(paper_artefacts(paper))


def artefact_outputs(paper, *keys):
    """A rule's outputs: the files of ``paper``'s artefacts ``keys`` (a key may hold the rule's wildcards,
    ``table1_{variant}``), as its package's artefacts.py declares them (causal_bandits.artefacts.rule_outputs),
    each in Snakemake's report under the paper's category with its caption (causal_bandits.artefacts.caption_file).
    Use as ``output: **artefact_outputs("bounds", "table2")``: renaming an artefact is one edit, its declaration."""
    found = cb_artefacts.rule_outputs(paper_artefacts(paper), keys)
    captions = Path(workflow.basedir) / "report"
    return {
        name: report(path, caption=str(cb_artefacts.caption_file(captions, paper, caption)), category=paper)
        for name, (path, caption) in found.items()
    }


def artefact_file(paper, selector):
    """One file of one of ``paper``'s artefacts, ``key.suffix`` (``"table4.csv"``), as its declaration names it: a
    rule's input that reads an artefact."""
    ((path, _),) = cb_artefacts.rule_outputs(paper_artefacts(paper), [selector]).values()
    return path


def paper_artefacts(paper):
    """A paper's final tables and figures as the report shows them, from its config section (the
    paper package's ``artefacts`` module: causal_bandits.papers.Paper.artefacts)."""
    return cb_papers.paper(paper).artefacts(config[paper])


def study_targets():
    """Every configured study's final outputs and evaluated claims."""
    return [t for targets in STUDY_TARGETS.values() for t in targets]


def all_targets():
    """Every paper's final outputs (and own experiments', when the config has some), every configured study's,
    then the report."""
    papers = [t for targets in TARGETS.values() for t in targets]
    return papers + study_targets() + ["figures/REPORT.md", "figures/REPORT.html"]
