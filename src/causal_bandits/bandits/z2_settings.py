"""POMIS+'s settings: the z² solvers' bootstrap estimates (bMVWA, AAAI-19 Alg. 2) and what z²-KL-UCB does for an arm
with no expression (Alg. 3), one typed value with each setting's default, config schema and meaning in one place.

The nonmanip section's ``pomis_plus`` schema takes its entries for these settings from here (:func:`schema`, in
:func:`causal_bandits.config.load_schema`), so adding a setting is one field below: the config accepts it, checks it
and fills in its default, and the solvers receive it (:class:`~causal_bandits.bandits.z2_estimates.Z2Estimates`,
:class:`~causal_bandits.bandits.z2_klucb.Z2KLUCB`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from causal_bandits.errors import ConfigError

REFRESH = ("every_round", "adaptive")
TRIVIAL = ("beta", "empirical")
NO_EXPRESSION = ("klucb", "beta")
NOTES = "docs/papers/nonmanip.md"


def _setting(default: Any, schema: dict[str, Any], description: str) -> Any:
    """A field of :class:`Z2Settings`: its default, and its entry in the config schema (the default added)."""
    return field(default=default, metadata={"schema": {**schema, "default": default, "description": description}})


@dataclass(frozen=True)
class Z2Settings:
    """The settings of a POMIS+ run's z² solver (the config's ``nonmanip.pomis_plus`` without its job sizes)."""

    bootstrap: int = _setting(
        500,
        {"type": "integer", "minimum": 2, "maximum": 100000},
        "Bootstrap resamples B of every arm's data per refresh (paper, §5 - 500; a covariance needs B >= 2). "
        "At most 100,000.",
    )
    refresh: str = _setting(
        "adaptive",
        {"enum": ["adaptive", "every_round"]},
        f"When an arm's bootstrap covariance is recomputed - every_round (the paper's Alg. 3) or adaptive "
        f"({NOTES}#nonmanip-a-bootstrap-refresh [R] - while t <= warmup, when the arm's active estimators change, "
        "or when the data they read grew by `growth`); point estimates and weights are recomputed every round "
        "either way.",
    )
    warmup: int = _setting(
        200,
        {"type": "integer", "minimum": 0},
        f"Rounds during which the adaptive schedule refreshes every round ({NOTES}#nonmanip-a-bootstrap-refresh "
        "[R] - 200).",
    )
    growth: float = _setting(
        0.05,
        {"type": "number", "exclusiveMinimum": 0},
        "Relative growth of the data an arm's estimators read that triggers an adaptive refresh "
        f"({NOTES}#nonmanip-a-bootstrap-refresh [R] - 0.05).",
    )
    n_min: int = _setting(
        20,
        {"type": "integer", "minimum": 1},
        "Samples every source arm of an expression needs before it is used, beside the paper's support rule "
        f'({NOTES}#nonmanip-a-enough-samples [R] - 20; the paper says only "enough samples").',
    )
    trivial: str = _setting(
        "beta",
        {"enum": list(TRIVIAL)},
        "The arm's own-data estimator in bMVWA - beta (the paper - Beta(a+1, b+1) mean and variance) or empirical "
        f"(a/n and max(p(1-p), 1/n)/n; {NOTES}#nonmanip-a-trivial-estimator [R]).",
    )
    no_expression: str = _setting(
        "klucb",
        {"enum": list(NO_EXPRESSION)},
        f"What z2-KL-UCB uses for an arm with no active expression ({NOTES}#nonmanip-knobs [R]) - klucb (kl-UCB's "
        "own statistics, empirical mean a/n and N = n, so a seed with no expression anywhere pulls exactly what "
        "kl-UCB pulls) or beta (the paper's literal Beta(a+1, b+1) moments, mean (a+1)/(n+2) and "
        "N = mean(1-mean)/variance). z2-TS draws such arms from Beta(a+1, b+1) either way.",
    )

    def __post_init__(self) -> None:
        if self.refresh not in REFRESH:
            raise ConfigError(f"refresh {self.refresh!r} is not one of {list(REFRESH)}; choose one of them")
        if self.trivial not in TRIVIAL:
            raise ConfigError(f"trivial estimator {self.trivial!r} is not one of {list(TRIVIAL)}")
        if int(self.bootstrap) < 2:
            raise ConfigError(f"bootstrap B = {self.bootstrap}; a covariance needs at least 2 resamples")
        if self.no_expression not in NO_EXPRESSION:
            raise ConfigError(
                f"no_expression {self.no_expression!r} is not one of {list(NO_EXPRESSION)}; e.g. no_expression: klucb"
            )


def schema() -> dict[str, dict[str, Any]]:
    """The config schema's entries of the settings (``nonmanip.pomis_plus``'s properties), in field order."""
    return {f.name: dict(f.metadata["schema"]) for f in fields(Z2Settings)}
