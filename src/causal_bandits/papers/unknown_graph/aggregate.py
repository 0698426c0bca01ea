"""Rule unknown_graph_aggregate: one cell's regret statistics per round (:func:`causal_bandits.aggregate.aggregate`)
and its runs' per-seed summaries in one table."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.aggregate import aggregate

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def aggregate_step(job: Job) -> None:
    """The aggregate of the cell ``job.wildcards.cell`` and its summaries, each row named by its algorithm."""
    cell = job.wildcards.cell
    settings = {tuple(k.split("/")): v for k, v in job.input.items() if "/" in k}
    store.write_table(job.output.agg, aggregate(settings), {"experiment": cell})
    parts = []
    for (_, algorithm), paths in settings.items():
        for path in paths:
            frame = store.read_table(store.summary_path(path)).to_pandas()
            frame.insert(0, "algorithm", algorithm)
            parts.append(frame)
    summaries = pd.concat(parts, ignore_index=True)
    store.write_table(job.output.summaries, pa.Table.from_pandas(summaries, preserve_index=False), {"experiment": cell})
    log.info("%d settings of %s aggregated", len(settings), cell)
