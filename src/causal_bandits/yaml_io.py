"""YAML as the package reads it: PyYAML's safe loader (through libyaml when PyYAML has it), with a
mapping that names a key twice refused instead of keeping the last value silently.

The config files, the schemas and the documents the workflow writes are all read here.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import ConstructorError

#: PyYAML's C parser when it was built with libyaml (the schemas take 0.3 s in pure Python, paid by every
#: Snakemake start: each cluster job step parses the workflow), else the pure-Python one.
_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: The start of the problem text of a repeated key (what :func:`load`'s callers test for).
DUPLICATE = "duplicate key"


class StrictLoader(_BASE):
    """The safe loader, with every mapping checked for a key given twice."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # ``<<: *anchor``: merged keys may be overridden
                continue
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                first = seen[key].start_mark.line + 1
                raise ConstructorError(None, None, f"{DUPLICATE} {key!r} (first at line {first})", key_node.start_mark)
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)


def load(text: str) -> Any:
    """The YAML document ``text`` as Python values; a key repeated within one mapping raises
    :class:`yaml.YAMLError` (a :class:`~yaml.constructor.ConstructorError` whose mark is the second key)."""
    return yaml.load(text, Loader=StrictLoader)
