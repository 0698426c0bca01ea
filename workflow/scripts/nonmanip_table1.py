"""Rule nonmanip_table1: Table 1 as CSV (long) and Markdown (the paper's layout)."""
from pathlib import Path

import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import tables

with logged(snakemake.log[0]):
    instances = {Path(p).stem: store.read_json(p) for p in snakemake.input.instances}
    aggs = {Path(p).stem: pq.read_table(p).to_pandas() for p in snakemake.input.agg}
    table = tables.table1(aggs, instances)
    store.write_atomic(snakemake.output.csv, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    titles = {k: v["title"] for k, v in instances.items()}
    md = tables.table1_markdown(table, titles)
    store.write_atomic(snakemake.output.md, lambda tmp: tmp.write_text(md))
