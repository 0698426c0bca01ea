"""``verify [ARCHIVE] [--budget MIN] [--jobs N] [--seed S]``: rebuild a sample of an archived run.

Draws a seeded random sample of the archive's jobs (run chunks first, with the jobs they need, then
every aggregate whose inputs it rebuilt), sized to the budget by their recorded CPU seconds, rebuilds
them with Snakemake in a scratch folder, and compares every rebuilt file with the manifest: the same
bytes, or for a Parquet file whose bytes differ, the same data. Prints a one-line verdict; exits 1
when a file differs, 2 when the archive or the checkout cannot be checked (an edited manifest or
artefact, or a checkout whose code, config or lock file differ from the run's: see --force).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from causal_bandits.archive import verify
from causal_bandits.errors import CausalBanditsError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``verify`` subcommand on an ``argparse`` subparsers action."""
    parser = subparsers.add_parser(
        "verify",
        help="rebuild a random sample of an archived run's jobs and compare them byte for byte",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument(
        "archive", nargs="?", type=Path, default=Path("archive/paper-scale"), help="default: %(default)s"
    )
    parser.add_argument("--budget", type=float, default=10.0, help="minutes of wall time (default: %(default)g)")
    parser.add_argument("--jobs", type=int, default=2, help="cores Snakemake may use (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="chooses the sample (default: %(default)s)")
    parser.add_argument(
        "--configfile",
        nargs="*",
        default=[],
        metavar="FILE",
        help="config files merged over the archived run's, e.g. one naming data.raw_dir",
    )
    parser.add_argument(
        "--force", action="store_true", help="verify even when the code, config or lock file differ (with a warning)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder of rebuilt files")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Verify the archive against the current checkout; 0 when every rebuilt file matched."""
    if not math.isfinite(args.budget) or args.budget <= 0:  # NaN passes a comparison
        raise CausalBanditsError(f"--budget {args.budget} is not a number of minutes > 0; give e.g. --budget 10")
    if args.jobs < 1 or args.seed < 0:
        raise CausalBanditsError("--jobs must be >= 1 and --seed >= 0")
    verdict, identical = verify.verify(
        Path.cwd(), args.archive, args.budget * 60, args.jobs, args.seed, args.configfile, args.force, args.keep
    )
    print(verdict)
    return 0 if identical else 1
