"""Rule unknown_graph_discovery_table: one regime's V6 rows, every height and (delta, c_B) setting, in one table."""

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    frame = pd.concat([store.read_table(path).to_pandas() for path in snakemake.input.parts], ignore_index=True)
    store.write_table(
        snakemake.output[0],
        pa.Table.from_pandas(frame, preserve_index=False),
        store.provenance({"discovery": snakemake.params.discovery}),
    )
    log.info("%d rows from %d parts", len(frame), len(snakemake.input.parts))
