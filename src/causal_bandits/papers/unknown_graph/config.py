"""Lu, Meisami & Tewari: the config checks a schema cannot make (run when the workflow parses the config,
and by ``causal-bandits check-config``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError
from causal_bandits.runs import RunJob


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks; raises a one-line ConfigError."""
    for n in section["general"]["n"]:
        for k in section["general"]["k"]:
            if k >= n:
                raise ConfigError(f"unknown_graph.general: k = {k} needs n > k (got n = {n}); lower k or raise n")


#: The cost check's model of this paper's runs (causal_bandits.cost): CPU seconds per seed-round, from the archived
#: paper-scale run (the V1-V4 runs, 1,776 CPU-s over 1.8e9 seed-rounds).
PER_SEED_ROUND = 1.0e-6
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (about 0.4 of 1.32 CPU-h at paper scale:
#: the lower-bound families 0.13, half of CN-UCB's discovery jobs 0.09, the readings 0.03, measured; the heavier half
#: of the discovery jobs projected at twice that).
OTHER_SHARE = 0.3


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    return PER_SEED_ROUND * len(job.seeds) * job.horizon
