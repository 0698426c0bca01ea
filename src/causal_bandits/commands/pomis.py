"""``pomis GRAPH.json``: print the MISs and POMISs of a causal diagram with non-manipulable variables.

Input: ``{"nodes": [...], "directed": [[a, b], ...], "bidirected": [[a, b], ...], "reward": "Y",
"non_manipulable": [...]}`` (``directed``, ``bidirected`` and ``non_manipulable`` default to empty).
Output: one JSON line ``{"mis": [[...], ...], "pomis": [[...], ...]}``, sets in canonical order
(size, names) — 𝕄^N_{G,Y} (AAAI-19 Def. 2) and ℙ^N_{G,Y} (AAAI-19 Theorem 4 with NeurIPS-18 Alg. 1).
The MIS family can be exponentially large: above ``MIS_LIMIT`` (10,000) sets the command says how
many there are and stops; ``--pomis-only`` prints ``{"pomis": ...}`` alone (POMISs take
milliseconds on any diagram).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from causal_bandits.causal.pomis import MIS_LIMIT, TooManySets, minimal_intervention_sets, pomis
from causal_bandits.errors import CausalBanditsError, DiagramError
from causal_bandits.scm.diagram import CausalDiagram

_DIAGRAM_KEYS = ("nodes", "directed", "bidirected")
_KEYS = (*_DIAGRAM_KEYS, "reward", "non_manipulable")


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
    parser.set_defaults(func=run)
    return parser


def read_graph(path: Path) -> dict[str, Any]:
    """The graph file's object, its keys and types checked; bad input raises a one-line DiagramError."""
    try:
        data = json.loads(path.read_text())
    except OSError as err:
        raise DiagramError(f"cannot read {path}: {err.strerror}; check the path") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise DiagramError(f"{path} is not valid JSON ({err}); fix the file") from None
    if not isinstance(data, dict):
        raise DiagramError(f"{path} must hold a JSON object with keys {list(_KEYS)}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise DiagramError(f"{path}: unknown key {unknown[0]!r}; allowed keys are {list(_KEYS)}")
    if "reward" not in data:
        raise DiagramError(f'{path} has no "reward"; add "reward": "<name of the reward node>"')
    if not isinstance(data["reward"], str):
        raise DiagramError(f'{path}: "reward" must be a node name (a string), got {data["reward"]!r}')
    if not isinstance(data.get("non_manipulable", []), list):
        raise DiagramError(f'{path}: "non_manipulable" must be a list of node names')
    return data


def run(args: argparse.Namespace) -> int:
    """Print ``{"mis": ..., "pomis": ...}`` for ``args.graph`` (``{"pomis": ...}`` with ``--pomis-only``);
    bad input, or more than ``MIS_LIMIT`` MISs, raises a one-line :class:`CausalBanditsError`."""
    data = read_graph(Path(args.graph))
    G = CausalDiagram.from_dict({k: data[k] for k in _DIAGRAM_KEYS if k in data})
    Y, N = data["reward"], data.get("non_manipulable", [])
    sets = {"pomis": pomis(G, Y, N)}
    if not getattr(args, "pomis_only", False):
        try:
            sets = {"mis": minimal_intervention_sets(G, Y, N, limit=MIS_LIMIT), **sets}
        except TooManySets as err:
            raise CausalBanditsError(f"{err}; rerun with --pomis-only to list only the POMISs") from None
    print(json.dumps({name: [list(X) for X in family] for name, family in sets.items()}))
    return 0
