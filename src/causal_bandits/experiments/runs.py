"""The run jobs of researchers' own experiments: nonmanip's runner (:mod:`causal_bandits.papers.nonmanip.runs`)
under the key ``experiments``, with each experiment's own horizon, seeds and POMIS+ settings, and an algorithm's
parameter values (:class:`causal_bandits.algorithms.Variant`) where the config gives some."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from causal_bandits import runs
from causal_bandits.experiments import KEY
from causal_bandits.experiments.algorithms import played_key, skip_reason, variants
from causal_bandits.experiments.config import strategies
from causal_bandits.papers.nonmanip import POMIS_PLUS


def chunks(config: Mapping[str, Any], name: str) -> runs.Chunks:
    """Seed chunks of an experiment's runs (speed only: a seed's streams do not depend on its chunk)."""
    experiment = config["experiments"][name]
    return runs.chunk_seeds(experiment["n_seeds"], experiment["seeds_per_job"])


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job: each experiment's strategies and the solvers that play them, each chunk."""
    for name, experiment in config.get("experiments", {}).items():
        for strategy in strategies(experiment):
            for algorithm in variants(name, experiment).values():
                if skip_reason(algorithm, strategy) is None:
                    for k in range(len(chunks(config, name))):
                        yield {"experiment": name, "strategy": strategy, "algorithm": algorithm.id, "chunk": str(k)}


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``experiments_run``): one seed chunk of an experiment's (strategy, algorithm). Its results
    depend on the experiment's name, horizon and the record points, under POMIS+ its ``pomis_plus`` block, and the
    algorithm's parameter values (``params``, with ``T`` replaced by the horizon), where it has some."""
    name, strategy, algorithm = wildcards["experiment"], wildcards["strategy"], wildcards["algorithm"]
    experiment = config["experiments"][name]
    variant = variants(name, experiment)[algorithm]
    science: dict[str, Any] = {
        "experiment": name,
        "horizon": experiment["horizon"],
        "record_points": config["record_points"],
    }
    if variant.params:
        science["params"] = variant.arguments(experiment["horizon"])
    per_seed_mb = 4
    if strategy == POMIS_PLUS:
        science["pomis_plus"] = dict(experiment["pomis_plus"])
        per_seed_mb += experiment["pomis_plus"]["bootstrap"] // 100  # B replicates of every seed's leaf counts
    seeds = chunks(config, name)[int(wildcards["chunk"])]
    return runs.RunJob(
        paper=KEY,
        experiment=name,
        strategy=strategy,
        algorithm=algorithm,
        seeds=seeds,
        science=science,
        horizon=int(experiment["horizon"]),
        runner="nonmanip",
        policy=played_key(variant.key, strategy),
        memory_mb=500 + len(seeds) * per_seed_mb,
    )
