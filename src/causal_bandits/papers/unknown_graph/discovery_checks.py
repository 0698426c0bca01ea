"""V6 (designed for this replication, not in the paper): how reliably CN-UCB's stages 0-2 find X_R.

:func:`sampled_discovery` runs discovery only (no stage 3) on tree(h) with B samples per batch for
a grid of (delta, c_B), all seeds vectorised: success rate, discovery rounds against Lemma 1's
bound T1 + B, non-termination. :func:`exact_readings` answers every batch with the exact laws
(noise-free) and counts, per reading of the pseudo-code, how often the answer is right, wrong, or
never comes (docs/papers/unknown_graph.md#unknown_graph-ref-exact): random trees (weight update, A4), random polytrees
(component order, A7) and path_power (clique rules, A8).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.bandits.cn_ucb import CNUCB
from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.cn_ucb_discovery.intervention_batches import DiscoveryResult, Estimate, Reading, Request
from causal_bandits.cn_ucb_discovery.stages import DiscoveryInputs, cn_ucb_discovery, run_discovery
from causal_bandits.papers.unknown_graph import families as F
from causal_bandits.papers.unknown_graph.environment import SCMEnvironment
from causal_bandits.papers.unknown_graph.inputs import discovery_bound, discovery_inputs, exact_answer
from causal_bandits.papers.unknown_graph.instance import Instance
from causal_bandits.rng import generator

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

PAPER = "unknown_graph"


def sampled_discovery(
    regime: str, h: int, delta: float, c_B: float, n_seeds: int, chunk: int = 50, first: int = 0
) -> dict[str, Any]:
    """One V6 row: discovery on tree(h) in ``regime`` for seeds first..first+n_seeds-1 (own instance each; ``first``
    above 0 for seeds planned beyond a run's, :mod:`causal_bandits.seed_plans`), ``chunk`` seeds vectorised at a
    time (memory; results do not depend on it)."""
    cell = f"V6-tree{regime}-h{h}"
    correct, nonterm, rounds, bound, B, n = [], [], [], [], 0, 0
    for start in range(0, n_seeds, chunk):
        seeds = np.arange(first + start, first + min(start + chunk, n_seeds))
        insts = _one_scm([F.tree(h, rng=generator(PAPER, cell, int(s), "instance"), regime=regime) for s in seeds])
        inputs = [discovery_inputs(i, delta, c_B) for i in insts]
        policy = CNUCB(inputs)
        simulate(
            policy,
            SCMEnvironment(insts),
            Streams(PAPER, f"{cell}-d{delta:g}-c{c_B:g}", seeds),
            10**12,
            until=cast(Callable[[], bool], lambda policy=policy: not policy.searching.any()),
        )
        results = cast(list[DiscoveryResult], policy.results)  # every seed stopped searching: each has one
        correct += [r.target == (i.reward_node,) for r, i in zip(results, insts)]
        nonterm += [r.nonterminating for r in results]
        rounds += [inp.B * len(r.requests) for r, inp in zip(results, inputs)]
        bound += [discovery_bound(i, "tree", inp.B) for i, inp in zip(insts, inputs)]
        B, n = int(inputs[0].B), insts[0].n
    rounds_a, bound_a = np.array(rounds, dtype=float), np.array(bound)
    return {
        "regime": regime,
        "h": h,
        "n": n,
        "delta": delta,
        "c_B": c_B,
        "n_seeds": n_seeds,
        "B": B,
        "success_rate": float(np.mean(correct)),
        "mean_rounds": float(rounds_a.mean()),
        "max_rounds": float(rounds_a.max()),
        "T1_plus_B": float(bound_a.mean()),
        "ratio_to_bound": float((rounds_a / bound_a).mean()),
        "nonterminating_rate": float(np.mean(nonterm)),
    }


def _one_scm(instances: list[Instance]) -> list[Instance]:
    """``instances``, which differ in X_R alone (tree(h) draws nothing else), as reward nodes of the first one's SCM
    (:meth:`Instance.with_reward_node`): its marginals and exact queries computed once for all of them."""
    return [instances[0].with_reward_node(inst.reward_node) for inst in instances]


def _count(rows: list, check: str, algorithm: str, instances: list, readings: Mapping[str, Reading]) -> None:
    """One row per reading (named by its key): how often ``algorithm`` under it is right, wrong or never answers on
    ``instances``."""
    for name, outcomes in zip(readings, _outcomes(instances, algorithm, list(readings.values()))):
        rows.append(
            {
                "check": check,
                "reading": name,
                "cases": len(outcomes),
                "correct": outcomes.count("correct"),
                "wrong": outcomes.count("wrong"),
                "nonterminating": outcomes.count("nonterminating"),
            }
        )


def _outcomes(instances: list, algorithm: str, readings: list[Reading]) -> list[list[str]]:
    """Each reading's outcome on every instance, each instance's inputs computed once for all readings."""
    cases = [(inst, discovery_inputs(inst), exact_answer(inst)) for inst in instances]
    return [
        [_outcome(inst, inputs, answer, algorithm, reading) for inst, inputs, answer in cases] for reading in readings
    ]


def _outcome(
    inst: Instance, inputs: DiscoveryInputs, answer: Callable[[Request], Estimate], algorithm: str, reading: Reading
) -> str:
    result = run_discovery(cn_ucb_discovery(inputs, algorithm, reading), answer)
    if result.nonterminating:
        return "nonterminating"
    return "correct" if result.target is not None and inst.reward_node in result.target else "wrong"


def _path_power_cases(sizes: list[int]) -> list[Instance]:
    """path_power(n, k) for every n of ``sizes``, k in 1..3, MCS start and X_R; one SCM per (n, k, start), whose
    exact queries its n reward nodes share (:meth:`Instance.with_reward_node`)."""
    scms = [F.path_power(n, k, mcs_start=s, reward_node=0) for n in sizes for k in (1, 2, 3) for s in range(n)]
    return [scm.with_reward_node(x) for scm in scms for x in range(scm.n)]


def exact_readings(section: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Noise-free outcomes of each reading: random trees, random polytrees, path_power (all starts, all X_R)."""
    cfg = section["discovery"]
    rows: list = []
    trees = []
    for s in range(cfg["random_trees"]):
        rng = generator(PAPER, "V6-random_tree", s, "instance")
        trees.append(F.random_tree(int(rng.integers(2, cfg["random_tree_max_n"] + 1)), rng=rng))
    updates = {update: Reading(weight_update=update) for update in ("intersect", "literal")}
    _count(rows, "random trees: weight update (A4)", "tree", trees, updates)
    polytrees = []
    for s in range(cfg["random_trees"]):
        rng = generator(PAPER, "V6-polytree", s, "instance")
        polytrees.append(F.polytree(int(rng.integers(3, cfg["random_tree_max_n"] + 1)), rng=rng))
    orders = {order: Reading(component_order=order) for order in ("reverse_topological", "index")}
    _count(rows, "random polytrees: component order (A7)", "forest", polytrees, orders)
    clique_rules = {rules: Reading(clique_rules=rules) for rules in ("corrected", "literal")}
    _count(rows, "path_power: clique rules (A8)", "general", _path_power_cases(cfg["path_power_n"]), clique_rules)
    return rows


def discovery_step(job: Job) -> None:
    """Rule unknown_graph_discovery: the V6 sampled discovery reliability (:func:`sampled_discovery`) of one regime,
    height and (delta, c_B)."""
    d, regime, h = job.params.discovery, job.wildcards.regime, int(job.wildcards.height)
    delta, c_B = job.params.setting
    frame = pd.DataFrame([sampled_discovery(regime, h, delta, c_B, d["n_seeds"])])
    store.write_table(
        job.output[0], pa.Table.from_pandas(frame, preserve_index=False), store.provenance({"discovery": d})
    )
    log.info("regime %s, height %d, delta %g, c_B %g", regime, h, delta, c_B)


def discovery_table_step(job: Job) -> None:
    """Rule unknown_graph_discovery_table: one regime's V6 rows (:func:`discovery_step`), every height and
    (delta, c_B) setting, in one table."""
    frame = pd.concat([store.read_table(path).to_pandas() for path in job.input.parts], ignore_index=True)
    meta = store.provenance({"discovery": job.params.discovery})
    store.write_table(job.output[0], pa.Table.from_pandas(frame, preserve_index=False), meta)
    log.info("%d rows from %d parts", len(frame), len(job.input.parts))


def readings_step(job: Job) -> None:
    """Rule unknown_graph_readings: exact-test outcomes of the printed and corrected readings
    (:func:`exact_readings`)."""
    frame = pd.DataFrame(exact_readings(job.params.section))
    meta = store.provenance({"discovery": job.params.section["discovery"]})
    store.write_table(job.output[0], pa.Table.from_pandas(frame, preserve_index=False), meta)
