"""Run and summarise the bandit experiments of Huang, Zhang & Wu (AAAI-22).

Algorithms by name (the ``{algorithm}`` of run paths, all under the strategy ``default``):
``ucb``, ``cucb``, ``ducb``, ``fucb_tau<tau>`` (F-UCB at threshold tau) and ``fairlinucb`` (the
reconstruction). A run job simulates one algorithm for a chunk of seeds at once on the engine; users
arrive from each seed's keyed ``context`` stream (:class:`~causal_bandits.bandits.causal_environment.
CausalEnvironment`), shared by all algorithms of an experiment. It records the regret trace and,
through the fairness auditor, per seed and per tau of the config, the decisions certified unfair
(UCB_Delta above tau) and truly unfair (exact discrepancy above tau).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import numpy as np

from causal_bandits import runs, store
from causal_bandits.algorithms import labels, pattern, registry
from causal_bandits.bandits.audit import COLUMNS, FairnessAuditor, tau_column
from causal_bandits.bandits.causal_environment import CausalEnvironment
from causal_bandits.bandits.cells import CellModel
from causal_bandits.bandits.engine import Environment, Policy, linear_grid
from causal_bandits.bandits.recorders import RegretTrace
from causal_bandits.papers.fairness import algorithms as _registry  # noqa: F401  read through causal_bandits.algorithms; imported so its jobs depend on it

PAPER = "fairness"
STRATEGY = "default"  # no arm sets or settings: every run path is <experiment>/default/<algorithm>
EXPERIMENTS = ("email", "adult_video")
#: Every algorithm's label, from the registry (causal_bandits/papers/fairness/algorithms.py).
LABELS = labels(PAPER)
#: Run-path names of the registered algorithms: F-UCB's runs, one per tau, share the key ``fucb``.
ALGORITHM_PATTERN = "|".join(r"fucb_tau[0-9.]+" if k == "fucb" else pattern([k]) for k in registry(PAPER))


def algorithm_key(name: str) -> str:
    """The registry key of an algorithm name (``fucb_tau0.1`` -> ``fucb``)."""
    return "fucb" if algorithm_tau(name) is not None else name


def fucb_name(tau: float) -> str:
    return f"fucb_tau{tau:g}"


def algorithm_tau(name: str) -> float | None:
    """The threshold of an F-UCB algorithm name, None for the others."""
    m = re.fullmatch(r"fucb_tau([0-9.]+)", name)
    return float(m.group(1)) if m else None


def algorithm_label(name: str) -> str:
    tau = algorithm_tau(name)
    return f"F-UCB (τ={tau:g})" if tau is not None else LABELS[name]


def algorithms(experiment: str, config: Mapping[str, Any]) -> list[str]:
    """The algorithms the paper runs on an experiment (D-UCB on Adult-Video as a reference)."""
    fucb = [fucb_name(t) for t in config["taus"]]
    if experiment == "email":
        return ["ucb", "cucb", "ducb", *fucb]
    return ["ducb", *fucb, "fairlinucb"]


def _alpha_r(config: Mapping[str, Any], tau: float) -> float:
    """alpha_r = 1 (Eq. 6 literally) or Theorem 3's 2 / (tau - Delta_pi0) with Delta_pi0 = 0."""
    value = config["fucb"]["alpha_r"]
    return 2.0 / tau if value == "theory" else float(value)


def build_policy(name: str, instance: Mapping[str, Any], config: Mapping[str, Any]) -> Policy:
    """The policy called ``name`` for an experiment instance document."""
    experiment = instance["experiment"]
    n_ctx = len(instance["contexts"])
    tau = algorithm_tau(name)
    key = algorithm_key(name)
    if key not in registry(PAPER):
        raise ValueError(f"unknown algorithm {name!r} for {experiment}")
    policy = runs.policy_class(registry(PAPER)[key].path)
    if key == "ucb":
        return policy(n_ctx, per_context=config["ucb"]["per_context"])
    if key in ("cucb", "ducb"):
        return policy(CellModel.from_document(instance["models"][key]))
    if key == "fucb":
        assert tau is not None  # F-UCB runs are named fucb_tau<τ> (ALGORITHM_PATTERN)
        f = config["fucb"]
        return policy(
            CellModel.from_document(instance["models"]["ducb"]),
            tau,
            alpha_r=_alpha_r(config, tau),
            alpha_c=f["alpha_c"],
            fallback=f["fallback"],
            safe_arm=f["safe_arm"].get(experiment),
        )
    f = config["fairlinucb"]
    return policy(
        np.asarray(instance["linucb_features"]),
        np.asarray(instance["linucb_group"]),
        alpha=f["alpha"],
        lam=f["lambda"],
        gamma=f["gamma"],
    )


#: What a run's results depend on besides the instance: these keys of the section, and the record points.
RUN_KEYS = ("horizon", "taus", "ucb", "fucb", "fairlinucb")


