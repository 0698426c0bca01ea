"""Huang & Wu: the config checks a schema cannot make (run when the workflow parses the config, and by
``causal-bandits check-config``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.errors import ConfigError
from causal_bandits.papers.bounds.scm import model
from causal_bandits.runs import RunJob


def check_config(section: Mapping[str, Any]) -> None:
    """Semantic checks the schema cannot make; raises a one-line CausalBanditsError."""
    m = model(section)
    online, offline = section["online"], section["offline"]
    if online["context_source"] == "offline_rows" and section["horizon"] > offline["n_rows"]:
        raise ConfigError(
            f"bounds.horizon = {section['horizon']} exceeds bounds.offline.n_rows = "
            f"{offline['n_rows']}, so context_source: offline_rows has too few rows; use iid "
            "or generate more rows"
        )
    for v in offline["biased_adjust"]:
        if v not in m.variables or v == m.selection:
            raise ConfigError(
                f"bounds.offline.biased_adjust names {v!r}, not a variable of the SCM; use "
                f"variables among {sorted(set(m.variables) - {m.selection})}"
            )


#: The cost check's model of this paper's runs (causal_bandits.cost): CPU seconds per seed-round, fitted to an
#: archived paper-scale run (archive/paper-scale/manifest.json, each job's exact CPU; the fit printed by
#: benchmarks/cost_model.py): 16 jobs, 76 CPU-s, 2.4e7 seed-rounds.
PER_SEED_ROUND = 2.5e-6
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (29 of 76 CPU-s in that run).
OTHER_SHARE = 0.38


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    return PER_SEED_ROUND * len(job.seeds) * job.horizon
