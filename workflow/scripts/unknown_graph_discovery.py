"""Rule unknown_graph_discovery: V6 sampled discovery reliability for one regime and one height."""

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph.discovery_checks import sampled_discovery

d, regime, h = snakemake.params.discovery, snakemake.wildcards.regime, int(snakemake.wildcards.height)
with logged(snakemake.log[0]) as log:
    rows = [sampled_discovery(regime, h, delta, c_B, d["n_seeds"]) for delta in d["deltas"] for c_B in d["c_B"]]
    frame = pd.DataFrame(rows)
    store.write_table(
        snakemake.output[0], pa.Table.from_pandas(frame, preserve_index=False), store.provenance({"discovery": d})
    )
    log.info("%d settings of regime %s, height %d", len(rows), regime, h)
