"""The rule files keep to themselves: each reads the globals of common.smk (the helpers and TARGETS every file
adds to) and its own, never another rule file's (docs/studies.md: a study reads what it needs of the paper it reruns
from the config and the paper's package)."""

from __future__ import annotations

import re

from workflow_helpers import ROOT

RULES = ROOT / "workflow" / "rules"
#: A global of a rule file: an upper-case name assigned at the start of a line.
GLOBAL = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?:\[[^\]]*\]\s*)?=", re.M)


def _globals() -> dict[str, set[str]]:
    """Rule file (relative to workflow/rules) -> the globals it defines (an item it sets in a dict is not one)."""
    return {
        path.relative_to(RULES).as_posix(): {m.group(1) for m in GLOBAL.finditer(path.read_text()) if "[" not in m[0]}
        for path in sorted(RULES.rglob("*.smk"))
    }


def test_no_rule_file_reads_another_rule_files_globals():
    defined = _globals()
    shared = defined.pop("common.smk")
    owner = {name: path for path, names in defined.items() for name in names - shared}
    for path in defined:
        lines = (RULES / path).read_text().splitlines()
        text = "\n".join(line for line in lines if not line.lstrip().startswith(("from ", "import ", "#")))
        read = {name for name in owner if owner[name] != path and re.search(rf"\b{name}\b", text)}
        assert not read, f"{path} reads {sorted(read)} of {sorted({owner[n] for n in read})}"
