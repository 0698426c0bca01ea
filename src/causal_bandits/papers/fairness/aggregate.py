"""Rule fairness_aggregate: one experiment's regret curves (:func:`causal_bandits.aggregate.aggregate`), its
per-seed regrets at T and at the early round and its unfair-decision counts (:func:`runs.seed_summary`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa

from causal_bandits import aggregate, store
from causal_bandits.papers.fairness import runs

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def aggregate_step(job: Job) -> None:
    """Rule fairness_aggregate: the curves and the per-seed summary of the experiment ``job.wildcards.experiment``."""
    p, inp = job.params, job.input
    traces = {(runs.STRATEGY, a): inp[a] for a in p.algorithms}
    meta = {
        "experiment": job.wildcards.experiment,
        "data_provenance": store.read_metadata(inp[p.algorithms[0]][0])["data_provenance"],
    }
    store.write_table(job.output.curves, aggregate.aggregate(traces), meta)
    summaries = {
        a: pd.concat([store.read_table(store.summary_path(f)).to_pandas() for f in inp[a]]) for a in p.algorithms
    }
    early = {a: runs.regret_at(aggregate.read_traces(inp[a]), runs.EARLY_ROUND) for a in p.algorithms}
    summary = runs.seed_summary(summaries, p.taus, p.horizon, early)
    store.write_table(job.output.summary, pa.Table.from_pandas(summary, preserve_index=False), meta)
    log.info("mean final regret: %s", summary.groupby("algorithm")["final_regret"].mean().round(2).to_dict())
