"""The run stage of the unknown_graph validation suite (V1-V5, designed for this replication).

A V1-V4 job simulates one seed chunk of one cell (``experiment``, e.g. ``V2-treeB-h4``) with one
algorithm: every seed gets its own instance, drawn from the keyed stream (paper, cell, seed,
"instance"), so all algorithms of a cell meet the same instances and environment draws. Every job
runs on the one engine (CN-UCB's discovery batches served as blocks, see
:mod:`causal_bandits.bandits.engine`) through :func:`causal_bandits.runs.execute`; the per-seed
summary adds X_R and, for CN-UCB, what discovery found beside the truth (:class:`DiscoverySummary`).
A V5 job runs one lower-bound family (Thm 4 or 5) with one algorithm over all its nK + 1 instances.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from causal_bandits import algorithms, runs, store
from causal_bandits.bandits.engine import Streams, linear_grid, simulate
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.cn_ucb_discovery.intervention_batches import Reading
from causal_bandits.papers.unknown_graph import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.unknown_graph import families as F
from causal_bandits.papers.unknown_graph.cells import ALGORITHMS_OF, cells
from causal_bandits.papers.unknown_graph.environment import SCMEnvironment
from causal_bandits.papers.unknown_graph.inputs import discovery_bound, discovery_inputs
from causal_bandits.papers.unknown_graph.instance import Instance
from causal_bandits.rng import generator

PAPER = "unknown_graph"
#: Algorithm labels from the registry (causal_bandits/papers/unknown_graph/algorithms.py). cn_ucb_literal
#: is CN-UCB under the printed rules of Alg. 7/8; oracle is UCB1 on the true X_R's arms.
LABELS = algorithms.labels(PAPER)
CN_ALGORITHM = {"tree": "tree", "forest": "forest", "path_power": "general"}


def instance(cell: str, spec: Mapping[str, Any], seed: int) -> Instance:
    """The seed's instance of a cell (docs/papers/unknown_graph.md#unknown_graph-families), from its own keyed
    stream."""
    rng = generator(PAPER, cell, int(seed), "instance")
    name = f"{cell}-s{int(seed):02d}"
    if spec["family"] == "tree":
        return F.tree(spec["h"], rng=rng, regime=spec["regime"], instance_id=name)
    if spec["family"] == "forest":
        return F.forest(spec["C"], spec["h"], rng=rng, regime=spec["regime"], instance_id=name)
    return F.path_power(spec["n"], spec["k"], rng=rng, regime=spec["regime"], instance_id=name)


def reading(section: Mapping[str, Any], algorithm: str) -> Reading:
    chosen = dict(section["reading"])
    if algorithm == "cn_ucb_literal":
        chosen["clique_rules"] = "literal"
    return Reading(**chosen)


def record_grid(horizon: int, points: int) -> np.ndarray:
    """A linear grid plus a geometric one (early rounds and discovery show on log axes)."""
    geometric = np.geomspace(1, horizon, points).round().astype(np.int64)
    return np.unique(np.concatenate([linear_grid(horizon, points), geometric]))


def policy_for(
    algorithm: str,
    section: Mapping[str, Any],
    insts: Sequence[Instance],
    cn_algorithm: str,
    Delta: float | None = None,
    eps: float | None = None,
):
    cls = runs.policy_class(algorithms.registry(PAPER)[algorithm].path)
    if algorithm.startswith("cn_ucb"):
        inputs = [discovery_inputs(i, section["delta"], section["c_B"], Delta, eps) for i in insts]
        return cls(
            inputs,
            algorithm=cn_algorithm,
            reading=reading(section, algorithm),
            c=section["ucb_c"],
            fallback_arms=section["ucb_arms"],
        )
    if algorithm == "oracle":
        return cls([i.arms_of([i.reward_node]) for i in insts], c=section["ucb_c"], name="Oracle")
    n_arms = insts[0].n_arms - (0 if section["ucb_arms"] == "all" else 1)
    return cls([np.arange(n_arms)] * len(insts), c=section["ucb_c"])


def discovery_summary(policy, insts: Sequence[Instance], section: Mapping[str, Any], cn_algorithm: str) -> dict:
    """Per-seed columns: what CN-UCB's stages 0-2 found, beside the truth and the paper's bound."""
    found, size, correct, nonterm, rounds, B, bound = [], [], [], [], [], [], []
    for result, inst, inp in zip(policy.results, insts, policy.inputs):
        target: tuple[int, ...] = () if result is None or result.target is None else result.target
        found.append(target[0] if len(target) == 1 else -1)
        size.append(len(target))
        correct.append(inst.reward_node in target)
        nonterm.append(result is not None and result.nonterminating)
        rounds.append(-1 if result is None else inp.B * len(result.requests))
        B.append(inp.B)
        bound.append(discovery_bound(inst, cn_algorithm, inp.B))
    return {
        "unknown_graph_found": np.array(found, dtype=np.int64),
        "unknown_graph_found_size": np.array(size, dtype=np.int64),
        "unknown_graph_correct": np.array(correct),
        "unknown_graph_nonterminating": np.array(nonterm),
        "unknown_graph_discovery_rounds": np.array(rounds, dtype=np.int64),
        "unknown_graph_B": np.array(B, dtype=np.int64),
        "unknown_graph_T1_bound": np.array(bound),
    }


class DiscoverySummary:
    """Recorder of per-seed columns known at the end of a run: each seed's X_R and, when ``cn_algorithm``
    is given (CN-UCB runs), what its discovery found (:func:`discovery_summary`)."""

    def __init__(self, section: Mapping[str, Any], insts: Sequence[Instance], cn_algorithm: str | None):
        self.section, self.insts, self.cn_algorithm = section, insts, cn_algorithm

    def start(self, seeds, horizon, env, policy) -> None:
        self.policy, self.horizon = policy, horizon

    def record(self, step) -> None:
        pass

    def record_window(self, window) -> None:
        pass

    def window_end(self, t: int) -> int:
        return self.horizon

    def finish(self):
        summary = {"unknown_graph_reward_node": np.array([i.reward_node for i in self.insts], dtype=np.int64)}
        if self.cn_algorithm is not None:
            summary.update(discovery_summary(self.policy, self.insts, self.section, self.cn_algorithm))
        return None, {}, summary


def chunks(config: Mapping[str, Any]) -> runs.Chunks:
    """Seed chunks of every V1-V4 run job, of the section's own ``seeds_per_job`` or the top-level one (speed
    only: a seed's streams do not depend on its chunk)."""
    section = config["unknown_graph"]
    return runs.chunk_seeds(section["n_seeds"], section.get("seeds_per_job", config["seeds_per_job"]))


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every V1-V4 run job: each cell with its experiment's algorithms, each chunk."""
    for cell, spec in cells(config["unknown_graph"]).items():
        for name in ALGORITHMS_OF[spec["experiment"]]:
            for k in range(len(chunks(config))):
                yield {"experiment": cell, "strategy": "default", "algorithm": name, "chunk": str(k)}


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A V1-V4 run job (rule ``unknown_graph_run``): one seed chunk of a cell with an algorithm. Its results
    depend on the section less V5/V6's keys and its job size (speed only), the cell's spec and the record
    points."""
    section = config["unknown_graph"]
    run_section = {k: v for k, v in section.items() if k not in ("seeds_per_job", "lower_bounds", "discovery")}
    spec = cells(section)[wildcards["experiment"]]
    seeds = chunks(config)[int(wildcards["chunk"])]
    return runs.RunJob(
        paper=PAPER,
        experiment=wildcards["experiment"],
        strategy="default",
        algorithm=wildcards["algorithm"],
        seeds=seeds,
        science={"section": run_section, "spec": spec, "record_points": config["record_points"]},
        horizon=int(section["horizon"]),
        runner=PAPER,
        memory_mb=runs.memory_request(runs.measured_peak(PAPER, wildcards)),
    )


def simulation(job: runs.RunJob, inputs: Mapping[str, str]) -> runs.Simulation:
    """Every seed's own instance of the cell (:func:`instance`), the algorithm on them, the regret and what
    discovery found (:class:`DiscoverySummary`) recorded."""
    section, spec = job.science["section"], job.science["spec"]
    insts = [instance(job.experiment, spec, s) for s in job.seeds]
    cn_algorithm = CN_ALGORITHM[spec["family"]]
    found = DiscoverySummary(section, insts, cn_algorithm if job.algorithm.startswith("cn_ucb") else None)
    return runs.Simulation(
        policy_for(job.algorithm, section, insts, cn_algorithm),
        SCMEnvironment(insts),
        [RegretTrace(record_grid(job.horizon, job.science["record_points"])), found],
    )


def lower_bound_runs(
    section: Mapping[str, Any], *, theorem: int, algorithm: str, path: str, metadata: Mapping[str, str]
) -> None:
    """V5: every instance (j, k) of the Thm 4 / Thm 5 family (j = 0: instance 0), ``n_seeds`` seeds each;
    writes one row per (instance, seed) with the final pseudo-regret."""
    lb = section["lower_bounds"]
    n, K, T = lb["n"], lb["K"], lb["horizon"]
    Delta = F.lower_bound_gap(n, K, T)
    seeds = np.arange(lb["n_seeds"])
    rows: dict[str, list] = {"j": [], "k": [], "seed": [], "final_regret": []}
    for j, k in [(0, 0)] + [(j, k) for j in range(1, n + 1) for k in range(1, K + 1)]:
        inst = F.lower_bound(theorem, n, K, j, max(k, 1), Delta)
        insts = [inst] * seeds.size
        policy = policy_for(algorithm, section, insts, "tree", Delta=Delta, eps=lb["epsilon"])
        run = simulate(
            policy,
            SCMEnvironment(insts),
            Streams(PAPER, f"V5-thm{theorem}-j{j}-k{k}", seeds),
            T,
            [RegretTrace(np.array([T]))],
        )
        rows["j"] += [j] * seeds.size
        rows["k"] += [k] * seeds.size
        rows["seed"] += seeds.tolist()
        rows["final_regret"] += run.summary["final_regret"].tolist()
    table = pa.table({"theorem": [theorem] * len(rows["j"]), "algorithm": [algorithm] * len(rows["j"]), **rows})
    store.write_table(path, table, {**metadata, "Delta": repr(Delta), "bound": repr(np.sqrt(n * K * T) / 8)})
