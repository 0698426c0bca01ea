"""``quotes [--write]``: the docs' quotes of the archives, checked against them or rewritten from them.

Every figure about our runs in README.md, CONTRIBUTING.md and docs/ stands in a marker, ``<!-- archive run jobs
-->583<!-- end -->``, that names what it quotes from the archive (causal_bandits.archive.markers). Without --write,
prints each marker whose value is not the archive's and each template quote ``{{ archive ... }}`` left, and exits 1
if there is one; --write rewrites them from the archives (the release command runs it after archiving).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from causal_bandits.archive import markers
from causal_bandits.commands import subcommand


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``quotes`` subcommand on an ``argparse`` subparsers action."""
    parser = subcommand(
        subparsers,
        "quotes",
        "check the docs' quoted figures against the archives, or rewrite them (--write)",
        __doc__,
        run,
    )
    parser.add_argument("--write", action="store_true", help="rewrite every quoted value from the archives")
    return parser


def run(args: argparse.Namespace) -> int:
    """Check (or with --write rewrite) the quotes of the repository in the current folder."""
    root = Path.cwd()
    if args.write:
        for path in markers.rewrite(root):
            print(f"rewrote {path.relative_to(root)}")
        return 0
    lines = markers.check(root)
    for line in lines:
        print(line)
    return 1 if lines else 0
