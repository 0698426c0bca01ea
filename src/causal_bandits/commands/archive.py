"""``archive [--configfile FILE...] [--out DIR]``: archive a finished run of the workflow.

Run it in the run's working folder, with the config files the run was started with. It writes
``DIR/manifest.json`` (every job of the run: rule, wildcards, CPU seconds and peak memory from the
resources line that ends its log, and each output's path, bytes and sha256; the run's commit, code,
config and lock file) and copies the run's final artefacts (the report, tables, figures and claims) beside it,
with the documentation pages the report's reading links open, rendered (``readings/``).
``causal-bandits verify`` checks an archive by rebuilding a sample of its jobs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from causal_bandits import config as cb_config
from causal_bandits.archive import manifest
from causal_bandits.commands import subcommand
from causal_bandits.errors import CausalBanditsError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``archive`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "archive",
        "archive a finished run: a manifest of every output and a copy of its final artefacts",
        __doc__,
        run,
    )
    parser.add_argument(
        "--configfile",
        nargs="*",
        default=[],
        metavar="FILE",
        help="the config files the run was started with (relative to the run's folder)",
    )
    parser.add_argument(
        "--out", type=Path, default=manifest.DEFAULT_FOLDER, help="the archive folder (default: %(default)s)"
    )
    parser.add_argument(
        "--max-mb", type=float, default=manifest.MAX_MB, help="refuse a larger archive (default: %(default)g)"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Archive the run in the current folder and print its totals."""
    cb_config.check_files(args.configfile)  # a missing or unreadable config file: its own line, before Snakemake
    if args.out.exists() and not args.out.is_dir():
        raise CausalBanditsError(f"--out {args.out} is a file, not a folder; name a folder for the archive")
    made = manifest.build(Path.cwd(), args.configfile, args.out, args.max_mb)
    totals = made["run"]
    size = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file()) / 1e6
    print(
        f"archived {totals['jobs']} jobs ({totals['cpu_hours']} CPU-h, {totals['exact_jobs']} jobs measured exactly, "
        f"peak {totals['peak_rss_mb']:.0f} MB, "
        f"{totals['wall_hours']} h from first start to last end) and {len(made['artefacts'])} artefacts "
        f"in {args.out} ({size:.1f} MB)"
    )
    return 0
