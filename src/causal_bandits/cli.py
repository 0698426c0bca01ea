"""The ``causal-bandits`` command (also ``python -m causal_bandits``).

Each subcommand lives in ``causal_bandits.commands.<name>`` with ``add_parser(subparsers)`` and
``run(args) -> int``. Bad input raises a :class:`CausalBanditsError`; it is printed as one line,
``error: <message>``, and the command exits with status 2. A command module that cannot be imported for bad input
(a malformed ``registry.yaml`` of papers or studies) is that one line when its command is called; the other
commands work.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from causal_bandits import __version__
from causal_bandits.errors import CausalBanditsError

#: The subcommands' modules (``causal_bandits.commands.<name>``), in the order of the help.
COMMANDS = ("pomis", "check_config", "check_store", "archive", "verify", "quotes", "release", "run_job", "new", "rules")


def _unavailable(error: CausalBanditsError, args: argparse.Namespace) -> NoReturn:
    raise error


def _add(sub: Any, name: str) -> None:
    """The subcommand(s) of module ``name``; one that its import refuses runs as that refusal."""
    try:
        module = importlib.import_module(f"causal_bandits.commands.{name}")
    except CausalBanditsError as err:
        broken = sub.add_parser(name.replace("_", "-"), help=f"unavailable: {err}", add_help=False)
        broken.add_argument("rest", nargs=argparse.REMAINDER)
        broken.set_defaults(func=functools.partial(_unavailable, err))
        return
    module.add_parser(sub)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="causal-bandits",
        description="Replication package for five causal-bandit papers. The pipeline itself runs "
        "with `snakemake`; these commands expose the library to researchers.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        _add(sub, name)
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
