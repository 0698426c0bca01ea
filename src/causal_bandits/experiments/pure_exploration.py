"""The ``pure_exploration:`` config section: cpe's algorithms (CCPE-BGLM, CCPE-General, LUCB, the naive ablation;
ICLR 2023) on researchers' own binary SCMs, apart from the papers. What the workflow plans from it: the checks,
the run jobs (one seed chunk of one (experiment, algorithm), on the one run interface :mod:`causal_bandits.runs`)
and the outputs. The model, the runs and the table are :mod:`causal_bandits.experiments.cpe`'s (also
``cb.pure_exploration`` from Python, with the same streams). This module stays light: the workflow reads it when it
parses."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib.resources import files
from typing import Any

from causal_bandits import runs
from causal_bandits.errors import CausalBanditsError, ConfigError
from causal_bandits.experiments.pure_exploration_keys import KEY, RUNNER, STRATEGY, skipped

SCHEMA = files("causal_bandits.experiments") / "pure_exploration.schema.yaml"
#: Where its instance and table go.
RESULTS = f"results/{KEY}"
FIGURES = f"figures/{KEY}"
#: The block's keys its table and report summary state (:mod:`causal_bandits.experiments.pure_exploration_summary`).
SUMMARY_KEYS = ("delta", "epsilon", "max_samples", "n_seeds")


def played(experiment: Mapping[str, Any]) -> list[str]:
    """The algorithms an experiment of the section runs."""
    gone = skipped(experiment["algorithms"], experiment.get("bglm"))
    return [a for a in experiment["algorithms"] if a not in gone]


def check_config(section: Mapping[str, Any]) -> None:
    """Each experiment's SCM builds into a cpe instance (every mechanism, BGLM and arm checked); one-line errors."""
    from causal_bandits.experiments import cpe  # numpy: only when the section is there

    for name, experiment in section.items():
        where = f"{KEY}.{name}"
        try:
            cpe.instance(
                experiment["scm"],
                max_intervened=experiment["max_intervened"],
                bglm=experiment.get("bglm"),
                name=name,
                where=f"{where}.scm",
            )
        except CausalBanditsError as err:
            message = str(err)
            raise ConfigError(message if message.startswith(where) else f"{where}: {message}") from None


def chunks(experiment: Mapping[str, Any]) -> runs.Chunks:
    """Seed chunks of an experiment's runs (speed only: a seed's streams do not depend on its chunk)."""
    return runs.chunk_seeds(experiment["n_seeds"], experiment["seeds_per_job"])


def run_jobs(config: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """The wildcards of every run job: each experiment's algorithms that run, each chunk."""
    for name, experiment in config.get(KEY, {}).items():
        for algorithm in played(experiment):
            for k in range(len(chunks(experiment))):
                yield {"experiment": name, "strategy": STRATEGY, "algorithm": algorithm, "chunk": str(k)}


def describe(config: Mapping[str, Any], wildcards: Mapping[str, str]) -> runs.RunJob:
    """A run job (rule ``pure_exploration_run``): one seed chunk of one algorithm, capped at ``max_samples`` (its
    ``horizon``); its results depend on δ, ε, the cap and the instance (an input file)."""
    name, algorithm = wildcards["experiment"], wildcards["algorithm"]
    experiment = config[KEY][name]
    seeds = chunks(experiment)[int(wildcards["chunk"])]
    return runs.RunJob(
        paper=KEY,
        experiment=name,
        strategy=STRATEGY,
        algorithm=algorithm,
        seeds=seeds,
        science={"delta": experiment["delta"], "epsilon": experiment["epsilon"], "horizon": experiment["max_samples"]},
        horizon=int(experiment["max_samples"]),
        runner=RUNNER,
        memory_mb=1000 + len(seeds) * 20,
    )


def outputs(name: str) -> list[str]:
    """An experiment's final outputs: its table (CSV, Markdown)."""
    return [f"{FIGURES}/{name}/table.csv", f"{FIGURES}/{name}/table.md"]
