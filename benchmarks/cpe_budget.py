"""Estimate the CPU time of the cpe design (docs/papers/cpe.md#cpe-experiments, E0–E5) from a small measured slice.

Two measurements, then arithmetic:

1. Cost per round. For every (algorithm, instance) of the design, ``simulate`` runs ``--probe``
   rounds with 64 and with 4 seeds (none can stop that early); a round costs a + b · n_active
   seconds (a: per-round overhead, b: per running seed), fitted from the two timings.
2. Samples per seed. Short pilot runs (``--pilot-seeds`` seeds, one config per experiment and
   algorithm) give samples = c · term, with term = H for LUCB, LUCB1, SE and CCPE-BGLM
   (docs/papers/cpe.md#cpe-experiments: no BGLM advantage is predicted at these sizes) and H_{m_{ε,Δ}} (q^(G)) for
   CCPE-General and the naive ablation, per experiment; the other configs of the experiment scale with their exact term.

A job (one config, one algorithm, all its R seeds vectorised) then costs a · rounds + b · R · mean
samples, with rounds = ``SPREAD`` × the mean (the slowest seed sets the number of rounds). The
parallel bandit runs every budget of its grid to the end. E0 runs carry the interval-coverage
recorder (measured with it). Printed: one line per experiment and algorithm, the total, and a
JSON line. The numbers are estimates (the pilot seeds are few); compare them with Snakemake's
benchmark files once the workflow runs.

    python benchmarks/cpe_budget.py                     # a few minutes on a busy machine
    python benchmarks/cpe_budget.py --pilot-seeds 2 --probe 100
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import numpy as np

from causal_bandits.bandits.ccpe_bglm import CCPEBGLM
from causal_bandits.bandits.ccpe_general import CCPEGeneral
from causal_bandits.bandits.ccpe_naive import NaiveCCPE
from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.bandits.lucb import LUCB
from causal_bandits.bandits.parallel_bandit import ParallelBandit
from causal_bandits.bandits.successive_elimination import SuccessiveElimination
from causal_bandits.papers.cpe import families
from causal_bandits.papers.cpe.complexity import H_prefix, effective_gaps, gap_dependent_threshold
from causal_bandits.papers.cpe.environment import CPEEnvironment
from causal_bandits.papers.cpe.recorders import IntervalCoverage

SPREAD = 1.5  # rounds of a vectorised job / mean samples (the last seed to stop sets the rounds)
CAP = 5_000_000
PB_BUDGETS = [1000 * 2**j for j in range(11)]


def policy(name: str, instance, epsilon: float = 0.0):
    settings = {"epsilon": epsilon}
    if name.endswith(" theory"):
        name, settings["profile"] = name.removesuffix(" theory"), "theory"
    if name.startswith("CCPE-BGLM"):
        alpha = float(name.split("a=")[1]) if "a=" in name else None
        return CCPEBGLM(
            instance.policy_arms(),
            instance.bglm_structure(),
            kappa=instance.kappa,
            eta=instance.eta,
            alpha_O=alpha,
            **settings,
        )
    return {
        "CCPE-General": lambda: CCPEGeneral(instance.policy_arms(), instance.policy_sequences(), **settings),
        "naive": lambda: NaiveCCPE(instance.policy_arms(), **settings),
        "LUCB": lambda: LUCB(**settings),
        "LUCB1": lambda: LUCB(radius="kk12", **settings),
        "SE": lambda: SuccessiveElimination(**settings),
    }[name]()


def design():
    """(experiment, config label, instance factory, ε, algorithm, R) of docs/papers/cpe.md#cpe-experiments."""
    rows = []
    for n in (4, 8, 16, 32, 64):
        for alg in ("CCPE-General", "LUCB", "SE", "PB"):
            rows.append(("E1", f"n={n}", lambda n=n: families.parallel(n), 0.0, alg, 100))
        if n <= 16:
            rows += [
                ("E1", f"n={n}", lambda n=n: families.parallel(n), 0.0, alg, 30)
                for alg in ("LUCB1", "CCPE-General theory", "LUCB theory")
            ]
    e2 = (
        {(r, 0.5, 0.0) for r in (1, 2, 4, 8, 16)}
        | {(8, d, 0.0) for d in (0.05, 0.1, 0.2, 0.4, 0.8)}
        | {(8, 0.5, e) for e in (0.0, 0.05, 0.1, 0.2)}
    )
    for r, d, e in sorted(e2):
        rows += [
            ("E2", f"r={r},d={d},eps={e}", lambda r=r, d=d: families.rare(r, d), e, alg, 100)
            for alg in ("CCPE-General", "LUCB", "SE", "PB")
        ]
    for rho in (0.0, 0.5, 0.8, 0.95):
        rows += [
            ("E3", f"rho={rho}", lambda rho=rho: families.confounded(rho), 0.0, alg, 100)
            for alg in ("CCPE-General", "LUCB", "SE", "naive")
        ]
    for k in range(2, 8):
        rows += [
            ("E4", f"k={k}", lambda k=k: families.bglm(k), 0.0, alg, 30 if k == 7 else 100)
            for alg in ("CCPE-BGLM", "CCPE-General", "LUCB", "SE", "PB")
        ]
    for n in (4, 8, 16, 32):
        for p in (0.5, 0.2, 0.05):
            rows += [
                ("E5", f"n={n},p={p}", lambda n=n, p=p: families.parallel_max(n, p), 0.0, alg, 100)
                for alg in ("CCPE-General", "LUCB")
            ]
    e0 = [
        ("E1 n=8", lambda: families.parallel(8)),
        ("E3 rho=0.8", lambda: families.confounded(0.8)),
        ("E4 k=3", lambda: families.bglm(3)),
    ]
    for label, make in e0:
        algs = (
            ["CCPE-General", "LUCB"]
            + (["CCPE-General theory"] if label.startswith("E1") else [])
            + ([f"CCPE-BGLM a={a}" for a in (0.05, 0.1, 0.25, 0.5)] if label.startswith("E4") else [])
        )
        rows += [("E0", label, make, 0.0, alg, 200) for alg in algs]
    return rows


