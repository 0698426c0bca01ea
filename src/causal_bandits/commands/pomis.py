"""``pomis GRAPH.json``: print the MISs and POMISs of a causal diagram with non-manipulable variables.

Input: ``{"nodes": [...], "directed": [[a, b], ...], "bidirected": [[a, b], ...], "reward": "Y",
"non_manipulable": [...]}`` (``directed``, ``bidirected`` and ``non_manipulable`` default to empty).
Output: one JSON line ``{"mis": [[...], ...], "pomis": [[...], ...]}``, sets in canonical order
(size, names) — 𝕄^N_{G,Y} (AAAI-19 Def. 2) and ℙ^N_{G,Y} (AAAI-19 Theorem 4 with NeurIPS-18 Alg. 1).
Both families can be exponentially large (k causes of Y each confounded with Y have 2^k POMISs):
above ``--limit`` sets (default ``SET_LIMIT``, 10,000) the command says so and stops, within about
a second on diagrams of up to 60 nodes (benchmarks/pomis_speed.py); ``--pomis-only`` prints
``{"pomis": ...}`` alone. A run longer than a second reports its progress on stderr every second.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from causal_bandits.causal.pomis import SET_LIMIT, TooManySets, minimal_intervention_sets, pomis
from causal_bandits.errors import CausalBanditsError
from causal_bandits.scm.graph_file import diagram, read_graph


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``pomis`` subcommand on an ``argparse`` subparsers action."""
    parser = subparsers.add_parser(
        "pomis",
        help="list the MISs and POMISs of a causal diagram",
        description=(
            'Print one JSON line {"mis": [...], "pomis": [...]}: the minimal intervention sets and the '
            "possibly-optimal ones (Lee & Bareinboim, AAAI-19), each a sorted list of names. GRAPH.json "
            'holds "nodes", "reward" and optionally "directed", "bidirected" (lists of [a, b]) and '
            '"non_manipulable".'
        ),
    )
    parser.add_argument(
        "graph", metavar="GRAPH.json", type=Path, help="causal diagram, reward and non-manipulable variables"
    )
    parser.add_argument(
        "--pomis-only", action="store_true", help="print only the POMISs (for diagrams with very many MISs)"
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=SET_LIMIT,
        metavar="N",
        help=f"stop when a family has more than N sets (default {SET_LIMIT:,})",
    )
    parser.set_defaults(func=run)
    return parser


class _Progress:
    """``progress`` callback of the enumerations: once a family has taken a second, one stderr line a
    second with the count so far (stdout stays the one JSON line)."""

    def __init__(self, what: str, limit: int, command_start: float):
        self.what, self.limit = what, limit
        self.command_start = command_start  # for the last line: the reading of the graph counts too
        self.start = time.monotonic()
        self.due = self.start + 1.0

    def __call__(self, count: int) -> None:
        now = time.monotonic()
        if now >= self.due:
            self._line(
                f"{count:,} {self.what} so far after {now - self.start:.0f} s (stops above {self.limit:,}; --limit)"
            )
            self.due = now + 1.0

    def finish(self, count: int) -> None:
        """The family's last line, once the command has taken a second or more (so the progress runs to the end)."""
        elapsed = time.monotonic() - self.command_start
        if elapsed >= 1.0:
            self._line(f"{count:,} {self.what} in all after {elapsed:.1f} s")

    @staticmethod
    def _line(text: str) -> None:
        print(f"pomis: {text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Print ``{"mis": ..., "pomis": ...}`` for ``args.graph`` (``{"pomis": ...}`` with ``--pomis-only``);
    bad input, or a family of more than ``args.limit`` sets, raises a one-line :class:`CausalBanditsError`."""
    start = time.monotonic()
    limit = getattr(args, "limit", SET_LIMIT)
    if limit < 1:
        raise CausalBanditsError(f"--limit {limit} must be a positive number of sets")
    data = read_graph(Path(args.graph))
    G = diagram(data)
    Y, N = data["reward"], data.get("non_manipulable", [])
    try:
        progress = _Progress("POMISs", limit, start)
        sets = {"pomis": pomis(G, Y, N, limit=limit, progress=progress)}
        progress.finish(len(sets["pomis"]))
    except TooManySets as err:
        raise CausalBanditsError(f"{err}; rerun with a larger --limit to list them all") from None
    if not getattr(args, "pomis_only", False):
        try:
            progress = _Progress("MISs", limit, start)
            sets = {"mis": minimal_intervention_sets(G, Y, N, limit=limit, progress=progress), **sets}
            progress.finish(len(sets["mis"]))
        except TooManySets as err:
            raise CausalBanditsError(
                f"{err}; rerun with --pomis-only to list only the POMISs, or with a larger --limit"
            ) from None
    print(json.dumps({name: [list(X) for X in family] for name, family in sets.items()}))
    return 0
