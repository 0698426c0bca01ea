"""Test helper: one run job of nonmanip's runner, as the workflow runs it (causal_bandits.runs.execute)."""

from __future__ import annotations

from pathlib import Path

from causal_bandits import algorithms, runs, store
from causal_bandits.papers.nonmanip import POMIS_PLUS


def run_nonmanip(
    directory: Path,
    name: str,
    instance: dict,
    *,
    strategy: str,
    algorithm: str,
    seeds: range,
    horizon: int,
    record_points: int,
    catalogue: dict | None = None,
    pomis_plus: dict | None = None,
    paper: str = "nonmanip",
) -> Path:
    """Write the instance (and the catalogue) to ``directory``, run the job and return its trace path
    (``<name>.parquet``, the summary beside it)."""
    inputs = {"instance": str(directory / f"{name}.instance.json")}
    store.write_json(inputs["instance"], instance)
    science: dict = {"horizon": horizon, "record_points": record_points}
    if catalogue is not None:
        inputs["catalogue"] = str(directory / f"{name}.catalogue.json")
        store.write_json(inputs["catalogue"], catalogue)
        science["pomis_plus"] = pomis_plus
    job = runs.RunJob(
        paper=paper,
        experiment=instance["experiment"],
        strategy=strategy,
        algorithm=algorithm,
        seeds=seeds,
        science=science,
        horizon=int(science["horizon"]),
        runner="nonmanip",
        policy=algorithms.played("nonmanip", algorithm, z2=strategy == POMIS_PLUS).key,
    )
    trace = directory / f"{name}.parquet"
    runs.execute(job, inputs, str(trace), store.summary_path(trace))
    return trace
