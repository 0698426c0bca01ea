"""Rule bounds_aggregate: per-round statistics over seeds (:func:`causal_bandits.aggregate.aggregate`) of every
algorithm of one run setting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from causal_bandits import aggregate, store

if TYPE_CHECKING:
    from causal_bandits.stages import Job


def aggregate_step(job: Job) -> None:
    """The aggregate of the setting ``job.wildcards.setting``, its inputs named by algorithm."""
    setting = job.wildcards.setting
    files = {(setting, k): v for k, v in job.input.items()}
    store.write_table(job.output[0], aggregate.aggregate(files), {"setting": setting})
