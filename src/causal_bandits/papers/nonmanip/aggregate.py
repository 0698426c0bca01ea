"""Rule nonmanip_aggregate: per-round statistics of every setting of a panel
(:func:`causal_bandits.aggregate.aggregate`), and the check of the paper's footnote 4: strategies with the same arm
list give bit-identical runs."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from causal_bandits import store
from causal_bandits.aggregate import aggregate

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def aggregate_step(job: Job) -> None:
    """The panel's aggregate table and, per pair of strategies its instance lists as identical and each algorithm
    both ran, whether their run files hold the same data (metadata names the strategy)."""
    settings = {tuple(k.split("/")): v for k, v in job.input.items() if "/" in k}
    instance = store.read_json(job.input.instance)
    store.write_table(job.output.agg, aggregate(settings), {"experiment": instance["experiment"]})
    same = {}
    for larger, smaller in instance["identical"].items():
        for algorithm in {a for _, a in settings}:
            a, b = settings.get((larger, algorithm)), settings.get((smaller, algorithm))
            if a and b:
                same[f"{larger}={smaller}/{algorithm}"] = all(
                    store.read_table(x).equals(store.read_table(y)) for x, y in zip(a, b)
                )
    store.write_json(job.output.identical, same)
    log.info("%d settings aggregated; identical runs: %s", len(settings), same)
