"""Speed of CN-UCB and UCB (unknown_graph paper), vectorised over seeds, against a per-seed loop, and
the CPU time of our full V1-V6 design extrapolated (docs/papers/unknown_graph.md#unknown_graph-r-validation) from
measured per-round costs.

Part 1 (speed-up). On tree(h) in regime B (every seed its own instance: X_R is a random leaf), K = 2:

* *vectorised*: ``--seeds`` seeds through the one engine, ``bandits.engine.simulate`` (discovery
  batches as blocks, then round by round), recording a 100-point regret grid;
* *loop*: the same algorithms written per seed as a researcher would: one numpy Generator per seed,
  every round one pull (CN-UCB: ancestral sampling of the observed variables and X_R under the
  batch's intervention, tests at the end of each batch through the same discovery generators;
  then UCB1 with a numpy index over the seed's arms). Run on ``--loop-seeds`` seeds.

Throughput is seed-rounds per CPU second (``time.process_time``, so that other processes on a shared
machine do not count); the speed-up is the ratio (target >= 30).

Part 2 (CPU estimate). Per-round cost of the vectorised loop for 20 seeds and m arms (UCB1 on all
nK + 1 arms, CN-UCB's stage 3 on K or (k + 1)K arms), and the time of CN-UCB's discovery blocks,
measured on short runs (CPU time); the full design's time is the sum over its jobs
(docs/papers/unknown_graph.md#unknown_graph-r-validation, docs/papers/unknown_graph.md#unknown_graph-quick) of discovery
time + (T - discovery rounds) x per-round cost. The load average is printed beside the numbers: CPU time still grows
somewhat on a crowded machine (caches, frequency).

    python benchmarks/unknown_graph_speed.py                 # ~2 minutes
    python benchmarks/unknown_graph_speed.py --quick         # seconds
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from causal_bandits.bandits.cn_ucb import CNUCB
from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.bandits.ucb1 import UCBPolicy
from causal_bandits.cn_ucb_discovery.intervention_batches import Estimate
from causal_bandits.cn_ucb_discovery.stages import cn_ucb_discovery, run_discovery
from causal_bandits.papers.unknown_graph import families as F
from causal_bandits.papers.unknown_graph.environment import SCMEnvironment
from causal_bandits.papers.unknown_graph.inputs import discovery_inputs
from causal_bandits.rng import generator

PAPER, EXPERIMENT = "unknown_graph", "benchmark"
TARGET_SPEEDUP, TARGET_CPU_HOURS = 30, 2.0


def instances(make, seeds):
    return [make(generator(PAPER, EXPERIMENT, int(s), "instance")) for s in seeds]


def vectorised(policy, insts, seeds, horizon):
    env = SCMEnvironment(insts)
    grid = np.unique(np.linspace(1, horizon, 100).round().astype(np.int64))
    start = time.process_time()
    run = simulate(policy, env, Streams(PAPER, EXPERIMENT, np.asarray(seeds)), horizon, [RegretTrace(grid)])
    return time.process_time() - start, run.trace["cum_regret"][:, -1]


# ---- the per-seed loop ----------------------------------------------------------------------------
def ucb1_loop(rng, inst, arms, rounds, regret):
    """UCB1 (docs/papers/unknown_graph.md#unknown_graph-baselines) for one seed over ``arms``, pulling X_R from its
    exact law each round."""
    laws, f, gap = inst.reward_laws, inst.f, inst.mu_star - inst.arm_means
    sums, counts = np.zeros(len(arms)), np.zeros(len(arms))
    for t in range(1, rounds + 1):
        i = t - 1 if t <= len(arms) else int(np.argmax(sums / counts + np.sqrt(2 * np.log(t) / counts)))
        a = arms[i]
        x = int(np.searchsorted(np.cumsum(laws[a]), rng.random(), side="right"))
        sums[i] += f[min(x, inst.domain - 1)] + rng.normal()
        counts[i] += 1
        regret += gap[a]
    return regret


def ancestral_round(rng, inst, node, value, wanted):
    """One joint sample of ``wanted`` (and their ancestors) under do(node = value), per round."""
    vals = {}
    for v in inst.topological_order:
        if v not in wanted:
            continue
        if v == node:
            vals[v] = value
            continue
        row = 0
        for p in inst.parents[v]:
            row = row * inst.domain + vals[p]
        vals[v] = int(np.searchsorted(np.cumsum(inst.cpts[v][row]), rng.random(), side="right"))
    return vals


class HorizonReached(Exception):
    """The horizon ended inside a discovery batch."""


def cn_ucb_loop(rng, inst, inputs, horizon):
    """CN-UCB for one seed, one round at a time; returns its pseudo-regret at the horizon."""
    gap = inst.mu_star - inst.arm_means
    state = {"t": 0, "regret": 0.0}
    closure = {v: set(inst.dag.predecessors(v)) for v in range(inst.n)}

    def ancestors(nodes, cut):
        out, stack = set(nodes), list(nodes)
        while stack:
            v = stack.pop()
            if v == cut:
                continue
            for p in closure[v] - out:
                out.add(p)
                stack.append(p)
        return out

    def answer(request):
        wanted = ancestors({*request.observe, inst.reward_node}, request.node)
        arm = inst.arm(request.node, request.value)
        total, counts = 0.0, np.zeros((len(request.observe), inst.domain))
        for _ in range(inputs.B):
            if state["t"] >= horizon:
                raise HorizonReached
            vals = ancestral_round(rng, inst, request.node, request.value, wanted)
            total += inst.f[vals[inst.reward_node]] + rng.normal()
            for j, y in enumerate(request.observe):
                counts[j, vals[y]] += 1
            state["t"] += 1
            state["regret"] += gap[arm]
        return Estimate(total / inputs.B, counts / inputs.B)

    try:
        result = run_discovery(cn_ucb_discovery(inputs, "tree"), answer)
    except HorizonReached:
        return state["regret"]
    arms = inst.arms_of(result.target) if result.target else np.arange(inst.n_arms)
    return ucb1_loop(rng, inst, arms, horizon - state["t"], state["regret"])


def speedup(args):
    seeds = np.arange(args.seeds)
    make = lambda rng: F.tree(args.h, rng=rng, regime="B")  # noqa: E731
    insts = instances(make, seeds)
    out = {}
    for name in ("CN-UCB", "UCB"):
        policy = CNUCB([discovery_inputs(i) for i in insts]) if name == "CN-UCB" else UCBPolicy()
        secs, final = vectorised(policy, insts, seeds, args.horizon)
        loop_insts = insts[: args.loop_seeds]
        start = time.process_time()
        loop_final = []
        for s, inst in zip(seeds, loop_insts):
            rng = generator(PAPER, EXPERIMENT, int(s), "loop")
            if name == "CN-UCB":
                loop_final.append(cn_ucb_loop(rng, inst, discovery_inputs(inst), args.horizon))
            else:
                loop_final.append(ucb1_loop(rng, inst, np.arange(inst.n_arms), args.horizon, 0.0))
        loop_secs = time.process_time() - start
        vec_rate = args.seeds * args.horizon / secs
        loop_rate = len(loop_insts) * args.horizon / loop_secs
        out[name] = {
            "vectorised_seed_rounds_per_s": round(vec_rate),
            "loop_seed_rounds_per_s": round(loop_rate),
            "speedup": round(vec_rate / loop_rate, 1),
            "vectorised_s": round(secs, 2),
            "loop_s": round(loop_secs, 2),
            "mean_final_regret": round(float(final.mean()), 1),
            "loop_mean_final_regret": round(float(np.mean(loop_final)), 1),
        }
        print(
            f"{name:7s} vectorised {vec_rate:12,.0f} seed-rounds/s ({args.seeds} seeds, {secs:.1f} s)   "
            f"loop {loop_rate:10,.0f} seed-rounds/s ({len(loop_insts)} seeds, {loop_secs:.1f} s)   "
            f"speed-up {vec_rate / loop_rate:6.1f}x   mean R_T {final.mean():.0f} (loop {np.mean(loop_final):.0f})"
        )
    return out


# ---- CPU estimate ---------------------------------------------------------------------------------
class PhaseClock:
    """Recorder timing a run's two phases (CPU time): discovery, from the start until no seed is
    searching, then ``rounds`` single rounds after the first round past discovery; ``finished``
    ends the run (the engine's ``until``)."""

    def __init__(self, rounds):
        self.rounds, self.finished = rounds, False

    def start(self, seeds, horizon, env, policy):
        self.policy, self.ended, self.timed, self.began = policy, 0, None, time.process_time()
        self.discovery = None if self.policy_searching() else (0.0, 0)

    def policy_searching(self):
        return getattr(self.policy, "searching", np.zeros(1, dtype=bool)).any()

    def record(self, step):
        if self.discovery is None:
            if self.policy_searching():
                return
            self.discovery = (time.process_time() - self.began, int(self.policy.discovery_rounds.max()))
        if step.t == self.discovery[1] + 1:
            self.timed = time.process_time()
        elif step.t == self.discovery[1] + 1 + self.rounds:
            self.ended, self.finished = time.process_time(), True

    def finish(self):
        return None, {}, {}


def phase_times(policy, insts, seeds, rounds):
    """(discovery seconds, discovery rounds, seconds per round afterwards) of one job on the engine,
    measured in one pass: CN-UCB's blocks until every seed has left discovery, then ``rounds`` single
    rounds, each with the regret recorder's bookkeeping (a policy without discovery has 0, 0)."""
    clock, horizon = PhaseClock(rounds), 10**9
    simulate(
        policy,
        SCMEnvironment(insts),
        Streams(PAPER, EXPERIMENT, np.asarray(seeds)),
        horizon,
        [RegretTrace(np.array([horizon])), clock],
        until=lambda: clock.finished,
    )
    discovery, discovery_rounds = clock.discovery
    return discovery, discovery_rounds, (clock.ended - clock.timed) / rounds


def job_costs(make, seeds, rounds, algorithm="tree"):
    """(CN-UCB discovery s, discovery rounds, per-round s of CN-UCB / UCB / Oracle) for one cell."""
    insts = instances(make, seeds)
    inputs = [discovery_inputs(i) for i in insts]
    disc_s, disc_r, cn = phase_times(CNUCB(inputs, algorithm=algorithm), insts, seeds, rounds)
    ucb = phase_times(UCBPolicy(), insts, seeds, rounds)[2]
    oracle = phase_times(UCBPolicy([i.arms_of([i.reward_node]) for i in insts]), insts, seeds, rounds)[2]
    return disc_s, disc_r, cn, ucb, oracle


def estimate(args):
    seeds = np.arange(20)
    rounds = args.rounds
    T = 10**6
    rows, total = [], 0.0

    def add(label, n_jobs_per_alg, T, costs, algs=("CN-UCB", "UCB", "Oracle")):
        nonlocal total
        disc_s, disc_r, cn, ucb, oracle = costs
        per = {"CN-UCB": disc_s + max(T - disc_r, 0) * cn, "UCB": T * ucb, "Oracle": T * oracle}
        secs = n_jobs_per_alg * sum(per[a] for a in algs)
        total += secs
        rows.append(
            {
                "cell": label,
                "jobs": n_jobs_per_alg * len(algs),
                "discovery_rounds": disc_r,
                "discovery_s": round(disc_s, 2),
                "us_per_round": {
                    "CN-UCB": round(cn * 1e6, 1),
                    "UCB": round(ucb * 1e6, 1),
                    "Oracle": round(oracle * 1e6, 1),
                },
                "cpu_s": round(secs, 1),
            }
        )
        print(
            f"  {label:28s} disc {disc_r:8,d} rounds {disc_s:6.2f} s | us/round CN {cn * 1e6:6.1f} "
            f"UCB {ucb * 1e6:7.1f} Oracle {oracle * 1e6:6.1f} | {secs / 60:7.1f} CPU-min"
        )

    heights = (3, 5) if args.quick else tuple(range(3, 10))
    for regime in ("A", "B"):
        for h in heights:
            add(
                f"V1/V2 tree({h}) {regime}",
                1,
                T,
                job_costs(lambda rng, h=h, r=regime: F.tree(h, rng=rng, regime=r), seeds, rounds),
            )
    for C in (1, 2) if args.quick else (1, 2, 4, 8):
        add(f"V3 forest({C}, 4) B", 1, T, job_costs(lambda rng, C=C: F.forest(C, 4, rng=rng), seeds, rounds, "forest"))
    for n in (32,) if args.quick else (32, 64, 128):
        for k in (1, 2, 3):
            add(
                f"V4 path_power({n}, {k}) B",
                1,
                T,
                job_costs(lambda rng, n=n, k=k: F.path_power(n, k, rng=rng), seeds, rounds, "general"),
                algs=("CN-UCB", "CN-UCB", "UCB", "Oracle"),
            )  # corrected and literal CN-UCB
    # V5: 2 families x (nK + 1) instances, 10 seeds each, T = 1e5; B > T so CN-UCB plays do() only
    n, K, T5 = 10, 2, 10**5
    Delta = F.lower_bound_gap(n, K, T5)
    lb = [F.lower_bound(4, n, K, 1, 1, Delta)] * 10
    lb_seeds = np.arange(10)
    ucb5 = phase_times(UCBPolicy(), lb, lb_seeds, rounds)[2]
    cn5 = 0.0  # B > T: CN-UCB's whole horizon is one do() block (measured as negligible)
    v5 = 2 * (n * K + 1) * T5 * (ucb5 * 2 + cn5)  # UCB, Oracle (upper bound: UCB's cost), CN-UCB
    total += v5
    print(
        f"  {'V5 lower bounds':28s} 84 jobs x T = 1e5: us/round UCB {ucb5 * 1e6:.1f}, CN-UCB (blocks) {cn5 * 1e6:.1f}"
        f" | {v5 / 60:7.1f} CPU-min"
    )
    # V6: discovery only, 200 seeds: regimes A/B x h in {3,5,7,9} x delta in {.01,.1} x c_B in {1,.3,.1,.03}
    v6 = 0.0
    for regime in ("A", "B"):
        for h in (3,) if args.quick else (3, 5, 7, 9):
            insts = instances(lambda rng, h=h, r=regime: F.tree(h, rng=rng, regime=r), np.arange(200))
            inputs = [discovery_inputs(i) for i in insts]
            v6 += 8 * phase_times(CNUCB(inputs), insts, np.arange(200), 1)[0]
    total += v6
    print(f"  {'V6 discovery (200 seeds)':28s} {v6 / 60:7.1f} CPU-min")
    return rows, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--loop-seeds", type=int, default=3)
    parser.add_argument("--horizon", type=int, default=30_000)
    parser.add_argument("--h", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3000, help="rounds timed per per-round cost")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--no-estimate", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.horizon, args.loop_seeds, args.rounds = 20, 8000, 1, 500
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"Speed: tree({args.h}) regime B, K = 2, T = {args.horizon:,}")
    speed = speedup(args)
    report = {"speed": speed, "targets": {"speedup": TARGET_SPEEDUP, "cpu_hours": TARGET_CPU_HOURS}}
    if not args.no_estimate:
        print(
            "CPU estimate of our full design (docs/papers/unknown_graph.md#unknown_graph-r-validation) (20 seeds per "
            "job, T = 1e6; V5 T = 1e5; V6 discovery only):"
        )
        rows, total = estimate(args)
        print(
            f"  total {total / 3600:.2f} CPU-hours (target <= {TARGET_CPU_HOURS})"
            + ("   [--quick: partial grid]" if args.quick else "")
        )
        report.update(cells=rows, cpu_hours=round(total / 3600, 2))
    report["load_average"] = round(os.getloadavg()[0], 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
