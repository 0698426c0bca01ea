"""``--before REF`` for the benchmark scripts: the package as it is at a git ref, measured beside the working tree.

:func:`export_src` unpacks the ref's ``src`` (``git archive``) into a directory; :func:`run_json` runs a benchmark
script in a fresh process that imports the package from a given ``src`` and returns the JSON object it prints last;
:func:`both_sides` runs the two sides of one measurement (a function of the ``src`` to import) back to back, in an
order that alternates from one measurement to the next, so that load from other processes hits both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The working tree's package.
HERE = str(REPO / "src")


#: Files outside ``src`` that the package reads beside it at some refs (the run jobs' measured peaks, since they left
#: the run modules; the paper-scale config, which the ref's own schema must accept): exported with it where the ref
#: has them.
BESIDE_SRC = ("workflow/profiles/run_peaks.yaml", "config/config.yaml")


def export_src(ref: str, into: str) -> str:
    """``src`` of git ref ``ref`` of this repository, and the files of :data:`BESIDE_SRC` it has, unpacked under
    ``into``; returns the path of ``src``."""
    beside = [
        path
        for path in BESIDE_SRC
        if subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{ref}:{path}"], capture_output=True).returncode
        == 0
    ]
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", ref, "src", *beside], check=True, capture_output=True
    ).stdout
    path = os.path.join(into, "archive.tar")
    with open(path, "wb") as f:
        f.write(archive)
    with tarfile.open(path) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "src")


def run_json(src: str, argv: list[str]) -> dict:
    """``python argv...`` in a fresh process that imports the package from ``src``, pinned as the workflow pins a job
    (one OpenBLAS thread, numpy's baseline kernels: :func:`causal_bandits.kernels.pinned`; a second BLAS thread's CPU
    would count in the process's time); the last line it prints, as JSON."""
    from causal_bandits.kernels import pinned

    env = {**os.environ, **pinned(), "PYTHONPATH": src}
    out = subprocess.run([sys.executable, *argv], check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.splitlines()[-1])


def both_sides(i: int, measure: Callable[[str], dict], before_src: str | None) -> tuple[dict, dict | None]:
    """(``measure(HERE)``, ``measure(before_src)``) for the ``i``-th measurement, the ref's side first when ``i`` is
    even; (``measure(HERE)``, None) without a ref."""
    if before_src is None:
        return measure(HERE), None
    if i % 2:
        now = measure(HERE)
        return now, measure(before_src)
    before = measure(before_src)
    return measure(HERE), before
