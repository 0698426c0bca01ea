"""Rule unknown_graph_readings: exact-test outcomes of the printed and corrected readings."""

import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph.discovery_checks import exact_readings

with logged(snakemake.log[0]):
    frame = pd.DataFrame(exact_readings(snakemake.params.section))
    store.write_table(
        snakemake.output[0],
        pa.Table.from_pandas(frame, preserve_index=False),
        store.provenance({"discovery": snakemake.params.section["discovery"]}),
    )
