"""What pinning the CPU kernels costs (causal_bandits.kernels, docs/performance.md#kernels).

Runs the kinds of floating point the jobs do, each in a fresh process under this machine's own kernels and under the
pin (OpenBLAS's Nehalem kernels, one thread, numpy on its baseline SIMD code), and prints the CPU seconds of each
(the least of ``--repeat`` runs) and their ratio:

* ``bglm_solve``: CCPE-BGLM's Newton steps (bglm_estimate.fit): batched 4x4 solves over 200 seeds;
* ``linucb_inv``: LinUCB's per-arm inverses (linucb.py): batched 10x10 inverses;
* ``matmul``: a 300x300 float product (the OAM-PCB and efficiency matrices are smaller);
* ``exp_log``: ``exp`` and ``log`` on a million floats (the links, the radii, kl-UCB's indices).

    .venv/bin/python benchmarks/kernels_cost.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys

from causal_bandits import kernels

SETUP = "import numpy as np\nrng = np.random.default_rng(0)\n"
CASES = {
    "bglm_solve": "a = rng.normal(size=(200, 4, 4)); a = a @ a.transpose(0, 2, 1) + np.eye(4)\n"
    "b = rng.normal(size=(200, 4, 1))\nfor _ in range(20000): np.linalg.solve(a, b)",
    "linucb_inv": "a = rng.normal(size=(100, 10, 10)); a = a @ a.transpose(0, 2, 1) + np.eye(10)\n"
    "for _ in range(5000): np.linalg.inv(a)",
    "matmul": "a = rng.normal(size=(300, 300))\nfor _ in range(300): a @ a",
    "exp_log": "x = rng.uniform(0.1, 2.0, 1_000_000)\nfor _ in range(100): np.log(np.exp(x))",
}


def cpu_seconds(code: str, env: dict[str, str]) -> float:
    """CPU seconds (user + system) of a fresh Python process running ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", SETUP + code], env={**os.environ, **env}, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    own = {"OPENBLAS_NUM_THREADS": "1"}  # a job's one thread either way: the comparison is of the kernels
    print(f"pin: {kernels.pinned()}")
    print(f"{'case':<12} {'own (CPU-s)':>12} {'pinned (CPU-s)':>15} {'ratio':>6}")
    for name, code in CASES.items():
        mine = min(cpu_seconds(code, own) for _ in range(args.repeat))
        pinned = min(cpu_seconds(code, kernels.pinned()) for _ in range(args.repeat))
        print(f"{name:<12} {mine:>12.2f} {pinned:>15.2f} {pinned / mine:>6.2f}")


if __name__ == "__main__":
    main()
