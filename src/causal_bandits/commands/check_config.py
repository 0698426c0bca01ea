"""``check-config FILE...``: check config files as the workflow would, with one line per problem.

Snakemake reads the files named by ``--configfile`` before the workflow's own checks run, so a file
it cannot read (missing, a YAML syntax error, empty) stops it with its own message, which names
neither the file nor the line. This command reads ``config/config.yaml`` (the workflow's base; see
``--base``) and the given files merged over it in order, as ``snakemake --configfile FILE...``
does, and runs every check the workflow runs: the file and line of a YAML error, a target typed
after ``--configfile``, the schema, each paper's checks, the own experiments' checks, and the run's
estimated cost against the machine's memory and ``budget.cpu_hours`` (:mod:`causal_bandits.cost`).
Output: ``ok: ...`` and the estimate, with the cost of each own experiment, study and algorithm added to a paper
apart from the papers', and one line per (strategy, algorithm) pair the config names and does not run
(:mod:`causal_bandits.plan`); or ``error: ...``. ``--experiment NAME`` prints the cost of that experiment, paper or
study alone; ``--targets NAME`` prints only its Snakemake targets, one a line (what ``make plan EXPERIMENT=NAME``
plans).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from causal_bandits import config as cb_config
from causal_bandits import cost, plan
from causal_bandits.commands import subcommand


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``check-config`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "check-config",
        "check config files as `snakemake --configfile FILE...` would, one line per problem",
        __doc__,
        run,
    )
    parser.add_argument(
        "files",
        metavar="FILE",
        nargs="*",
        type=Path,
        help="config files, merged over the base in order (as --configfile FILE...)",
    )
    parser.add_argument(
        "--base",
        type=Path,
        default=Path("config/config.yaml"),
        help="the workflow's own config file (default: config/config.yaml)",
    )
    parser.add_argument(
        "--experiment",
        metavar="NAME",
        help="an own or pure-exploration experiment, paper or study of the config: print its cost alone",
    )
    parser.add_argument(
        "--targets",
        metavar="NAME",
        help="print only NAME's Snakemake targets, one a line, once the config passes (for make plan EXPERIMENT=NAME)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Print ``ok: ...`` when the merged config passes every check; bad input raises a one-line
    :class:`~causal_bandits.errors.ConfigError`."""
    cb_config.check_files(args.files)
    # the base named again among the files (check-config config/config.yaml config/studies.yaml) is read once
    files = [f for f in args.files if Path(f).resolve() != Path(args.base).resolve()]
    config = cb_config.check(cb_config.load(args.base, *files))
    if args.targets:
        print("\n".join(plan.targets(config, args.targets)))
        return 0
    if args.experiment:
        plan.targets(config, args.experiment)  # the name first: one line, before the estimate
    found = cost.check(config)
    papers = ", ".join(p for p in cb_config.PAPERS if p in config)
    print(f"ok: {' + '.join(map(str, [args.base, *files]))} is a valid config (papers: {papers})")
    print(found.line())
    for line in plan.cost_of(config, found, args.experiment) if args.experiment else plan.added(config, found):
        print(line)
    for line in plan.skipped(config):
        print(f"skipped: {line}")
    return 0
