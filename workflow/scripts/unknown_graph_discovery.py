"""Rule unknown_graph_discovery: the V6 sampled discovery reliability of one regime, height and (delta, c_B)."""

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph.discovery_checks import sampled_discovery

d, regime, h = snakemake.params.discovery, snakemake.wildcards.regime, int(snakemake.wildcards.height)
delta, c_B = snakemake.params.setting
with logged(snakemake.log[0]) as log:
    frame = pd.DataFrame([sampled_discovery(regime, h, delta, c_B, d["n_seeds"])])
    store.write_table(
        snakemake.output[0], pa.Table.from_pandas(frame, preserve_index=False), store.provenance({"discovery": d})
    )
    log.info("regime %s, height %d, delta %g, c_B %g", regime, h, delta, c_B)
