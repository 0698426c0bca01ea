"""cpe: the config checks a schema cannot make (δ, ε, family arguments, algorithm fits the instance)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.bandits.pure_exploration import check_confidence, check_sample_cap
from causal_bandits.errors import CausalBanditsError, ConfigError
from causal_bandits.papers.cpe.families import from_config
from causal_bandits.runs import RunJob

#: Config keys of the section that moved or were renamed, below the section, to their path now.
MOVED = {
    "naive_study": "studies.naive_estimand",
}


def check_config(section: Mapping[str, Any]) -> None:
    """Raise a one-line ConfigError naming the key, the bad value and the fix."""
    try:
        check_confidence(section.get("delta", 0.05), 0.0)
    except ConfigError as err:
        raise ConfigError(f"cpe.{err}") from None
    unknown = [name for name in section.get("run_experiments", []) if name not in section["experiments"]]
    if unknown:
        raise ConfigError(
            f"cpe.run_experiments names {', '.join(map(repr, unknown))}, not in cpe.experiments; "
            f"use names from: {', '.join(sorted(section['experiments']))}"
        )
    for exp, spec in section["experiments"].items():
        for group in spec["runs"]:
            unknown = sorted(set(group.get("configs", [])) - set(spec["configs"]))
            if unknown:
                raise ConfigError(
                    f"cpe.experiments.{exp}.runs names config {unknown[0]!r}; use one of {sorted(spec['configs'])}"
                )
        for name, conf in spec["configs"].items():
            where = f"cpe.experiments.{exp}.configs.{name}"
            try:
                check_confidence(0.5, conf.get("epsilon", 0.0))
            except ConfigError as err:
                raise ConfigError(f"{where}.{err}") from None
            try:
                made = from_config(conf)
            except TypeError as err:
                raise ConfigError(
                    f"{where}.params: {err}; see the family's arguments in papers/cpe/families.py"
                ) from None
            except CausalBanditsError as err:
                raise ConfigError(f"{where}.params: {err}") from None
            check_sample_cap(section["horizon"], made.n_arms, key="cpe.horizon")
            for group in spec["runs"]:
                if name in group.get("configs", [name]) and "ccpe_bglm" in group["algorithms"] and made.link is None:
                    raise ConfigError(
                        f"cpe.experiments.{exp}: ccpe_bglm runs on config {name!r} of family "
                        f"{conf['family']!r}; it needs a bglm config"
                    )


#: The cost check's model of this paper's runs (causal_bandits.cost), fitted to an archived paper-scale run
#: (archive/paper-scale/manifest.json, each job's exact CPU; the fit printed by benchmarks/cost_model.py):
#: the runs that stop on their own cost per seed (149 jobs, 994 CPU-s, 14,000 seeds: 0.06 after start-up), the
#: fixed-budget parallel bandit per seed-round of its budget (21 batches, 340 CPU-s, 1.0e9 seed-rounds).
PER_SEED_S = 0.06
#: CPU seconds per seed-round of a fixed-budget run.
PER_BUDGET_ROUND_S = 3.1e-7
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (0.030 of 0.37 CPU-h in that run).
OTHER_SHARE = 0.08


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    if job.science.get("job", {}).get("budget") is not None:
        return PER_BUDGET_ROUND_S * len(job.seeds) * job.horizon
    return PER_SEED_S * len(job.seeds)
