"""Run and summarise the bandit experiments of Huang, Zhang & Wu (AAAI-22).

Algorithms by name (the ``{algorithm}`` of run paths): ``ucb``, ``cucb``, ``ducb``,
``fucb_tau<tau>`` (F-UCB at threshold tau) and ``fairlinucb`` (the reconstruction). A run job
simulates one algorithm for a chunk of seeds at once and stores every round; users arrive from the
keyed ``context`` stream (Email: i.i.d. contexts from P(X); Adult-Video: each online user once, in
an order permuted per seed), shared by all algorithms of an experiment and seed.

Summaries are computed at aggregation time: the cumulative-regret curves (mean and sd over seeds)
and, per (algorithm, seed, tau), the final regret and the two unfair-decision counts of the
fairness auditor (rounds whose UCB_Delta exceeds tau; rounds whose exact discrepancy does).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.bandits.audit import FairnessAuditor
from causal_bandits.bandits.causal_engine import ContextualPolicy, RunRecord, simulate
from causal_bandits.bandits.causal_environment import CausalEnvironment
from causal_bandits.bandits.cells import CellModel
from causal_bandits.bandits.cucb import CUCB
from causal_bandits.bandits.ducb import DUCB
from causal_bandits.bandits.engine import linear_grid
from causal_bandits.bandits.fair_linucb import FairLinUCB
from causal_bandits.bandits.fucb import FUCB
from causal_bandits.bandits.ucb import UCB
from causal_bandits.rng import generator

log = logging.getLogger(__name__)

PAPER = "fairness"
EXPERIMENTS = ("email", "adult_video")
ALGORITHM_PATTERN = r"ucb|cucb|ducb|fairlinucb|fucb_tau[0-9.]+"
LABELS = {"ucb": "UCB", "cucb": "C-UCB", "ducb": "D-UCB", "fucb": "F-UCB", "fairlinucb": "Fair-LinUCB"}

RUN_SCHEMA = pa.schema([
    pa.field("seed", pa.int32(), nullable=False),
    pa.field("round", pa.int32(), nullable=False),
    pa.field("user_id", pa.int64(), nullable=False),
    pa.field("context", pa.int16(), nullable=False),
    pa.field("arm", pa.int16(), nullable=False),
    pa.field("w_id", pa.int16(), nullable=False),
    pa.field("reward", pa.float64(), nullable=False),
    pa.field("regret", pa.float64(), nullable=False),
    pa.field("cum_regret", pa.float64(), nullable=False),
    pa.field("optimal", pa.bool_(), nullable=False),
    pa.field("delta_true", pa.float64(), nullable=False),
    pa.field("delta_hat", pa.float64(), nullable=False),
    pa.field("ucb_delta", pa.float64(), nullable=False),
    pa.field("min_ucb_delta", pa.float64(), nullable=False),
    pa.field("certified", pa.bool_(), nullable=True),
    pa.field("n_fair_arms", pa.int16(), nullable=True),
])


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


def build_policy(name: str, instance: Mapping[str, Any], config: Mapping[str, Any]) -> ContextualPolicy:
    """The policy called ``name`` for an experiment instance document."""
    experiment = instance["experiment"]
    n_ctx, n_arms = len(instance["contexts"]), len(instance["arms"])
    tau = algorithm_tau(name)
    if name == "ucb":
        return UCB(n_arms, n_ctx, per_context=config["ucb"]["per_context"])
    if name == "cucb":
        return CUCB(CellModel.from_document(instance["models"]["cucb"]))
    if name == "ducb":
        return DUCB(CellModel.from_document(instance["models"]["ducb"]))
    if tau is not None:
        f = config["fucb"]
        return FUCB(CellModel.from_document(instance["models"]["ducb"]), tau, alpha_r=_alpha_r(config, tau),
                    alpha_c=f["alpha_c"], fallback=f["fallback"], safe_arm=f["safe_arm"].get(experiment))
    if name == "fairlinucb":
        f = config["fairlinucb"]
        return FairLinUCB(np.asarray(instance["linucb_features"]), np.asarray(instance["linucb_group"]),
                          alpha=f["alpha"], lam=f["lam"], gamma=f["gamma"])
    raise ValueError(f"unknown algorithm {name!r} for {experiment}")


def user_sequence(instance: Mapping[str, Any], seeds: Sequence[int], horizon: int) -> tuple[np.ndarray, np.ndarray]:
    """(context ids, user ids), each (n_seeds, horizon), from each seed's ``context`` stream."""
    experiment = instance["experiment"]
    contexts, users = [], []
    for seed in seeds:
        rng = generator(PAPER, experiment, seed, "context")
        if "users" in instance:  # Adult-Video: every online user once, permuted per seed
            order = rng.permutation(len(instance["users"]["row_id"]))[:horizon]
            contexts.append(np.asarray(instance["users"]["context"])[order])
            users.append(np.asarray(instance["users"]["row_id"])[order])
        else:  # Email: i.i.d. contexts from P(X); the user is its context
            ctx = rng.choice(len(instance["contexts"]), horizon, p=np.asarray(instance["context_probs"]))
            contexts.append(ctx)
            users.append(ctx)
    return np.stack(contexts), np.stack(users)


