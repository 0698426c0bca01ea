"""``run-job RULE [NAME=VALUE...] [--configfile FILE...]``: run one job's script outside Snakemake, as its rule runs it.

The ``snakemake`` object the script sees is built from the real workflow: ``workflow/Snakefile`` with the config
files merged over ``config/config.yaml`` as ``snakemake --configfile`` merges them, and the job the wildcards name,
whose inputs, params, outputs and log Snakemake itself evaluates from the rule. The script then runs in this
process, in the current folder, so that a debugger or a profiler can be put in front of it (``python -m pdb -m
causal_bandits run-job ...``), under the CPU kernel pin every job of the workflow runs under: the command restarts
itself with the pin in its environment when it lacks it, and its first line says so. It writes the job's outputs
where the workflow writes them; its inputs must exist (``snakemake <input>`` makes them).
"""

from __future__ import annotations

import argparse
import logging
import runpy
import sys
from pathlib import Path
from typing import Any

from causal_bandits import kernels
from causal_bandits.commands import subcommand
from causal_bandits.errors import CausalBanditsError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``run-job`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "run-job",
        "run one job's script outside Snakemake, with the snakemake object its rule would hand it",
        __doc__,
        run,
    )
    parser.add_argument("rule", help="the rule's name, e.g. nonmanip_run")
    parser.add_argument(
        "wildcards", nargs="*", metavar="NAME=VALUE", help="the job's wildcards, e.g. experiment=fig5a chunk=0"
    )
    parser.add_argument(
        "--configfile", nargs="*", default=[], type=Path, metavar="FILE", help="config files, as for snakemake"
    )
    parser.add_argument(
        "--snakefile", type=Path, default=Path("workflow/Snakefile"), help="the workflow (default: %(default)s)"
    )
    return parser


def wildcard_values(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` arguments as a mapping; a malformed one raises a one-line error."""
    bad = [p for p in pairs if "=" not in p or p.startswith("=")]
    if bad:
        raise CausalBanditsError(f"wildcards are given as NAME=VALUE, not {' '.join(bad)}")
    return dict(p.split("=", 1) for p in pairs)


def build(snakefile: Path, configfiles: list[Path], rule_name: str, wildcards: dict[str, str]) -> tuple[Any, Path]:
    """The ``snakemake`` object of the job and its rule's script, from the workflow (Snakemake's own API)."""
    if not snakefile.is_file():
        raise CausalBanditsError(f"no workflow at {snakefile}: run this in the repository's folder or give --snakefile")
    # Snakemake's API takes about a second to import; no other command needs it.
    from snakemake.api import Workflow
    from snakemake.dag import DAG
    from snakemake.jobs import Job
    from snakemake.logging import LoggerManager
    from snakemake.script import Snakemake
    from snakemake.settings import types

    workflow = Workflow(
        config_settings=types.ConfigSettings(configfiles=configfiles),
        resource_settings=types.ResourceSettings(),
        workflow_settings=types.WorkflowSettings(),
        storage_settings=types.StorageSettings(),
        dag_settings=types.DAGSettings(rerun_triggers=[]),
        logger_manager=LoggerManager(logger=logging.getLogger(__name__), settings=types.OutputSettings()),
        storage_provider_settings={},
    )
    workflow.include(snakefile)
    workflow.global_resources = {}
    rules = {rule.name: rule for rule in workflow.rules}
    rule = rules.get(rule_name)
    if rule is None or rule.script is None:
        scripted = sorted(name for name, r in rules.items() if r.script is not None)
        raise CausalBanditsError(f"no rule {rule_name!r} with a script in {snakefile}; rules: {', '.join(scripted)}")
    if set(wildcards) != set(rule.wildcard_names):
        names = " ".join(f"{n}=..." for n in sorted(rule.wildcard_names)) or "none"
        given = " ".join(sorted(wildcards)) or "none"
        raise CausalBanditsError(f"rule {rule_name} takes the wildcards {names}, not {given}")
    job = Job(rule, DAG(workflow, rules=[rule]), wildcards)
    if not rule.is_producer(job.output[0]):
        raise CausalBanditsError(f"{wildcards} is no job of rule {rule_name}: its wildcard constraints refuse them")
    found = Snakemake(
        job.input, job.output, job.params, job.wildcards, job.threads, job.resources, job.log, workflow.config,
        rule.name, None,
    )  # fmt: skip
    return found, Path(rule.basedir) / rule.script


def run(args: argparse.Namespace) -> int:
    """Restart under the workflow's kernel pin if needed (:func:`causal_bandits.kernels.pin_command`), build the job
    from the workflow and run its script in this process."""
    print(kernels.pin_command("run-job"), file=sys.stderr)
    job, script = build(args.snakefile, args.configfile, args.rule, wildcard_values(args.wildcards))
    missing = [path for path in job.input if not Path(path).exists()]
    if missing:
        shown = " ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise CausalBanditsError(
            f"the job's inputs {shown} are missing: make them first (snakemake PATH..., with the same --configfile)"
        )
    for path in [*job.output, *job.log]:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    runpy.run_path(str(script), init_globals={"snakemake": job}, run_name="__main__")
    return 0
