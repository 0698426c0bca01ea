"""cpe: the config checks a schema cannot make (δ, ε, family arguments, algorithm fits the instance)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causal_bandits.bandits.pure_exploration import check_confidence, check_sample_cap
from causal_bandits.errors import CausalBanditsError, ConfigError
from causal_bandits.papers.cpe.families import from_config
from causal_bandits.runs import RunJob


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


#: The cost check's model of this paper's runs (causal_bandits.cost): they stop on their own well before the sample
#: cap, so they cost per seed: the archived paper-scale run's 338 jobs, 0.79 CPU-h, 32,260 seeds.
PER_SEED_S = 0.09
#: The CPU of the paper's jobs other than its runs, as a share of its runs' (0.28 of 1.02 CPU-h at paper scale).
OTHER_SHARE = 0.27


def cpu_seconds(job: RunJob) -> float:
    """The cost model's CPU seconds of a run job on this paper's runner, beyond its start-up."""
    return PER_SEED_S * len(job.seeds)
