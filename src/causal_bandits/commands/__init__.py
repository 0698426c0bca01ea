"""The CLI's subcommands, one module each (loaded by name when called: :data:`causal_bandits.cli.COMMANDS`), and
how each registers itself."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def subcommand(
    subparsers: Any, name: str, summary: str, doc: str, run: Callable[..., int] | None = None
) -> argparse.ArgumentParser:
    """Register the subcommand ``name`` on an ``argparse`` subparsers action: ``summary`` its line in the CLI's
    ``--help``, the second paragraph of its module's docstring ``doc`` its description, ``run`` what it does (none
    for a command whose own subcommands each set theirs)."""
    parser = subparsers.add_parser(name, help=summary, description=doc.split("\n\n")[1].replace("\n", " "))
    if run is not None:
        parser.set_defaults(func=run)
    return parser
