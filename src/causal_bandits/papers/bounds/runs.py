"""The online stage of Huang & Wu: Figure 4 (contextual linear bandit), the α sensitivity runs and
the appendix algorithms, one seed chunk at a time, all seeds of a chunk vectorised.

Every run reads the exact environment (P(c) and μ(a, c), from the exact stage) and the offline
estimates (conditional variant: BCE upper bounds for LinUCB-PCB, Biased / CP estimates and cell
counts for the warm starts). Contextual runs share the environment stream of experiment
``"online"`` (common random numbers across algorithms and α); the non-contextual UCB runs use
``"noncontextual"``. This module imports no pgmpy (run jobs only simulate).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from causal_bandits import algorithms, runs, store
from causal_bandits.bandits.engine import Run, Streams, linear_grid, simulate
from causal_bandits.bandits.environments import BernoulliArms, ContextualBernoulli
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers.bounds import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it
from causal_bandits.papers.bounds.features import feature_map
from causal_bandits.scm.cpt import config_index

PAPER = "bounds"
#: Figure 4's algorithms in legend order, and the appendix algorithms (not in any experiment of the
#: paper) with their non-causal counterparts: keys of the registry (causal_bandits/papers/bounds/algorithms.py).
FIGURE4 = ("linucb_pcb", "linucb", "linucb_biased", "linucb_cp")
APPENDIX = ("ucb_pcb", "ucb", "oam_pcb", "oam")
#: Every algorithm's label, as the paper spells it.
LABELS = algorithms.labels(PAPER)


def setting_name(alpha: float) -> str:
    """The setting of the runs at exploration parameter ``alpha`` ("alpha-2", "alpha-0.5")."""
    return f"alpha-{alpha:g}"


def coordinates(setting: str) -> tuple[str, str]:
    """(experiment, strategy) of a setting's runs in the run store: ("online", "alpha-2") for an alpha
    of Figure 4 and its sensitivity study, ("appendix", "default") for the appendix algorithms."""
    return ("appendix", "default") if setting == "appendix" else ("online", setting)


def grid(estimates: Mapping[str, Any], column: str) -> np.ndarray:
    """A per-cell column of the estimates (a table: pyarrow, pandas or a dict of columns) as an array
    (n_contexts, n_arms)."""
    context, arm = (np.asarray(estimates[c], dtype=np.int64) for c in ("context", "arm"))
    order = np.lexsort((arm, context))
    values = np.asarray(estimates[column], dtype=float)[order]
    return values.reshape(np.unique(context).size, np.unique(arm).size)


def context_index(values: np.ndarray) -> np.ndarray:
    """Context ids of rows of context-variable values (first variable most significant)."""
    return config_index(values)


def warm_counts(frame: Mapping[str, Any], weight: str | int) -> np.ndarray:
    """n0(c, a) of the warm start (docs/papers/bounds.md#bounds-a-warm-start): the selected-row counts, or a constant
    per non-empty cell."""
    counts = grid(frame, "n_sel")
    return counts if weight == "cell_count" else np.where(counts > 0, float(weight), 0.0)


def contextual_policy(
    name: str,
    estimates: Mapping[str, Any],
    online: Mapping[str, Any],
    alpha: float,
    appendix: Mapping[str, Any],
    horizon: int,
):
    """The policy object of a contextual algorithm."""
    n_ctx, n_arms = grid(estimates, "bce_ub").shape
    n_c, n_x = int(np.log2(n_ctx)), int(np.log2(n_arms))
    if name.startswith("oam"):
        bounds = {"lower": grid(estimates, "bce_lb"), "upper": grid(estimates, "bce_ub")} if name == "oam_pcb" else {}
        return runs.policy_class(algorithms.registry(PAPER)[name].path)(
            feature_map(appendix["oam_features"], n_c, n_x),
            horizon,
            lam=online["lambda"],
            c=appendix["oam_c"],
            **bounds,
        )
    kw = {"alpha": alpha, "lam": online["lambda"]}
    features = feature_map(online["features"], n_c, n_x)
    if name == "linucb_pcb":
        kw["upper"] = grid(estimates, "bce_ub")
    elif name in ("linucb_biased", "linucb_cp"):
        kw["warm_rewards"] = grid(estimates, name.removeprefix("linucb_"))
        kw["warm_counts"] = warm_counts(estimates, online["warm_start_weight"])
    return runs.policy_class(algorithms.registry(PAPER)[name].path)(features, **kw)


def policy_and_environment(
    name: str,
    *,
    exact: Mapping[str, Any],
    estimates: Mapping[str, Any],
    noncontextual: Mapping[str, Any],
    online: Mapping[str, Any],
    appendix: Mapping[str, Any],
    alpha: float,
    horizon: int,
    contexts: np.ndarray | None = None,
):
    """(policy, environment, streams key) of algorithm ``name``; ``contexts`` fixes the context sequence (A8).

    Contextual algorithms share the streams of ``"online"``, the UCB ones those of ``"noncontextual"``.
    """
    if name in ("ucb", "ucb_pcb"):
        bounds = (noncontextual["lower"], noncontextual["upper"]) if name == "ucb_pcb" else ()
        return (
            runs.policy_class(algorithms.registry(PAPER)[name].path)(horizon, *bounds),
            BernoulliArms(np.asarray(noncontextual["means"], dtype=float)),
            "noncontextual",
        )
    env = ContextualBernoulli(np.asarray(exact["p_context"]), np.asarray(exact["mu"]), contexts)
    return contextual_policy(name, estimates, online, alpha, appendix, horizon), env, "online"


def run(name: str, *, seeds: Sequence[int], horizon: int, record_points: int, **kw) -> Run:
    """Simulate algorithm ``name`` for ``seeds`` (keyword arguments of :func:`policy_and_environment`)."""
    policy, env, experiment = policy_and_environment(name, horizon=horizon, **kw)
    return simulate(
        policy,
        env,
        Streams(PAPER, experiment, np.asarray(seeds)),
        horizon,
        [RegretTrace(linear_grid(horizon, record_points))],
    )


def chunks(config: Mapping[str, Any]) -> runs.Chunks:
    """Seed chunks of every run job (speed only: a seed's streams do not depend on its chunk)."""
    return runs.chunk_seeds(config["bounds"]["n_seeds"], config["seeds_per_job"])


def settings(section: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """The run settings and the algorithms of each: Figure 4's at the main α and at each sensitivity α, the
    appendix's."""
    online = section["online"]
    return {
        **{setting_name(a): FIGURE4 for a in [online["alpha"], *online["sensitivity_alphas"]]},
        "appendix": APPENDIX,
    }


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job: Figure 4's algorithms at every α setting, the appendix algorithms."""
    for setting, names in settings(config["bounds"]).items():
        experiment, strategy = coordinates(setting)
        for name in names:
            for k in range(len(chunks(config))):
                yield {"experiment": experiment, "strategy": strategy, "algorithm": name, "chunk": str(k)}


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``bounds_run``): one seed chunk of an algorithm in a setting, at the setting's α
    (the main α for the appendix algorithms)."""
    section = config["bounds"]
    online = section["online"]
    alphas = {setting_name(a): a for a in [online["alpha"], *online["sensitivity_alphas"]]}
    science = {
        "horizon": section["horizon"],
        "online": online,
        "appendix": section["appendix"],
        "alpha": alphas.get(wildcards["strategy"], online["alpha"]),
        "record_points": config["record_points"],
    }
    seeds = chunks(config)[int(wildcards["chunk"])]
    return runs.RunJob(
        paper=PAPER,
        experiment=wildcards["experiment"],
        strategy=wildcards["strategy"],
        algorithm=wildcards["algorithm"],
        seeds=seeds,
        science=science,
        horizon=int(science["horizon"]),
        runner=PAPER,
        memory_mb=runs.memory_request(runs.measured_peak(PAPER, wildcards)),
    )


def simulation(job: runs.RunJob, inputs: Mapping[str, str]) -> runs.Simulation:
    """A job's policy and environment (:func:`policy_and_environment`) from the ``exact`` environment, the offline
    ``estimates`` and ``summary``, and with ``full`` the offline rows' contexts in order (A8,
    docs/papers/bounds.md#bounds-a-context-source)."""
    science = job.science
    exact = store.read_json(inputs["exact"])
    summary = store.read_json(inputs["summary"])
    contexts = None
    if "full" in inputs:
        full = store.read_table(inputs["full"], columns=exact["context"])
        contexts = context_index(np.column_stack([full[c].to_numpy() for c in exact["context"]])[: job.horizon])
    policy, env, streams_key = policy_and_environment(
        job.algorithm,
        exact=exact,
        estimates=store.read_table(inputs["estimates"]),
        noncontextual={"means": exact["interventional_means"], **summary["noncontextual_bounds"]},
        online=science["online"],
        appendix=science["appendix"],
        alpha=science["alpha"],
        horizon=job.horizon,
        contexts=contexts,
    )
    return runs.Simulation(
        policy,
        env,
        [RegretTrace(linear_grid(job.horizon, science["record_points"]))],
        streams_key=streams_key,
        metadata={"alpha": str(science["alpha"])},
    )
