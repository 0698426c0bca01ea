"""The graph object a researcher writes (a JSON file, or a mapping in an experiment's ``diagram:``): a causal
diagram (``nodes``, ``directed``, ``bidirected``), its ``reward`` and its ``non_manipulable`` variables.
Read and checked by the ``pomis`` command and by researchers' own experiments alike."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from causal_bandits.errors import DiagramError
from causal_bandits.scm.diagram import CausalDiagram

#: The keys of the diagram itself, and every key a graph object may hold.
DIAGRAM_KEYS = ("nodes", "directed", "bidirected")
KEYS = (*DIAGRAM_KEYS, "reward", "non_manipulable")


def read_graph(path: Path) -> dict[str, Any]:
    """The graph file's object, its keys and types checked; bad input raises a one-line DiagramError."""
    try:
        data = json.loads(path.read_text())
    except OSError as err:
        raise DiagramError(f"cannot read {path}: {err.strerror}; check the path") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise DiagramError(f"{path} is not valid JSON ({err}); fix the file") from None
    if not isinstance(data, dict):
        raise DiagramError(f"{path} must hold a JSON object with keys {list(KEYS)}")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise DiagramError(f"{path}: unknown key {unknown[0]!r}; allowed keys are {list(KEYS)}")
    if "reward" not in data:
        raise DiagramError(f'{path} has no "reward"; add "reward": "<name of the reward node>"')
    if not isinstance(data["reward"], str):
        raise DiagramError(f'{path}: "reward" must be a node name (a string), got {data["reward"]!r}')
    if not isinstance(data.get("non_manipulable", []), list):
        raise DiagramError(f'{path}: "non_manipulable" must be a list of node names')
    return data


def diagram(data: Mapping[str, Any]) -> CausalDiagram:
    """The causal diagram of a graph object (a cycle or an unknown node raises a one-line DiagramError)."""
    return CausalDiagram.from_dict({k: data[k] for k in DIAGRAM_KEYS if k in data})
