"""``release VERSION [--cores N] [--configfile FILE...]``: make release VERSION of the repository in the current folder.

From a clean checkout whose claim rules are all registered: writes VERSION into pyproject.toml, CITATION.cff and the
package and commits it; runs the papers and the studies at that commit in one run folder (.release/VERSION), archives
both (archive/paper-scale, archive/studies) and verifies them; writes the release's CHANGELOG.md entry (tallies,
verdicts moved, cost, outputs whose bytes changed), rewrites the docs' quotes, commits, and tags vVERSION.
It prints the release's estimated cost before it starts, from the jobs Snakemake plans and what the archives
recorded for them; --estimate prints that alone. --configfile overlays both runs (config/tiny.yaml tries the command
out in a scratch clone).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from causal_bandits.archive import release, release_cost
from causal_bandits.commands import subcommand


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``release`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "release",
        "make a release: version bumped, papers and studies run, archived and verified at one commit, changelog",
        __doc__,
        run,
    )
    parser.add_argument("version", help="the release's version, X.Y.Z, above the current one")
    parser.add_argument("--cores", default="all", help="cores Snakemake may use (default: %(default)s)")
    parser.add_argument(
        "--configfile", nargs="*", default=[], metavar="FILE", help="config files overlaid on both runs"
    )
    parser.add_argument(
        "--estimate", action="store_true", help="print the estimated cost of the release and stop (nothing changed)"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Make the release and print its commit (or, with ``--estimate``, print its cost alone)."""
    if args.estimate:
        release.check_version(args.version, release.current_version(Path.cwd()))
        print("\n".join(release_cost.estimate(Path.cwd(), release.cores_number(args.cores))))
        return 0
    commit = release.release(Path.cwd(), args.version, args.cores, args.configfile)
    print(f"release {args.version}: archives made at {commit}; CHANGELOG.md written, tagged v{args.version}")
    return 0
