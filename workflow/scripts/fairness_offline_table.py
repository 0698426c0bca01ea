"""Rule fairness_offline_table: each offline user with a random video and a simulated reward."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import adult_video as av

cfg = snakemake.params.adult_video
with logged(snakemake.log[0]) as log:
    users = store.read_table(snakemake.input.users).to_pandas()
    pool = store.read_table(snakemake.input.videos).to_pandas()
    table = av.offline_table(users, pool, cfg["arm_features"], cfg["reward"], cfg["seed"])
    provenance = store.read_metadata(snakemake.input.users)["data_provenance"]
    if store.read_metadata(snakemake.input.videos)["data_provenance"] != "raw":
        provenance = "synthetic-standin"
    store.write_table(
        snakemake.output[0],
        pa.Table.from_pandas(table, preserve_index=False),
        {**store.provenance(cfg), "data_provenance": provenance},
    )
    log.info(
        "%d offline rows (%s); R5 counts %s", len(table), provenance, table["R5"].value_counts().sort_index().to_dict()
    )