def run_table(record: RunRecord, users: np.ndarray, mu: np.ndarray) -> pa.Table:
    """Every round of every seed, sorted by (seed, round)."""
    n, horizon = record.arms.shape
    order = np.argsort(record.seeds, kind="stable")
    optimal = np.isclose(mu[record.contexts, record.arms], mu.max(axis=1)[record.contexts], rtol=0, atol=1e-12)
    flat = lambda a: a[order].ravel()  # noqa: E731
    columns = {
        "seed": np.repeat(record.seeds[order], horizon),
        "round": np.tile(np.arange(1, horizon + 1), n),
        "user_id": flat(users),
        "context": flat(record.contexts),
        "arm": flat(record.arms),
        "w_id": flat(record.w_cells),
        "reward": flat(record.rewards),
        "regret": flat(record.regret),
        "cum_regret": flat(np.cumsum(record.regret, axis=1)),
        "optimal": flat(optimal),
        "delta_true": flat(record.delta_true),
        "delta_hat": flat(record.delta_hat),
        "ucb_delta": flat(record.ucb_delta),
        "min_ucb_delta": flat(record.min_ucb_delta),
        "certified": None if record.certified is None else flat(record.certified),
        "n_fair_arms": None if record.n_fair is None else flat(record.n_fair),
    }
    if columns["certified"] is None:
        columns["certified"] = pa.nulls(n * horizon, pa.bool_())
        columns["n_fair_arms"] = pa.nulls(n * horizon, pa.int16())
    return pa.Table.from_pydict(columns, schema=RUN_SCHEMA)


def run_chunk(instance: Mapping[str, Any], algorithm: str, seeds: Sequence[int], config: Mapping[str, Any],
              path: str, metadata: Mapping[str, str]) -> None:
    """Simulate ``algorithm`` on the instance for ``seeds`` and write every round to ``path``."""
    horizon = int(config["horizon"])
    env = CausalEnvironment.from_document(instance)
    auditor = FairnessAuditor(CellModel.from_document(instance["models"]["ducb"]), config["fucb"]["alpha_c"])
    contexts, users = user_sequence(instance, seeds, horizon)
    start = time.perf_counter()
    record = simulate(build_policy(algorithm, instance, config), env, auditor, contexts, paper=PAPER,
                      experiment=instance["experiment"], seeds=seeds)
    log.info("%s/%s seeds %s: %d rounds in %.1f s, mean final regret %.2f", instance["experiment"], algorithm,
             list(seeds), horizon, time.perf_counter() - start, record.regret.sum(axis=1).mean())
    tau = algorithm_tau(algorithm)
    meta = {**metadata, "paper": PAPER, "experiment": instance["experiment"], "algorithm": algorithm,
            "tau": "" if tau is None else f"{tau:g}", "horizon": str(horizon),
            "seeds": ",".join(map(str, seeds)), "data_provenance": instance["data_provenance"]}
    store.write_table(path, run_table(record, users, env.mu), meta)


# --------------------------------------------------------------------------- summaries
def read_runs(paths: Mapping[str, Iterable[str]]) -> pd.DataFrame:
    """All rounds of all algorithms (``paths``: algorithm -> chunk files), sorted."""
    frames = []
    for algorithm, files in paths.items():
        for f in files:
            frame = pq.read_table(f).to_pandas()
            frame.insert(0, "algorithm", algorithm)
            frames.append(frame)
    frame = pd.concat(frames, ignore_index=True)
    return frame.sort_values(["algorithm", "seed", "round"], kind="stable", ignore_index=True)


def curves(runs: pd.DataFrame, record_points: int) -> pd.DataFrame:
    """Mean and sd over seeds of the cumulative regret, per algorithm, on a linear grid of rounds."""
    horizon = int(runs["round"].max())
    grid = linear_grid(horizon, record_points)
    sel = runs[runs["round"].isin(grid)]
    stats = sel.groupby(["algorithm", "round"], sort=True)["cum_regret"].agg(["mean", "std", "count"]).reset_index()
    return pd.DataFrame({
        "algorithm": stats["algorithm"], "round": stats["round"].astype(np.int32),
        "cum_regret_mean": stats["mean"], "cum_regret_sd": stats["std"].fillna(0.0),
        "n_seeds": stats["count"].astype(np.int32),
    })


def seed_summary(runs: pd.DataFrame, taus: Sequence[float]) -> pd.DataFrame:
    """Per (algorithm, seed, tau): final regret, auditor's unfair counts, F-UCB's uncertified rounds."""
    rows = []
    for (algorithm, seed), g in runs.groupby(["algorithm", "seed"], sort=True):
        certified = g["certified"]
        for tau in taus:
            rows.append({
                "algorithm": algorithm, "seed": int(seed), "tau": float(tau), "T": int(g["round"].max()),
                "final_regret": float(g["regret"].sum()),
                "unfair_cert": int((g["ucb_delta"] > tau).sum()),
                "unfair_true": int((g["delta_true"].abs() > tau).sum()),
                "uncertified": float((~certified.astype(bool)).sum()) if certified.notna().all() else np.nan,
            })
    return pd.DataFrame(rows)
