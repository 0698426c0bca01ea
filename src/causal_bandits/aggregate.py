"""The aggregate stage: run traces of many seed chunks to one summary per (strategy, algorithm).

Traces are concatenated and sorted by seed before any arithmetic, so means and deviations are
computed in the same order whatever the chunk size: the aggregate file is byte-identical for every
``seeds_per_job``. The 95 % interval is mean ± 1.96 sd / sqrt(n), the one Lee & Bareinboim plot.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from causal_bandits import store

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)

AGG_SCHEMA = pa.schema(
    [
        ("strategy", pa.string()),
        ("algorithm", pa.string()),
        ("round", pa.int32()),
        ("n_seeds", pa.int32()),
        ("mean_cum_regret", pa.float64()),
        ("sd_cum_regret", pa.float64()),
        ("ci95_lo", pa.float64()),
        ("ci95_hi", pa.float64()),
        ("mean_cum_realized_regret", pa.float64()),
        ("optimal_arm_prob", pa.float64()),
    ]
)


#: The trace columns the aggregate reads (a chunk without one of them is damaged or not a trace).
TRACE_COLUMNS = ("seed", "round", "cum_regret", "cum_realized_regret", "optimal")


def read_traces(paths: Iterable[str | Path]) -> pd.DataFrame:
    """All chunks of one setting, sorted by (seed, round); a seed in two chunks names the later chunk as
    damaged or from another run (:func:`causal_bandits.store.damaged`)."""
    frames = {str(p): store.read_table(p, TRACE_COLUMNS).to_pandas() for p in paths}
    owner: dict[int, str] = {}
    for path, chunk in frames.items():
        for seed in chunk["seed"].unique().tolist():
            if seed in owner:
                raise store.damaged(path, f"seed {seed} is also in {owner[seed]}")
            owner[seed] = path
    frame = pd.concat(frames.values(), ignore_index=True)
    return frame.sort_values(["seed", "round"], kind="stable", ignore_index=True)


def summarise(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-round statistics over seeds of one setting's traces."""
    rounds = np.unique(frame["round"].to_numpy())
    n = frame["seed"].nunique()
    shape = (n, rounds.size)
    regret = frame["cum_regret"].to_numpy().reshape(shape)
    realized = frame["cum_realized_regret"].to_numpy().reshape(shape)
    optimal = frame["optimal"].to_numpy().reshape(shape)
    mean = regret.mean(axis=0)
    sd = regret.std(axis=0, ddof=1) if n > 1 else np.zeros(rounds.size)
    half = 1.96 * sd / np.sqrt(n)
    return pd.DataFrame(
        {
            "round": rounds.astype(np.int32),
            "n_seeds": np.full(rounds.size, n, dtype=np.int32),
            "mean_cum_regret": mean,
            "sd_cum_regret": sd,
            "ci95_lo": mean - half,
            "ci95_hi": mean + half,
            "mean_cum_realized_regret": realized.mean(axis=0),
            "optimal_arm_prob": optimal.mean(axis=0),
        }
    )


def aggregate(settings: Mapping[tuple[str, str], Iterable[str | Path]]) -> pa.Table:
    """One table for all (strategy, algorithm) settings, each from its chunk files."""
    parts = []
    for (strategy, algorithm), paths in settings.items():
        part = summarise(read_traces(paths))
        part.insert(0, "algorithm", algorithm)
        part.insert(0, "strategy", strategy)
        parts.append(part)
    return pa.Table.from_pandas(pd.concat(parts, ignore_index=True), schema=AGG_SCHEMA, preserve_index=False)


def read_finals(
    inputs: Mapping[str, Any], names: Sequence[str], columns: Sequence[str] = ("seed", "final_regret")
) -> pd.DataFrame:
    """The per-seed summary ``columns`` of every run in ``inputs`` (a rule's named inputs) whose name splits at "/"
    into as many parts as ``names`` (``<point>/<panel>/<algorithm>``), each part a column of that name, in one
    frame; other inputs are left out."""
    frames = [
        store.read_table(path, columns=list(columns)).to_pandas().assign(**dict(zip(names, key.split("/"))))
        for key, paths in inputs.items()
        if key.count("/") == len(names) - 1
        for path in ([paths] if isinstance(paths, str) else paths)
    ]
    return pd.concat(frames, ignore_index=True)


def settings_step(job: Job) -> None:
    """A step that aggregates every (strategy, algorithm) setting among its inputs, named ``<strategy>/<algorithm>``
    (:func:`causal_bandits.run_paths.run_files`), into its one output (:func:`aggregate`), stamped with the rule's
    ``metadata`` param (causal_bandits.stages)."""
    settings = {tuple(k.split("/")): v for k, v in job.input.items() if "/" in k}
    store.write_table(job.output[0], aggregate(settings), dict(job.params.metadata))
    log.info("%d settings aggregated", len(settings))
