"""Rule cpe_figures: Figures 0-6 [designed] from the aggregated runs and the E4b theory curves."""
from pathlib import Path

import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import figures, tables

inp, p = snakemake.input, snakemake.params
with logged(snakemake.log[0]) as log:
    stopping = {Path(x).name.removesuffix(".parquet"): pq.read_table(x).to_pandas() for x in inp.stopping}
    budgets = {Path(x).name.removesuffix(".budget.parquet"): pq.read_table(x).to_pandas() for x in inp.budget}
    quantities = {(Path(x).parent.name, Path(x).name.removesuffix(".json")): store.read_json(x)
                  for x in inp.quantities}
    written = figures.make_all(stopping, budgets, p.experiments, store.read_json(inp.theory), p.delta,
                               tables.lower_bound_table(stopping, quantities))
    log.info("wrote %s", ", ".join(written))
