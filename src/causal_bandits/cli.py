"""The ``causal-bandits`` command (also ``python -m causal_bandits``).

Each subcommand lives in ``causal_bandits.commands.<name>`` with ``add_parser(subparsers)`` and
``run(args) -> int``. Bad input raises a :class:`CausalBanditsError`; it is printed as one line,
``error: <message>``, and the command exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from causal_bandits import __version__
from causal_bandits.commands import archive, check_config, check_store, new, pomis, rules, run_job, verify
from causal_bandits.errors import CausalBanditsError

COMMANDS = (pomis, check_config, check_store, archive, verify, run_job, new, rules)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="causal-bandits",
        description="Replication package for five causal-bandit papers. The pipeline itself runs "
        "with `snakemake`; these commands expose the library to researchers.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except CausalBanditsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
