"""Speed of z²-TS and z²-KL-UCB (POMIS+) per Figure 5 panel, and the CPU time of the paper's setting.

Usage: ``python benchmarks/z2_speed.py [--seeds 100] [--horizon 1000] [--bootstrap 500]
[--refresh adaptive] [--panels fig5a fig5b fig5c] [--algorithms TS KLUCB] [--project-seeds 1000]
[--before main]``.

For each panel (our graphs (docs/papers/nonmanip.md#nonmanip-r-fig5d-graph), N and XOR-Bernoulli SCMs) and solver it
runs ``--seeds`` seeds together (100 = ``seeds_per_job`` at paper scale, as a run job does) for ``--horizon`` rounds on
the engine (:func:`causal_bandits.bandits.engine.simulate`) and prints, in CPU time (one BLAS thread,
as Snakemake gives a one-thread job), seed-rounds per second, the share spent in bootstrap
refreshes, the refreshes per seed and the cost of one (per seed), and the share spent drawing the
resamples (``multinom``: the compiled grouping, binomial draws and projection of
:class:`~causal_bandits.bandits.z2_resample.LazyResamples`; numpy's multinomial calls on code before it), and of
it the draws alone (``draws``: less the per-call cost of the kernel's calls, one per refresh or, on code before
841411b, one per seed refresh, measured by calls that draw nothing: :func:`reveal_overhead`): no change that keeps
those draws (the random layout) can make a panel faster than 1 / that share, and ``limit`` prints that bound as a
speed-up (against ``--before`` if given: its CPU time over the draws' here). ``r-limit`` is the bound of a change to
the refreshes alone: the speed-up if a refresh cost only its draws and the rest of a round what it costs now.

``--before REF`` measures the same settings on the package as it is at git ref ``REF`` too (its
``src`` exported with ``git archive`` to a temporary directory): every (panel, solver) runs in two
fresh processes, one per side, back to back in alternating order, so load from other processes hits
both alike; each reports its own CPU time (imports, catalogue compilation and the compiled kernels' first call
excluded: a short run comes first), and the table adds the ref's seed-rounds per second and the speed-up, and a
last line the speed-up weighted by the paper-scale mixes of POMIS+ CPU (the papers' default run,
:func:`default_run_mix`, and the papers with the studies, :data:`STUDIES_MIX`).
``peak MB`` is the measuring process's peak resident memory (a job's, at its seeds).

Projection to the spot check's setting (docs/papers/nonmanip.md#nonmanip-numbers-spot-check) (T = 10,000,
``--project-seeds`` seeds: 1,000 for the main run, 50 for the every_round spot check; B = 500): per seed, (T × the
measured cost of a round without bootstrap) + (E(T) × the measured cost of one refresh), where E(T) = the measured
refreshes
up to the horizon plus the refreshes of the rounds not run:

* ``adaptive``: for each arm with active estimators at the horizon, ln(T / horizon) / ln(1.05)
  growth refreshes (an upper bound: refreshes of several arms often coincide);
* ``every_round``: a seed refreshes in every round in which an arm that active estimators read got
  the sample (no growth threshold), at most once per round: T - horizon more (an upper bound; the
  refreshes per seed-round over the second half of the horizon, printed as ``late_refreshes_per_
  seed_round``, rise towards 1 as more arms get active estimators: 0.39-0.97 at horizon 500,
  0.95-1.0 at horizon 2,000).

With ``--horizon 10000`` nothing is extrapolated but the seed count. The last line is one JSON
object with every number.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import tempfile
import time
from functools import partial

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: what Snakemake sets for a one-thread job

import numpy as np
from before_after import HERE, both_sides, export_src, run_json

from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.bandits.environments import InterventionArms
from causal_bandits.bandits.z2_klucb import Z2KLUCB
from causal_bandits.bandits.z2_settings import Z2Settings
from causal_bandits.bandits.z2_thompson import Z2ThompsonSampling
from causal_bandits.causal.estimators import pomis_plus_estimators
from causal_bandits.papers.nonmanip.graphs import GRAPHS
from causal_bandits.scm.xor_bernoulli import XorBernoulliSCM

PANELS = {
    "fig5a": ("frontdoor", ("Z",), {"U_X": 0.16, "U_Y": 0.32, "U_Z": 0.21, "U_XY": 0.48}, {"X": 1, "Y": 0, "Z": 0}),
    "fig5b": (
        "fig2a",
        ("A",),
        {"U_A": 0.16, "U_B": 0.18, "U_C": 0.17, "U_Y": 0.24, "U_AB": 0.21, "U_BY": 0.45},
        {"A": 0, "B": 1, "C": 0, "Y": 0},
    ),
    "fig5c": (
        "fig5d",
        ("A", "C"),
        {"U_A": 0.08, "U_B": 0.13, "U_C": 0.05, "U_D": 0.08, "U_E": 0.41, "U_Y": 0.13, "U_AB": 0.44, "U_AD": 0.31},
        {"A": 1, "B": 1, "C": 0, "D": 1, "E": 1, "Y": 0},
    ),
}
SOLVERS = {"TS": Z2ThompsonSampling, "KLUCB": Z2KLUCB}
#: Shares of POMIS+ CPU at paper scale by panel-like work with the studies (the speed issue's mix, from
#: ../shared/perf/pomisplus_speed_audit.md §7): Fig. 5d-like work (fig5c, its sweep and knob points, the robustness
#: graphs) 79 % and the every-round spot check 6 %, counted as fig5c (most of its cost), against the front-door and
#: Fig. 2a panels and SCMs 16 %, split as the two panels' measured 200-seed x 10,000-round jobs (41.6 : 148.0 CPU-s
#: for both solvers, audit §4). The papers' default run (the three panels' POMIS+ jobs, the same seeds each) is
#: weighted by the measured CPU of the ``--before`` side instead (:func:`default_run_mix`).
STUDIES_MIX = {"fig5c": 0.85, "fig5b": 0.125, "fig5a": 0.035}
PAPER_T, PAPER_SEEDS, GROWTH = 10_000, 1_000, 0.05


class RefreshesAt:
    """Recorder: the policy's count of seed refreshes when round ``t`` ends (the late refresh rate checks the
    every_round projection)."""

    def __init__(self, t: int):
        self.t, self.count = t, 0

    def start(self, seeds, horizon, env, policy) -> None:
        self.policy = policy

    def record(self, step) -> None:
        if step.t == self.t:
            self.count = self.policy.estimates.refreshes

    def finish(self):
        return None, {}, {}


def extra_refreshes(refresh: str, horizon: int, arms_active: float) -> float:
    """Refreshes per seed in rounds horizon+1..T, not run (module docstring)."""
    if horizon >= PAPER_T:
        return 0.0
    if refresh == "every_round":
        return float(PAPER_T - horizon)
    return arms_active * math.log(PAPER_T / horizon) / math.log(1 + GROWTH)


def measure(
    panel: str, algorithm: str, seeds: int, horizon: int, bootstrap: int, refresh: str, project_seeds: int = PAPER_SEEDS
) -> dict:
    graph, N, q, c = PANELS[panel]
    G = GRAPHS[graph]
    est = pomis_plus_estimators(G, "Y", N)
    scm = XorBernoulliSCM(G, q, c)
    env = InterventionArms(
        scm,
        "Y",
        tuple(est.layout.arm_values(a) for a in range(len(est.layout.arms))),
        np.zeros(len(est.layout.arms)),
        observe=True,
    )  # means unused: no regret recorder
    policy = SOLVERS[algorithm](est, G.nodes, Z2Settings(bootstrap=bootstrap, refresh=refresh))
    # a short run first, so that compiled kernels (numba's first call or cache load) are not timed
    simulate(policy, env, Streams("benchmark", panel, np.arange(1)), min(horizon, 300))
    half = RefreshesAt(horizon // 2)
    start = time.process_time()
    simulate(policy, env, Streams("benchmark", panel, np.arange(seeds)), horizon, [half])
    total = time.process_time() - start
    z2 = policy.estimates
    boot = z2.bootstrap_seconds
    draws = getattr(z2, "multinomial_seconds", math.nan) - reveal_overhead(z2)
    per_refresh = boot / max(z2.refreshes, 1)
    per_round = (total - boot) / (seeds * horizon)
    arms_active = float((z2.n_active > 0).sum(axis=1).mean())
    late_rate = (z2.refreshes - half.count) / (seeds * (horizon - horizon // 2))
    refreshes = z2.refreshes / seeds + extra_refreshes(refresh, horizon, arms_active)
    seconds_per_seed = PAPER_T * per_round + refreshes * per_refresh
    return {
        "panel": panel,
        "algorithm": algorithm,
        "seeds": seeds,
        "horizon": horizon,
        "bootstrap": bootstrap,
        "refresh": refresh,
        "seconds": total,
        "seed_rounds_per_s": seeds * horizon / total,
        "bootstrap_share": boot / total,
        "refreshes_per_seed": z2.refreshes / seeds,
        # the share spent drawing the resamples (nan on code without the counter)
        "multinomial_share": getattr(z2, "multinomial_seconds", math.nan) / total,
        # the compiled draws alone (the share less the per-call cost of the kernel's calls): the work no change that
        # keeps the draws can remove, so total / draw_seconds bounds any speed-up (nan on code without them)
        "draw_seconds": draws,
        "seconds_per_refresh_per_seed": per_refresh,
        "seconds_per_round_per_seed": per_round,
        "arms_with_active_estimators": arms_active,
        "late_refreshes_per_seed_round": late_rate,
        "projected_refreshes_per_seed_at_paper_T": refreshes,
        "projected_seeds": project_seeds,
        "projected_cpu_hours_paper_setting": seconds_per_seed * project_seeds / 3600,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,  # the whole process, Linux KiB
    }


def reveal_overhead(z2, calls: int = 2000) -> float:
    """CPU seconds the run's calls of the resample kernel cost beyond their draws (the dispatch, the wrapper): the
    cost of a call for one seed that reveals nothing, measured ``calls`` times, times the run's calls (one per refresh,
    ``_clock``; on code before 841411b one per seed refresh, which also unboxes the seed's Generator); nan on code
    without the kernel."""
    lazy = getattr(z2, "_resamples", None)
    if lazy is None:
        return math.nan
    counts, n, spent = np.zeros_like(z2.counts[:1]), np.zeros_like(z2.n[:1]), lazy.multinomial_seconds
    none = np.zeros((1, lazy.n_leaf_cells), dtype=bool)
    if hasattr(z2, "_streams"):  # one call per refresh, for all its seeds
        args, run_calls = (np.zeros(1, dtype=np.int64), z2._streams.copy(), counts, n, none), z2._clock
    else:  # one call per seed refresh, from the seed's Generator
        args, run_calls = (0, np.random.default_rng(0), counts[0], n[0], none[0]), z2.refreshes
    for _ in range(calls):
        lazy.reveal(*args)
    per_call = (lazy.multinomial_seconds - spent) / calls
    lazy.multinomial_seconds = spent
    return run_calls * per_call


def measure_in(src: str, panel: str, algorithm: str, args: argparse.Namespace) -> dict:
    """:func:`measure` in a fresh process that imports the package from ``src``."""
    cmd = [
        __file__,
        "--one",
        panel,
        algorithm,
        "--seeds",
        str(args.seeds),
        "--horizon",
        str(args.horizon),
        "--bootstrap",
        str(args.bootstrap),
        "--refresh",
        args.refresh,
        "--project-seeds",
        str(args.project_seeds),
    ]
    return run_json(src, cmd)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--horizon", type=int, default=1000)
    ap.add_argument("--bootstrap", type=int, default=500)
    ap.add_argument("--refresh", default="adaptive", choices=["adaptive", "every_round"])
    ap.add_argument("--panels", nargs="+", default=list(PANELS), choices=list(PANELS))
    ap.add_argument("--algorithms", nargs="+", default=list(SOLVERS), choices=list(SOLVERS))
    ap.add_argument(
        "--project-seeds",
        type=int,
        default=PAPER_SEEDS,
        help="seeds of the projected run (1,000: the paper's; 50: the every_round spot check)",
    )
    ap.add_argument("--before", metavar="REF", help="also measure the package at this git ref (e.g. main)")
    ap.add_argument("--one", nargs=2, metavar=("PANEL", "SOLVER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(
            json.dumps(measure(*args.one, args.seeds, args.horizon, args.bootstrap, args.refresh, args.project_seeds))
        )
        return
    with tempfile.TemporaryDirectory() as tmp:
        before_src = export_src(args.before, tmp) if args.before else None
        # numba compiles a kernel on its first call and caches it beside the source: a freshly exported tree would
        # compile, inside the first timed run, the kernels its short run does not reach (seen: 3x on that row)
        for src in filter(None, (HERE, before_src)):
            for algorithm in args.algorithms:
                run_json(src, [__file__, "--one", args.panels[0], algorithm, "--seeds", "20", "--horizon", "300"])
        rows = []
        print(
            f"{'panel':6} {'solver':6} {'seed-rounds/s':>13} {'boot share':>10} {'refr/seed':>9} "
            f"{'ms/refresh':>10} {'multinom':>8} {'peak MB':>7} {'proj CPU-h':>10}"
            + (f" {'before: s-r/s':>13} {'proj CPU-h':>10} {'speed-up':>8}" if before_src else "")
            + f" {'draws':>5} {'limit':>5} {'r-limit':>7}"
        )
        for i, (panel, algorithm) in enumerate((p, a) for p in args.panels for a in args.algorithms):
            r, before = both_sides(i, partial(measure_in, panel=panel, algorithm=algorithm, args=args), before_src)
            r["before"] = before
            if before:
                r["speedup"] = r["seed_rounds_per_s"] / before["seed_rounds_per_s"]
            # the largest speed-up (against the ref if given) that keeps the draws: all but the draws at no cost; and of
            # a change to the refreshes alone: the refreshes at the cost of their draws, the rest of a round as now
            r["speedup_limit"] = (before or r)["seconds"] / r["draw_seconds"]
            outside = r["seconds"] * (1.0 - r["bootstrap_share"])
            r["refresh_speedup_limit"] = (before or r)["seconds"] / (r["draw_seconds"] + outside)
            rows.append(r)
            print(
                f"{panel:6} {algorithm:6} {r['seed_rounds_per_s']:13.0f} {r['bootstrap_share']:10.2f} "
                f"{r['refreshes_per_seed']:9.1f} {1000 * r['seconds_per_refresh_per_seed']:10.1f} "
                f"{r['multinomial_share']:8.2f} {r['peak_rss_mb']:7.0f} {r['projected_cpu_hours_paper_setting']:10.2f}"
                + (
                    f" {before['seed_rounds_per_s']:13.0f} {before['projected_cpu_hours_paper_setting']:10.2f}"
                    f" {r['speedup']:8.1f}"
                    if before
                    else ""
                )
                + f" {r['draw_seconds'] / r['seconds']:5.2f} {r['speedup_limit']:5.1f}"
                + f" {r['refresh_speedup_limit']:7.2f}",
                flush=True,
            )
    total = sum(r["projected_cpu_hours_paper_setting"] for r in rows)
    before_total = sum(r["before"]["projected_cpu_hours_paper_setting"] for r in rows) if before_src else None
    print(
        f"projected POMIS+ CPU-hours at the paper's setting (T = {PAPER_T:,}, {args.project_seeds:,} seeds, "
        f"B = {args.bootstrap}, {args.refresh}), these panels and solvers: {total:.2f}"
        + (f" (at {args.before}: {before_total:.2f})" if before_src else "")
    )
    weighted = {}
    if before_src:
        mixes = {"papers' default run": default_run_mix(rows), "papers and studies": STUDIES_MIX}
        for name, mix in mixes.items():
            weighted[name] = factor = weighted_speedup(rows, mix) if mix else None
            if factor is not None:
                shares = ", ".join(f"{p} {w:.1%}" for p, w in mix.items())
                print(f"weighted speed-up, {name} ({shares} of POMIS+ CPU before): {factor:.2f}x")
    print(f"peak resident memory of a job: {max(r['peak_rss_mb'] for r in rows):.0f} MB at most")
    print(
        json.dumps(
            {
                "runs": rows,
                "before_ref": args.before,
                "projected_pomis_plus_cpu_hours": total,
                "before_projected_pomis_plus_cpu_hours": before_total,
                "weighted_speedup": weighted,
            }
        )
    )


def default_run_mix(rows: list[dict]) -> dict[str, float] | None:
    """Each panel's share of the ``--before`` side's projected POMIS+ CPU (both solvers), the papers' default run
    running every panel at the same seeds; None unless every panel was run."""
    before = {p: sum(r["before"]["projected_cpu_hours_paper_setting"] for r in rows if r["panel"] == p) for p in PANELS}
    if not all(any(r["panel"] == p for r in rows) for p in PANELS):
        return None
    return {p: c / sum(before.values()) for p, c in before.items()}


def weighted_speedup(rows: list[dict], mix: dict[str, float]) -> float | None:
    """The speed-up of the paper-scale POMIS+ CPU: each panel's (both solvers' projected CPU before over after)
    weighted by its share in ``mix`` (CPU shares combine harmonically); None unless every panel was run."""
    per_panel = {}
    for panel in mix:
        runs = [r for r in rows if r["panel"] == panel]
        if not runs:
            return None
        before = sum(r["before"]["projected_cpu_hours_paper_setting"] for r in runs)
        per_panel[panel] = before / sum(r["projected_cpu_hours_paper_setting"] for r in runs)
    return 1 / sum(w / per_panel[p] for p, w in mix.items())


if __name__ == "__main__":
    main()
