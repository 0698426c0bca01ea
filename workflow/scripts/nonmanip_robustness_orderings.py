"""Rule nonmanip_robustness_orderings: per robustness instance and solver, whether each ordering holds."""

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import robustness, tables

with logged(snakemake.log[0]) as log:
    instances = {Path(p).stem: store.read_json(p) for p in snakemake.input.instances}
    frames = []
    for key, paths in snakemake.input.items():
        if key.count("/") != 2:
            continue
        experiment, strategy, algorithm = key.split("/")
        frame = pd.concat([pq.read_table(p, columns=["seed", "final_regret"]).to_pandas() for p in paths])
        frames.append(
            frame.assign(
                experiment=experiment, family=robustness.family(experiment), strategy=strategy, algorithm=algorithm
            )
        )
    finals = pd.concat(frames, ignore_index=True)
    table = tables.robustness_orderings(finals, instances)
    store.write_atomic(snakemake.output[0], lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    log.info(
        "%d instances, %d (instance, solver, ordering) rows; the ordering holds in %d",
        len(instances),
        len(table),
        int(table["holds"].sum()),
    )
