"""The byte guard: the tiny run's outputs against a committed list of their sha256s (``tests/tiny_digests.txt``).

Between releases nothing is remade at paper scale; what keeps main honest is that CI's tiny run
(``config/tiny.yaml``, every rule of the workflow) writes the bytes the list records, output by output
(``tests/test_byte_guard.py``). A change meant to alter outputs updates the list in the same commit
(``make tiny-digests REASON="..."``), with its reason on the list's first line, so that the commit's diff shows
which outputs moved and why; a change that alters bytes without it fails CI, naming each output that moved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from causal_bandits import store
from causal_bandits.errors import CausalBanditsError

#: The committed list, relative to the repository.
LIST = "tests/tiny_digests.txt"
#: The list's first line: the reason of its last update.
REASON = "# reason: "
#: What the list's header says about itself, below the reason.
HEADER = (
    "# sha256 of every output of the tiny run (config/tiny.yaml; tests/test_byte_guard.py compares them in CI).",
    '# A change that alters outputs on purpose updates this list in the same commit: make tiny-digests REASON="why"',
    "# (the first line says why; the diff shows which outputs moved). Format: sha256, two spaces, path.",
)
LINE = re.compile(r"^([0-9a-f]{64})  (\S.*)$")


def read(path: Path) -> tuple[str, dict[str, str]]:
    """The list at ``path``: its reason and its sha256 by output path; a malformed line is a one-line error."""
    lines = path.read_text().splitlines()
    if not lines or not lines[0].startswith(REASON):
        raise CausalBanditsError(f"{path}: the first line is not '{REASON}...': regenerate it with make tiny-digests")
    found: dict[str, str] = {}
    for n, line in enumerate(lines[1:], 2):
        if line.startswith("#") or not line:
            continue
        if not (match := LINE.match(line)):
            raise CausalBanditsError(f"{path}:{n}: not 'sha256  path': regenerate it with make tiny-digests")
        found[match[2]] = match[1]
    return lines[0].removeprefix(REASON), found


def write(path: Path, digests: Mapping[str, str], reason: str) -> None:
    """Write the list of ``digests`` (sha256 by output path) with its one-line ``reason``, atomically."""
    if not reason.strip() or "\n" in reason:
        raise CausalBanditsError('the list needs a one-line reason: make tiny-digests REASON="what changed and why"')
    lines = [f"{REASON}{reason.strip()}", *HEADER, *(f"{digests[p]}  {p}" for p in sorted(digests))]
    with store.atomic_path(path) as tmp:
        Path(tmp).write_text("\n".join(lines) + "\n")


def moved(listed: Mapping[str, str], found: Mapping[str, str]) -> list[str]:
    """One line per output whose bytes differ from the list's, or that only one side has (sorted)."""
    lines = []
    for path in sorted(listed.keys() | found.keys()):
        if path not in found:
            lines.append(f"{path}: listed, not written by the tiny run")
        elif path not in listed:
            lines.append(f"{path}: written by the tiny run, not listed")
        elif listed[path] != found[path]:
            lines.append(f"{path}: listed sha256 {listed[path][:12]}, written {found[path][:12]}")
    return lines
