"""Lu, Meisami & Tewari: the config checks a schema cannot make (run when the workflow parses the config,
and by ``causal-bandits check-config``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError
from causal_bandits.runs import RunJob

#: Config keys of the section that moved or were renamed, below the section, to their path now.
MOVED = {
    "forests.h": "unknown_graph.forests.height",
    "lower_bounds.eps": "unknown_graph.lower_bounds.epsilon",
}


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks; raises a one-line ConfigError."""
    for n in section["general"]["n"]:
        for k in section["general"]["k"]:
            if k >= n:
                raise ConfigError(f"unknown_graph.general: k = {k} needs n > k (got n = {n}); lower k or raise n")


#: The cost check's model of this paper's runs (causal_bandits.cost): CPU seconds per seed-round, fitted to an
#: archived paper-scale run (archive/paper-scale/manifest.json, each job's exact CPU; the fit printed by
#: benchmarks/cost_model.py): the V1-V4 runs, 491 CPU-s over 1.8e9 seed-rounds.
PER_SEED_ROUND = 2.2e-7
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (483 of 491 CPU-s in that run: CN-UCB's
#: discovery 402, the readings 34, the lower-bound families 19).
OTHER_SHARE = 1.0


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    return PER_SEED_ROUND * len(job.seeds) * job.horizon