PILOTS = {  # (experiment, config label) whose runs calibrate the sample constants of the experiment
    "E1": "n=8",
    "E2": "r=8,d=0.5,eps=0.0",
    "E3": "rho=0.8",
    "E4": "k=4",
    "E5": "n=8,p=0.05",
}
PILOT_OVERRIDES = {("E1", "CCPE-General theory"): "n=4", ("E1", "LUCB theory"): "n=4"}


def source(exp: str, label: str, alg: str) -> tuple[str, str]:
    """Whose sample constant a row uses: E0 reuses its instance's experiment; every α_O of CCPE-BGLM
    the pilot's (α_O = 0.25)."""
    return (label.split()[0] if exp == "E0" else exp), alg.split(" a=")[0]


def term(instance, algorithm: str, epsilon: float) -> float:
    g = effective_gaps(instance.mu, epsilon)
    if algorithm.split()[0] in ("CCPE-General", "naive"):
        q = instance.q_general()
        return float(H_prefix(q, g)[gap_dependent_threshold(q, g) - 1])
    return float((1.0 / g**2).sum())


def cost_per_round(instance, algorithm: str, probe: int, coverage: bool) -> tuple[float, float]:
    """(a, b): seconds per round and per running seed per round, from runs with 64 and 4 seeds."""
    times = {}
    for n in (64, 4):
        pol = (
            ParallelBandit(instance.policy_arms(), budget=10 * probe)
            if algorithm == "PB"
            else policy(algorithm, instance)
        )
        start = time.perf_counter()
        simulate(
            pol,
            CPEEnvironment(instance),
            Streams("cpe", "budget", np.arange(n)),
            probe,
            [IntervalCoverage()] if coverage else [],
        )
        times[n] = (time.perf_counter() - start) / probe
    b = max((times[64] - times[4]) / 60, 0.0)
    return max(times[4] - 4 * b, 0.0), b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pilot-seeds", type=int, default=3)
    parser.add_argument("--probe", type=int, default=150, help="rounds of each cost probe")
    args = parser.parse_args()
    rows = design()
    instances, constants = {}, {}
    for exp, label, make, _eps, _alg, _R in rows:
        instances.setdefault((exp, label), make())
    # 2. sample constants from pilot runs
    for exp, label, _make, eps, alg, _R in rows:
        if (
            exp == "E0"
            or alg == "PB"
            or label != PILOT_OVERRIDES.get((exp, alg), PILOTS[exp])
            or (exp, alg) in constants
        ):
            continue
        inst = instances[exp, label]
        start = time.perf_counter()
        run = simulate(
            policy(alg, inst, eps), CPEEnvironment(inst), Streams("cpe", "pilot", np.arange(args.pilot_seeds)), CAP
        )
        samples = run.summary["stopped_at"].astype(float)
        constants[exp, alg] = samples.mean() / term(inst, alg, eps)
        print(
            f"pilot {exp:3s} {label:20s} {alg:22s} mean samples {samples.mean():10.0f} "
            f"(= {constants[exp, alg]:6.1f} x term) in {time.perf_counter() - start:6.1f} s",
            flush=True,
        )
    # 1. + arithmetic
    per_group, total = defaultdict(float), 0.0
    for exp, label, _make, eps, alg, R in rows:
        inst = instances[exp, label]
        a, b = cost_per_round(inst, alg, args.probe, coverage=exp == "E0")
        if alg == "PB":
            rounds = sum(PB_BUDGETS)
            seconds = a * rounds + b * R * rounds
        else:
            mean = constants[source(exp, label, alg)] * term(inst, alg, eps)
            seconds = a * SPREAD * mean + b * R * mean
        per_group[exp, alg] += seconds
        total += seconds
    print(f"\n{'experiment':10s} {'algorithm':22s} {'CPU-hours':>10s}")
    for (exp, alg), seconds in sorted(per_group.items()):
        print(f"{exp:10s} {alg:22s} {seconds / 3600:10.3f}")
    print(f"{'total':33s} {total / 3600:10.3f}")
    print(
        json.dumps(
            {
                "benchmark": "cpe_budget",
                "total_cpu_hours": round(total / 3600, 3),
                "per_experiment_algorithm": {f"{e}/{a}": round(s / 3600, 4) for (e, a), s in per_group.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
