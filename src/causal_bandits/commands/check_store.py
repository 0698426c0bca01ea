"""``check-store [FILE...]``: read back every file of a run's store and name each damaged or missing one with its fix.

Run in the workflow's directory after (or during a pause of) ``snakemake --configfile FILE...``, with the same
config files: ``config/config.yaml`` (``--base``) and the files merged over it, checked as ``check-config``
checks them. Every run job that config describes must have its trace and summary under ``results/runs``, each a
readable Parquet file (footer and page checksums) with the store's columns, the job's coordinates, config hash
and seeds; every other Parquet and JSON file under ``results/`` is read whole
(:mod:`causal_bandits.store_check`). Output: one line per problem, then ``ok: ...`` or ``error: N problem(s)``
with the files and MB read per second; exit status 0 when the store is whole, 2 otherwise. With ``--before-run``
(what ``make reproduce``, ``quick``, ``run`` and ``studies`` run before Snakemake), the cheap checks of a run's
start instead: the raw data first (:func:`causal_bandits.data.raw.check_before_run`: one line, before any job),
then sizes and Parquet footers of the run jobs' files; a damaged one is removed, and each run file to rebuild
(damaged, or deleted from a run that made its neighbours) is printed as a target on one line of standard output,
after ``all``, for Snakemake to rebuild it; nothing is printed when there is none.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from causal_bandits import config as cb_config
from causal_bandits.commands import subcommand
from causal_bandits.data import raw
from causal_bandits.errors import DataError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``check-store`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "check-store",
        "read back every file under results/ and name each damaged or missing one with its fix",
        __doc__,
        run,
    )
    parser.add_argument("files", metavar="FILE", nargs="*", type=Path, help="the run's config files (--configfile)")
    parser.add_argument(
        "--base", type=Path, default=Path("config/config.yaml"), help="the workflow's own config (config/config.yaml)"
    )
    parser.add_argument(
        "--before-run",
        action="store_true",
        help="the checks before a run: raw data, then damaged or deleted run files, printed as targets to rebuild",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Print each problem of the store, then a summary line; a store with problems raises a one-line error."""
    cb_config.check_files(args.files)
    config = cb_config.check(cb_config.load(args.base, *args.files))
    from causal_bandits import store_check  # late: every paper's run enumeration, only for this command

    if args.before_run:
        raw.check_before_run(config)
        if Path("results").is_dir():
            targets, lines = store_check.repair(config)
            for line in lines:
                print(f"check-store: {line}", file=sys.stderr)
            if targets:
                print(" ".join(["all", *targets]))
        return 0
    if not Path("results").is_dir():
        raise DataError("there is no results/ folder here; run check-store in the workflow's directory after a run")

    files = "".join(f" {f}" for f in args.files)
    report = store_check.check(config, f" --configfile{files}" if files else "")
    for line in report.problems:
        print(line, file=sys.stderr)
    if report.problems:
        raise DataError(
            f"{len(report.problems)} damaged or missing file(s) in results/, each named above with its fix "
            f"(read {report.rate()})"
        )
    print(f"ok: the run store is whole: {report.rate()}")
    return 0
