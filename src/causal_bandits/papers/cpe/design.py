"""The cpe config section as a list of jobs: which instance, algorithm, profile and seeds to run.

An experiment has instance ``configs`` (family, generator arguments, ε) and run groups (algorithms
on some of the configs, with their number of seeds, constant profile, α_O sweep, CI coverage). A
:class:`Job` is one (experiment, config, strategy, algorithm); its run-store experiment key is
``<experiment>-<config>`` (so every algorithm of a config meets the same environment draws) and its
strategy names the settings: the profile (``practical``, ``theory``), with ``-aO<α>`` for an α_O of
the sweep, or ``T<budget>`` for the fixed-budget parallel bandit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Job:
    experiment: str
    config: str
    strategy: str
    algorithm: str
    n_seeds: int
    profile: str
    alpha_O: float | None = None
    budget: int | None = None
    coverage: bool = False

    @property
    def key(self) -> str:
        """The run store's experiment key: ``<experiment>-<config>``."""
        return f"{self.experiment}-{self.config}"


#: The fixed-budget algorithm, run at every budget of ``pb_budgets`` (strategies ``T<budget>``).
BUDGETED = "pb"


def budget_strategies(section: Mapping[str, Any]) -> list[str]:
    """The strategies of the fixed-budget algorithm's jobs: ``T<budget>`` for each of ``pb_budgets``."""
    return [f"T{b}" for b in section["pb_budgets"]]


def experiments_run(section: Mapping[str, Any]) -> list[str]:
    """The experiments this config runs: ``run_experiments`` when given, else every one, in config order."""
    chosen = section.get("run_experiments")
    return [e for e in section["experiments"] if not chosen or e in chosen]


def run_key(experiment: str, config: str) -> str:
    return f"{experiment}-{config}"


def jobs(section: Mapping[str, Any]) -> list[Job]:
    """Every job of the section, in config order."""
    out = []
    for exp, spec in section["experiments"].items():
        for group in spec["runs"]:
            profile = group.get("profile", section.get("profile", "practical"))
            n_seeds = group.get("n_seeds", section["n_seeds"])
            for config in group.get("configs", list(spec["configs"])):
                for alg in group["algorithms"]:
                    common = {
                        "experiment": exp,
                        "config": config,
                        "algorithm": alg,
                        "n_seeds": n_seeds,
                        "profile": profile,
                        "coverage": group.get("coverage", False),
                    }
                    if alg == BUDGETED:
                        out += [
                            Job(strategy=s, budget=b, **common)
                            for s, b in zip(budget_strategies(section), section["pb_budgets"], strict=True)
                        ]
                    elif group.get("alpha_O"):
                        out += [Job(strategy=f"{profile}-aO{a:g}", alpha_O=a, **common) for a in group["alpha_O"]]
                    else:
                        out.append(Job(strategy=profile, **common))
    return out


def job(section: Mapping[str, Any], key: str, strategy: str, algorithm: str) -> Job:
    """The job of run-store coordinates (``<experiment>-<config>``, strategy, algorithm). Snakemake asks once per job
    while it plans, so the section's jobs are indexed once per section (by its JSON text: a changed section is
    indexed anew), not enumerated per job: planning the paper-scale section's 676 jobs took ~2 CPU-s that way."""
    found = _index(json.dumps(section, sort_keys=True)).get((key, strategy, algorithm))
    if found is None:
        raise KeyError(f"no cpe job {key}/{strategy}/{algorithm}")
    return found


@lru_cache(maxsize=4)
def _index(section: str) -> dict[tuple[str, str, str], Job]:
    index: dict[tuple[str, str, str], Job] = {}
    for j in jobs(json.loads(section)):
        index.setdefault((j.key, j.strategy, j.algorithm), j)  # the first, as the section lists them
    return index


def epsilon(section: Mapping[str, Any], experiment: str, config: str) -> float:
    return float(section["experiments"][experiment]["configs"][config].get("epsilon", 0.0))
