"""Rule fairness_aggregate: regret curves and per-seed regrets (at T and at the early round) and unfair-decision
counts of one experiment."""

import pandas as pd
import pyarrow as pa

from causal_bandits import aggregate, store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import runs as fr

p, inp = snakemake.params, snakemake.input
with logged(snakemake.log[0]) as log:
    traces = {(fr.STRATEGY, a): inp[a] for a in p.algorithms}
    meta = {
        "experiment": snakemake.wildcards.experiment,
        "data_provenance": store.read_metadata(inp[p.algorithms[0]][0])["data_provenance"],
    }
    store.write_table(snakemake.output.curves, aggregate.aggregate(traces), meta)
    summaries = {
        a: pd.concat([store.read_table(store.summary_path(f)).to_pandas() for f in inp[a]]) for a in p.algorithms
    }
    early = {a: fr.regret_at(aggregate.read_traces(inp[a]), fr.EARLY_ROUND) for a in p.algorithms}
    summary = fr.seed_summary(summaries, p.taus, p.horizon, early)
    store.write_table(snakemake.output.summary, pa.Table.from_pandas(summary, preserve_index=False), meta)
    log.info("mean final regret: %s", summary.groupby("algorithm")["final_regret"].mean().round(2).to_dict())
