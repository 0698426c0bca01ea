"""The online stage of Huang & Wu: Figure 4 (contextual linear bandit), the α sensitivity runs and
the appendix algorithms, one seed chunk at a time, all seeds of a chunk vectorised.

Every run reads the exact environment (P(c) and μ(a, c), from the exact stage) and the offline
estimates (conditional variant: BCE upper bounds for LinUCB-PCB, Biased / CP estimates and cell
counts for the warm starts). Contextual runs share the environment stream of experiment
``"online"`` (common random numbers across algorithms and α); the non-contextual UCB runs use
``"noncontextual"``. This module imports no pgmpy (run jobs only simulate).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from causal_bandits import store
from causal_bandits.bandits.contextual import ContextualBernoulli, simulate_contextual
from causal_bandits.bandits.engine import BernoulliArms, Trace, linear_grid, simulate
from causal_bandits.bandits.linucb import LinUCB, feature_map
from causal_bandits.bandits.oam_pcb import OAMPCB
from causal_bandits.bandits.ucb_pcb import UCBPCB
from causal_bandits.scm.cpt import config_index

log = logging.getLogger(__name__)

PAPER = "bounds"
#: Figure 4's algorithms, legend spelled as in the paper, in legend order.
FIGURE4 = {"linucb_pcb": "LinUCB-PCB", "linucb": "LinUCB", "linucb_biased": "LinUCB_Biased", "linucb_cp": "LinUCB_CP"}
#: The appendix algorithms (not in any experiment of the paper) and their non-causal counterparts.
APPENDIX = {"ucb_pcb": "UCB-PCB", "ucb": "UCB", "oam_pcb": "OAM-PCB", "oam": "OAM"}
LABELS = {**FIGURE4, **APPENDIX}
#: Library files each algorithm's numbers depend on (declared as rule inputs).
MODULES = {
    **{name: ["bandits/linucb.py", "bandits/contextual.py", "bandits/ties.py"] for name in FIGURE4},
    "ucb": ["bandits/ucb_pcb.py", "bandits/engine.py", "bandits/ties.py"],
    "ucb_pcb": ["bandits/ucb_pcb.py", "bandits/engine.py", "bandits/ties.py"],
    "oam": ["bandits/oam_pcb.py", "bandits/contextual.py", "bandits/ties.py"],
    "oam_pcb": ["bandits/oam_pcb.py", "bandits/contextual.py", "bandits/ties.py"],
}


def setting_name(alpha: float) -> str:
    """Path component of the runs at exploration parameter ``alpha`` ("alpha-2", "alpha-0.5")."""
    return f"alpha-{alpha:g}"


def grid(frame: pd.DataFrame, column: str) -> np.ndarray:
    """A per-cell column of the estimates as an array (n_contexts, n_arms)."""
    ordered = frame.sort_values(["context", "arm"])
    return ordered[column].to_numpy(float).reshape(ordered["context"].nunique(), ordered["arm"].nunique())


def context_index(values: np.ndarray) -> np.ndarray:
    """Context ids of rows of context-variable values (first variable most significant)."""
    return config_index(values)


def warm_counts(frame: pd.DataFrame, weight: str | int) -> np.ndarray:
    """n0(c, a) of the warm start (SPEC §2.6): the selected-row counts, or a constant per non-empty cell."""
    counts = grid(frame, "n_sel")
    return counts if weight == "cell_count" else np.where(counts > 0, float(weight), 0.0)


def contextual_policy(name: str, estimates: pd.DataFrame, online: Mapping[str, Any], alpha: float,
                      appendix: Mapping[str, Any], horizon: int):
    """The policy object of a contextual algorithm."""
    n_ctx, n_arms = grid(estimates, "bce_ub").shape
    n_c, n_x = int(np.log2(n_ctx)), int(np.log2(n_arms))
    if name.startswith("oam"):
        bounds = {"lower": grid(estimates, "bce_lb"), "upper": grid(estimates, "bce_ub")} if name == "oam_pcb" else {}
        return OAMPCB(feature_map(appendix["oam_features"], n_c, n_x), horizon, lam=online["lambda"],
                      c=appendix["oam_c"], **bounds)
    kw = {"alpha": alpha, "lam": online["lambda"]}
    features = feature_map(online["features"], n_c, n_x)
    if name == "linucb_pcb":
        kw["upper"] = grid(estimates, "bce_ub")
    elif name in ("linucb_biased", "linucb_cp"):
        kw["warm_rewards"] = grid(estimates, name.removeprefix("linucb_"))
        kw["warm_counts"] = warm_counts(estimates, online["warm_start_weight"])
    return LinUCB(features, **kw)


def run(
    name: str,
    *,
    exact: Mapping[str, Any],
    estimates: pd.DataFrame,
    noncontextual: Mapping[str, Any],
    online: Mapping[str, Any],
    appendix: Mapping[str, Any],
    alpha: float,
    seeds: Sequence[int],
    horizon: int,
    record_points: int,
    contexts: np.ndarray | None = None,
) -> Trace:
    """Simulate algorithm ``name`` for ``seeds``; ``contexts`` fixes the context sequence (A8)."""
    record = linear_grid(horizon, record_points)
    if name in ("ucb", "ucb_pcb"):
        bounds = (noncontextual["lower"], noncontextual["upper"]) if name == "ucb_pcb" else ()
        env = BernoulliArms(np.asarray(noncontextual["means"], dtype=float))
        return simulate(UCBPCB(horizon, *bounds), env, paper=PAPER, experiment="noncontextual", seeds=seeds,
                        horizon=horizon, grid=record)
    env = ContextualBernoulli(np.asarray(exact["p_context"]), np.asarray(exact["mu"]), contexts)
    policy = contextual_policy(name, estimates, online, alpha, appendix, horizon)
    return simulate_contextual(policy, env, paper=PAPER, experiment="online", seeds=seeds, horizon=horizon,
                               grid=record)


def run_chunk(name: str, *, trace_path: str, summary_path: str, metadata: Mapping[str, str], **kw) -> None:
    """:func:`run` and write the trace and per-seed summary Parquet files atomically."""
    start = time.perf_counter()
    trace = run(name, **kw)
    elapsed = time.perf_counter() - start
    seeds = kw["seeds"]
    log.info("%s seeds %d..%d: %d rounds in %.1f s (%.0f seed-rounds/s), mean final regret %.2f", name,
             seeds[0], seeds[-1], kw["horizon"], elapsed, len(seeds) * kw["horizon"] / elapsed,
             trace.cum_regret[:, -1].mean())
    meta = {**metadata, "paper": PAPER, "algorithm": name, "horizon": str(kw["horizon"]),
            "alpha": str(kw["alpha"]), "seeds": f"{seeds[0]}-{seeds[-1]}"}
    store.write_table(trace_path, store.trace_table(trace), meta)
    store.write_table(summary_path, store.summary_table(trace), meta)


def final_table(agg: pd.DataFrame, algorithms: Sequence[str]) -> pd.DataFrame:
    """Mean cumulative regret at the horizon per algorithm, with its standard error and rank."""
    rows = []
    for name in algorithms:
        sel = agg[agg["algorithm"] == name]
        last = sel.loc[sel["round"].idxmax()]
        rows.append({"algorithm": LABELS[name], "T": int(last["round"]), "n_runs": int(last["n_seeds"]),
                     "mean_R_T": last["mean_cum_regret"], "se_R_T": last["sd_cum_regret"] / np.sqrt(last["n_seeds"]),
                     "sd_R_T": last["sd_cum_regret"]})
    frame = pd.DataFrame(rows)
    frame["rank"] = frame["mean_R_T"].rank(method="min").astype(int)
    return frame
