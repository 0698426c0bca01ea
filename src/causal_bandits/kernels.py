"""The CPU kernels every job's floating point runs on, pinned so that a run gives the same bytes on any CPU.

Two libraries under numpy choose their machine code at run time from the CPU's features, and kernels of
different widths add and multiply in different orders, so their results differ in the last bits:

* **OpenBLAS** (``np.linalg.solve``, ``inv``, ``svd``, ``@`` on floats): a build with ``DYNAMIC_ARCH`` (numpy's
  wheels) picks a kernel per CPU model, e.g. SkylakeX on an AVX-512 machine and Haswell on an AVX2 one, and the
  batched 2x2-8x8 solves of CCPE-BGLM's estimate (cpe Algorithm 2) come out different in the last bits under
  each (measured: Nehalem, Sandybridge, Haswell and SkylakeX give four different results). ``OPENBLAS_CORETYPE``
  forces one kernel set: :data:`CORETYPE` names, per architecture, the oldest that numpy itself requires the
  CPU to support (numpy's x86-64 baseline is x86-64-v2, SSE4.2 = Nehalem), so the pin runs on every CPU that
  numpy runs on, including those whose environment sets another core type because newer kernels misbehave
  there. One thread (``OPENBLAS_NUM_THREADS``), so that no split of the work depends on the cores.
* **numpy's ufuncs and sorts** dispatch to SIMD code for the CPU's feature groups above numpy's baseline
  (on x86-64 ``X86_V3`` = AVX2/FMA3, ``X86_V4`` and later = AVX-512): ``exp``, ``log``, ``sin`` and
  the like may round differently there, and ``argsort`` may order ties differently.
  ``NPY_DISABLE_CPU_FEATURES`` set to every group the installed numpy dispatches to keeps it on its baseline.

The workflow puts :func:`pinned` into its own environment as it starts (``workflow/rules/common.smk``), so every
job it runs, locally or through a cluster's executor (whose job re-reads the Snakefile), imports numpy under it;
``causal-bandits verify`` rebuilds through the workflow, so under the same pin, and ``causal-bandits run-job``
(also as ``python -m causal_bandits run-job``) restarts itself under it and says so (:func:`pin_command`). numpy
refuses ``NPY_DISABLE_CPU_FEATURES`` beside a user's ``NPY_ENABLE_CPU_FEATURES``: :func:`pinned` then stops with
one line that says to unset it. A process that imported numpy before the pin (a notebook) runs on the CPU's own
kernels. The pin's cost and the test that shows it works: docs/performance.md#kernels and tests/test_kernels.py.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Mapping

from causal_bandits.errors import CausalBanditsError

#: OpenBLAS's core type per machine architecture: the oldest kernels numpy's own baseline implies.
CORETYPE = {"x86_64": "Nehalem", "amd64": "Nehalem", "aarch64": "ARMV8", "arm64": "ARMV8"}


def dispatched_features() -> list[str]:
    """The CPU feature groups above its baseline that the installed numpy has SIMD code for."""
    from numpy._core._multiarray_umath import __cpu_dispatch__

    return list(__cpu_dispatch__)


#: What numpy refuses to be set beside ``NPY_DISABLE_CPU_FEATURES`` (its import then fails).
ENABLE = "NPY_ENABLE_CPU_FEATURES"


def pinned(machine: str | None = None, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The environment variables that pin OpenBLAS's kernels and threads and numpy's dispatch for a process that
    imports numpy afterwards (OpenBLAS's core type only on an architecture :data:`CORETYPE` knows). A non-empty
    :data:`ENABLE` in ``environ`` raises a one-line error with the fix, before any process imports numpy under both."""
    if environ.get(ENABLE):
        raise CausalBanditsError(
            f"{ENABLE}={environ[ENABLE]!r} is set, and numpy refuses it beside the pin every job runs under "
            f"(NPY_DISABLE_CPU_FEATURES, docs/performance.md#kernels): unset it (unset {ENABLE}) and run again"
        )
    env = {"OPENBLAS_NUM_THREADS": "1", "NPY_DISABLE_CPU_FEATURES": " ".join(dispatched_features())}
    core = CORETYPE.get((machine or platform.machine()).lower())
    if core:
        env["OPENBLAS_CORETYPE"] = core
    return env


def applied(env: Mapping[str, str]) -> bool:
    """Whether this process runs under the pin ``env``: its environment holds it, and numpy (imported here if it is
    not yet, so under it) runs none of the feature groups the pin disables."""
    if any(os.environ.get(k) != v for k, v in env.items()):
        return False
    from numpy._core._multiarray_umath import __cpu_features__

    return not any(__cpu_features__.get(group) for group in env["NPY_DISABLE_CPU_FEATURES"].split())


#: Set in the environment of a process :func:`pin_command` restarted: a second restart would loop.
_RESTARTED = "CB_KERNELS_RESTARTED"


def pin_command(command: str) -> str:
    """Make the process of ``command`` (``run-job``) run under the pin, and say so in one line once numpy runs under
    it (:func:`applied`); until then, restart the process in place (``os.execve``) with the pin added and the same
    command line (``sys.orig_argv``: ``python -m pdb -m causal_bandits run-job ...`` keeps its debugger). Where this
    process is not ``command``'s own (a call from Python), a one-line error says to run the command instead; a
    process restarted once and still not pinned also stops with one line, never a loop."""
    env = pinned()
    if applied(env):
        shown = " ".join(f"{k}={v}" for k, v in sorted(env.items()))
        return f"{command}: CPU kernels pinned as the workflow's jobs' (numpy on its baseline; {shown})"
    if sys.argv[1:2] != [command] or os.environ.get(_RESTARTED) == command:
        why = "not started as the command" if sys.argv[1:2] != [command] else "restarted under it, it still lacks it"
        raise CausalBanditsError(
            f"{command} would run outside the workflow's kernel pin in this process ({why}): start it as the command "
            f"`causal-bandits {command} ...`, which pins the kernels (causal_bandits.kernels)"
        )
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], {**os.environ, **env, _RESTARTED: command})
