"""``verify [ARCHIVE] [--budget CPU_MIN] [--jobs N] [--seed S] [--all] [--scratch DIR]``: rebuild and compare.

Rebuilds the archive's jobs at two levels and compares every rebuilt file with the manifest (the same bytes, or
for a Parquet file whose bytes differ, the same data): a seeded random sample of the run chunks, aggregates and
other jobs that are not derived, rebuilt from scratch within the budget, and every derived job (tables, figures,
claims, report) rebuilt from the intermediates the archive keeps; --all rebuilds every job from scratch. With
--scratch DIR the rebuilt files stay in DIR, and the same command run again goes on where a stopped one left off.
When this checkout's code, config or lock file differ from the run's, it rebuilds at the run's commit in a temporary
git worktree and prints both commits. Prints the archive's commit and whether this checkout's history holds it, the
jobs of each level, their progress while they rebuild, then a one-line verdict; exits 1 when a file differs, 2 when
the archive cannot be checked (an edited manifest or archived file, a run's commit this clone lacks, or raw data it
cannot get).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from causal_bandits.archive import manifest, verify
from causal_bandits.commands import subcommand
from causal_bandits.errors import CausalBanditsError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``verify`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "verify",
        "rebuild an archived run's jobs (a sample, and every derived job) and compare them byte for byte",
        __doc__,
        run,
    )
    parser.add_argument("archive", nargs="?", type=Path, default=manifest.DEFAULT_FOLDER, help="default: %(default)s")
    parser.add_argument(
        "--budget",
        type=float,
        default=15.0,
        metavar="CPU_MIN",
        help="CPU-minutes of the sample's jobs, by their recorded CPU time (default: %(default)g; the wall time is "
        "about this over --jobs on idle cores, longer on a loaded machine)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="cores Snakemake may use (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="chooses the sample (default: %(default)s)")
    parser.add_argument(
        "--all", dest="everything", action="store_true", help="rebuild every job from scratch instead of a sample"
    )
    parser.add_argument(
        "--configfile",
        action="append",
        default=[],
        metavar="FILE",
        help="a config file merged over the archived run's, e.g. one naming data.raw_dir (repeat for several)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="rebuild with this checkout's code where it differs from the run's (a warning each), not its commit's",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders of rebuilt files")
    parser.add_argument(
        "--scratch",
        type=Path,
        metavar="DIR",
        help="rebuild in DIR and keep it; run the same verify with it again to go on after a stop (--all costs the "
        "run's whole CPU time: its manifest's run.cpu_hours over the cores)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Verify the archive against the current checkout; 0 when every rebuilt file matched."""
    if not math.isfinite(args.budget) or args.budget <= 0:  # NaN passes a comparison
        raise CausalBanditsError(f"--budget {args.budget} is not a number of CPU-minutes > 0; give e.g. --budget 15")
    if args.jobs < 1 or args.seed < 0:
        raise CausalBanditsError("--jobs must be >= 1 and --seed >= 0")
    settings = verify.Settings(
        budget_cpu_s=args.budget * 60,
        cores=args.jobs,
        seed=args.seed,
        configfiles=tuple(args.configfile),
        force=args.force,
        keep=args.keep,
        everything=args.everything,
        scratch=args.scratch,
    )
    verdict, identical = verify.verify(Path.cwd(), args.archive, settings)
    print(verdict)
    return 0 if identical else 1
