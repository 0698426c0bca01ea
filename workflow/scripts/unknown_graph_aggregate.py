"""Rule unknown_graph_aggregate: regret statistics per round and the per-seed summaries of one cell."""

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.aggregate import aggregate
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    settings = {tuple(k.split("/")): v for k, v in snakemake.input.items() if "/" in k}
    store.write_table(snakemake.output.agg, aggregate(settings), {"experiment": snakemake.wildcards.cell})
    parts = []
    for (_, algorithm), paths in settings.items():
        for path in paths:
            frame = store.read_table(store.summary_path(path)).to_pandas()
            frame.insert(0, "algorithm", algorithm)
            parts.append(frame)
    summaries = pd.concat(parts, ignore_index=True)
    store.write_table(
        snakemake.output.summaries,
        pa.Table.from_pandas(summaries, preserve_index=False),
        {"experiment": snakemake.wildcards.cell},
    )
    log.info("%d settings of %s aggregated", len(settings), snakemake.wildcards.cell)
