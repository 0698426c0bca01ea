"""``new-paper KEY`` and ``new-study NAME``: write the working skeleton of a sixth paper or of a new study.

Run at the repository's root (or give ``--root``). The skeleton runs as it is (``snakemake --cores 2 KEY
--configfile config/tiny.yaml``); the files it writes and the lines it adds are printed, and docs/guide/add-a-paper.md
and docs/studies.md list them (:mod:`causal_bandits.scaffold`). A bad name is one ``error:`` line and nothing is
written; an existing file is never overwritten.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from causal_bandits import scaffold, yaml_io
from causal_bandits.commands import subcommand
from causal_bandits.errors import CausalBanditsError


def add_parser(subparsers: Any) -> None:
    """Register the ``new-paper`` and ``new-study`` subcommands on an ``argparse`` subparsers action."""
    kinds = (
        ("paper", "key", "package, rule file, config blocks, registry line", run_paper),
        ("study", "name", "module, schema, rule file, config blocks, registry line", run_study),
    )
    for what, name, writes, func in kinds:
        parser = subcommand(subparsers, f"new-{what}", f"write the skeleton of a new {what}: {writes}", __doc__, func)
        parser.add_argument(name, metavar=name.upper(), help=f"the {what}'s {name}: lower snake_case ASCII, unused")
        default = f"'<{name.upper()}>: a new {what} (skeleton)'"
        parser.add_argument("--title", help=f"the report heading (default: {default})")
        parser.add_argument("--root", type=Path, default=Path("."), help="the repository's root (default: .)")


def registered(root: Path, package: str) -> tuple[str, ...]:
    """The keys of ``registry.yaml`` of ``package`` (``papers``, ``studies``) in the repository at ``root``."""
    path = root / "src" / "causal_bandits" / package / "registry.yaml"
    if not path.is_file():
        raise CausalBanditsError(f"{path} not found; run the command at the repository's root, or give --root")
    keys = yaml_io.load(path.read_text())
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise CausalBanditsError(f"{path} is not a list of names (one `- <name>` line each); restore it (git checkout)")
    return tuple(keys)


def _title(key: str, title: str | None, what: str) -> str:
    title = title if title is not None else f"{key}: a new {what} (skeleton)"
    if not title.strip() or len(title) > 100 or any(c in title for c in '"\\$\n`'):
        raise CausalBanditsError(
            f"--title {title!r} must be one line of 1 to 100 characters without quotes, backslashes, $ or `"
        )
    return title


def _report(plan: scaffold.Plan, next_step: str) -> int:
    print(f"wrote {len(plan.new)} new files and added to {len(plan.edited)}:")
    for path in plan.new:
        print(f"  new    {path}")
    for path in plan.edited:
        print(f"  added  {path}")
    print(next_step)
    return 0


def run_paper(args: argparse.Namespace) -> int:
    """Write the paper skeleton; bad input raises a one-line CausalBanditsError before anything is written."""
    papers, studies = _registered(args.root)
    plan = scaffold.paper_plan(args.root, args.key, _title(args.key, args.title, "paper"), papers, studies)
    scaffold.write(args.root, plan)
    return _report(plan, f"next: snakemake --cores 2 {args.key} --configfile config/tiny.yaml")


def run_study(args: argparse.Namespace) -> int:
    """Write the study skeleton; bad input raises a one-line CausalBanditsError before anything is written."""
    papers, studies = _registered(args.root)
    plan = scaffold.study_plan(args.root, args.name, _title(args.name, args.title, "study"), papers, studies)
    scaffold.write(args.root, plan)
    return _report(plan, f"next: snakemake --cores 2 {args.name} --configfile config/tiny.yaml")


def _registered(root: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return registered(root, "papers"), registered(root, "studies")
