"""Figure 1 of Lu, Meisami & Tewari (2021) from an actual run: CN-UCB's stages 0-2 on the reconstructed
tree (docs/papers/unknown_graph.md#unknown_graph-r-figure1), sampled with the paper's B, traced step by step.

:func:`figure1_trace` runs discovery on the Figure-1 instance (one seed, blocks of B rounds, the
environment stream of experiment "fig1") and returns the trace as JSON-ready data: the constants
(B, Delta, eps, delta), every step (stage, central node, nodes intervened on, which moved the
reward, edges oriented, candidates left) and the rounds per stage and in total
(docs/papers/unknown_graph.md#unknown_graph-documents ``fig1_trace.json``). :func:`panels` turns the trace into the ten
panels the figure draws.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from causal_bandits import store
from causal_bandits.bandits.cn_ucb import CNUCB
from causal_bandits.bandits.engine import Streams, simulate
from causal_bandits.papers.unknown_graph import families as F
from causal_bandits.papers.unknown_graph.environment import SCMEnvironment
from causal_bandits.papers.unknown_graph.inputs import discovery_bound, discovery_inputs

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

PAPER = "unknown_graph"


def figure1_trace(variant: str = "n9", delta: float = 0.1, c_B: float = 1.0) -> dict[str, Any]:
    """Run CN-UCB's discovery on the Figure-1 tree and return its trace."""
    inst = F.figure1(variant)
    inputs = discovery_inputs(inst, delta, c_B)
    policy = CNUCB([inputs])
    simulate(
        policy,
        SCMEnvironment([inst]),
        Streams(PAPER, "fig1", np.array([0])),
        10**9,
        until=lambda: not policy.searching.any(),
    )
    result = policy.results[0]
    assert result is not None  # simulate ran until the seed stopped searching, which sets its result
    name = inst.node_names.__getitem__
    steps, counters = [], {1: 0, 2: 0}
    for step in result.steps:
        if step.stage not in ("s1", "s2"):
            continue
        stage = 1 if step.stage == "s1" else 2
        fired: dict[str, bool] = {}
        for node, _, _, hit in step.interventions:
            fired[name(node)] = fired.get(name(node), False) or bool(hit)
        steps.append(
            {
                "stage": stage,
                "t": counters[stage],
                "central": name(step.central),
                "intervened": list(dict.fromkeys(name(v) for v, *_ in step.interventions)),
                "reward_trigger": fired,
                "oriented_edges": [[name(step.central), name(y)] for y in step.down],
                "cand_before": [name(v) for v in step.cand_before],
                "cand_after": [name(v) for v in step.cand_after],
            }
        )
        counters[stage] += 1
    per_stage = {k: inputs.B * v for k, v in result.batches_per_stage().items()}
    means = inst.arm_means
    regret = sum(inst.mu_star - means[inst.arm(r.node, r.value)] for r in result.requests) * inputs.B
    return {
        "instance": inst.instance_id,
        "variant": variant,
        "nodes": list(inst.node_names),
        "edges": [[name(u), name(v)] for u, v in inst.edges],
        "reward_node": name(inst.reward_node),
        "B": inputs.B,
        "Delta": inputs.Delta,
        "eps": inputs.eps,
        "delta": delta,
        "c_B": c_B,
        "steps": steps,
        "output": None if result.target is None else name(result.target[0]),
        "subtree_stage1": [name(v) for v in result.stage1_subtree or ()],
        "rounds": inputs.B * len(result.requests),
        "rounds_per_stage": per_stage,
        "bound_T1_plus_B": discovery_bound(inst, "tree", inputs.B),
        "discovery_regret": regret,
        "nonterminating": result.nonterminating,
    }


def panels(trace: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The figure's panels, each: caption, directed (bool), edges drawn as arrows, eliminated nodes,
    highlighted (intervened) nodes, nodes shown (the subtree panels show only the subtree)."""
    nodes = trace["nodes"]
    return [
        _panel("True causal tree", nodes, arrows=trace["edges"]),
        _panel("Input tree skeleton", nodes, lines=trace["edges"]),
        *_stage1_panels(trace),
        *_stage2_panels(trace),
    ]


def _panel(
    caption: str,
    shown: Sequence[str],
    *,
    arrows: Sequence[Any] = (),
    lines: Sequence[Any] = (),
    eliminated: Iterable[str] = (),
    hot: Sequence[str] = (),
) -> dict[str, Any]:
    return {
        "caption": caption,
        "arrows": list(arrows),
        "lines": list(lines),
        "eliminated": sorted(eliminated),
        "hot": list(hot),
        "shown": list(shown),
    }


def _stage1_panels(trace: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Stage 1 (Alg. 3, "Find Sub-tree", on the whole skeleton): each central node's intervention and what
    it oriented and eliminated; after the last step every node outside the directed subtree is eliminated."""
    nodes, edges = trace["nodes"], trace["edges"]
    out = []
    oriented: list[Any] = []
    eliminated: set[str] = set()
    s1 = [s for s in trace["steps"] if s["stage"] == 1]
    for step in s1:
        unoriented = [e for e in edges if e not in oriented]
        caption = f"Stage 1 (t={step['t']}): intervention on central node {step['central']}"
        out.append(
            _panel(caption, nodes, arrows=oriented, lines=unoriented, eliminated=eliminated, hot=[step["central"]])
        )
        oriented = oriented + [e for e in step["oriented_edges"] if e not in oriented]
        eliminated |= set(step["cand_before"]) - set(step["cand_after"])
        if step is s1[-1]:
            eliminated |= set(nodes) - set(trace["subtree_stage1"])
        unoriented = [e for e in edges if e not in oriented]
        caption = f"Stage 1 (t={step['t']}) intervention result"
        out.append(_panel(caption, nodes, arrows=oriented, lines=unoriented, eliminated=eliminated))
    return out


def _stage2_panels(trace: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Stage 2 (Alg. 4, "Find Key Node", on stage 1's directed subtree): each central node's intervention,
    then its children's, until only the output remains."""
    nodes = trace["nodes"]
    sub = set(trace["subtree_stage1"])
    sub_edges = [e for e in trace["edges"] if set(e) <= sub]
    shown = sorted(sub, key=nodes.index)
    out = [_panel("Stage 1 output: directed subtree", shown, arrows=sub_edges)]
    gone: set[str] = set()
    for step in (s for s in trace["steps"] if s["stage"] == 2):
        caption = f"Stage 2 (t={step['t']}): intervention on central node {step['central']}"
        out.append(_panel(caption, shown, arrows=sub_edges, eliminated=gone, hot=[step["central"]]))
        children = [v for v in step["intervened"] if v != step["central"]]
        if children:
            caption = f"Stage 2 (t={step['t']}): interventions on the children of {step['central']}"
            out.append(_panel(caption, shown, arrows=sub_edges, eliminated=gone, hot=children))
        gone |= set(step["cand_before"]) - set(step["cand_after"])
    caption = f"Stage 2 output: only {trace['output']} remains"
    out.append(_panel(caption, shown, arrows=sub_edges, eliminated=sub - {trace["output"]}))
    return out


def fig1_trace_step(job: Job) -> None:
    """Rule unknown_graph_fig1_trace: CN-UCB's discovery on the Figure-1 tree (:func:`figure1_trace`), as JSON."""
    p = job.params
    trace = figure1_trace(p.variant, p.delta, p.c_B)
    store.write_json(job.output[0], trace)
    log.info("output %s after %d rounds (B = %d)", trace["output"], trace["rounds"], trace["B"])