def chunks(config: Mapping[str, Any]) -> runs.Chunks:
    """Seed chunks of every run job (speed only: a seed's streams do not depend on its chunk)."""
    return runs.chunk_seeds(config["fairness"]["n_seeds"], config["seeds_per_job"])


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job: each experiment's algorithms, each chunk."""
    for experiment in EXPERIMENTS:
        for name in algorithms(experiment, config["fairness"]):
            for k in range(len(chunks(config))):
                yield {"experiment": experiment, "strategy": STRATEGY, "algorithm": name, "chunk": str(k)}


def science(config: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """What a run's results depend on besides the instance: the section's :data:`RUN_KEYS` and the record points,
    with a study's ``changes`` (its horizon, its F-UCB radius scales)."""
    section = config["fairness"]
    return {**{k: section[k] for k in RUN_KEYS}, "record_points": config["record_points"], **changes}


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``fairness_run``): one seed chunk of an algorithm on an experiment."""
    return run_job(wildcards, chunks(config), science(config))


def run_job(wildcards: Mapping[str, str], seed_chunks: Sequence[range], science: Mapping[str, Any]) -> runs.RunJob:
    """A run job of this runner, the paper's or a study's (:mod:`causal_bandits.studies.fucb_radius`): chunk
    ``{chunk}`` of ``seed_chunks`` of an algorithm on an experiment, at the horizon of ``science``."""
    seeds = seed_chunks[int(wildcards["chunk"])]
    return runs.RunJob(
        paper=PAPER,
        experiment=wildcards["experiment"],
        strategy=STRATEGY,
        algorithm=wildcards["algorithm"],
        seeds=seeds,
        science=science,
        horizon=int(science["horizon"]),
        runner=PAPER,
        memory_mb=runs.memory_request(runs.measured_peak(PAPER, wildcards)),
    )


def simulation(job: runs.RunJob, inputs: Mapping[str, str]) -> runs.Simulation:
    """The job's algorithm on the experiment's ``instance`` document (:func:`build`)."""
    return build(store.read_json(inputs["instance"]), job.algorithm, job.science)


def build(instance: Mapping[str, Any], algorithm: str, config: Mapping[str, Any]) -> runs.Simulation:
    """``algorithm`` on an instance document with the run settings ``config`` (:data:`RUN_KEYS`): recorders of
    the regret trace and, through the auditor, the per-seed unfair counts at every τ."""
    horizon = int(config["horizon"])
    auditor = FairnessAuditor(
        CellModel.from_document(instance["models"]["ducb"]), config["taus"], config["fucb"]["alpha_c"]
    )
    tau = algorithm_tau(algorithm)
    return runs.Simulation(
        build_policy(algorithm, instance, config),
        cast(Environment, CausalEnvironment.from_document(instance)),  # its contexts() never returns None
        [RegretTrace(linear_grid(horizon, config["record_points"])), auditor],
        declared=COLUMNS,
        metadata={"tau": "" if tau is None else f"{tau:g}", "data_provenance": instance["data_provenance"]},
    )


#: §4.1's remark on Fig. 2(b), F-UCB below D-UCB "for the first ~2000 rounds": the round at which the aggregate keeps
#: each seed's cumulative regret (the last recorded round at or before it), so that the claim pairs seeds.
EARLY_ROUND = 2000


def regret_at(traces: Any, round_: int) -> dict[int, float]:
    """Each seed's cumulative regret at the last recorded round at or before ``round_`` (``traces``: one setting's
    traces, :func:`causal_bandits.aggregate.read_traces`)."""
    early = traces[traces["round"] <= round_]
    return {int(seed): float(v) for seed, v in early.groupby("seed")["cum_regret"].last().items()}


def seed_summary(
    summaries: Mapping[str, Any], taus: Sequence[float], horizon: int, early: Mapping[str, Mapping[int, float]]
):
    """Per (algorithm, seed, tau): final regret, regret at :data:`EARLY_ROUND` (``early``: by algorithm, by seed,
    :func:`regret_at`), the auditor's unfair counts, F-UCB's uncertified rounds.

    ``summaries`` maps each algorithm to its per-seed run summaries (all chunks, a DataFrame).
    """
    import pandas as pd  # aggregation only: run jobs do not load pandas

    rows = []
    for algorithm in sorted(summaries):
        frame = summaries[algorithm].sort_values("seed", kind="stable")
        for rec in frame.to_dict("records"):
            for tau in taus:
                rows.append(
                    {
                        "algorithm": algorithm,
                        "seed": int(rec["seed"]),
                        "tau": float(tau),
                        "T": int(horizon),
                        "final_regret": float(rec["final_regret"]),
                        "early_regret": early[algorithm][int(rec["seed"])],
                        "unfair_cert": int(rec[tau_column("cert", tau)]),
                        "unfair_true": int(rec[tau_column("true", tau)]),
                        "uncertified": float(rec["uncertified"]) if "uncertified" in rec else np.nan,
                    }
                )
    return pd.DataFrame(rows)
