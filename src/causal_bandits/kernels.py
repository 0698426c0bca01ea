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
``causal-bandits verify`` rebuilds through the workflow, so under the same pin. Code run in a process that
imported numpy before the pin (a notebook, ``run-job``) runs on the CPU's own kernels. The pin's cost and the
test that shows it works: docs/performance.md#kernels and tests/test_kernels.py.
"""

from __future__ import annotations

import platform

#: OpenBLAS's core type per machine architecture: the oldest kernels numpy's own baseline implies.
CORETYPE = {"x86_64": "Nehalem", "amd64": "Nehalem", "aarch64": "ARMV8", "arm64": "ARMV8"}


def dispatched_features() -> list[str]:
    """The CPU feature groups above its baseline that the installed numpy has SIMD code for."""
    from numpy._core._multiarray_umath import __cpu_dispatch__

    return list(__cpu_dispatch__)


def pinned(machine: str | None = None) -> dict[str, str]:
    """The environment variables that pin OpenBLAS's kernels and threads and numpy's dispatch for a process that
    imports numpy afterwards (OpenBLAS's core type only on an architecture :data:`CORETYPE` knows)."""
    env = {"OPENBLAS_NUM_THREADS": "1", "NPY_DISABLE_CPU_FEATURES": " ".join(dispatched_features())}
    core = CORETYPE.get((machine or platform.machine()).lower())
    if core:
        env["OPENBLAS_CORETYPE"] = core
    return env
