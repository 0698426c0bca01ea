"""Rule nonmanip_table1: Table 1 as CSV (long; algorithms by label) and Markdown (the paper's layout)."""

from pathlib import Path

from causal_bandits import algorithms, store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import PAPER, efficiency, tables

with logged(snakemake.log[0]):
    instances = {Path(p).stem: store.read_json(p) for p in snakemake.input.instances}
    aggs = {Path(p).stem: store.read_table(p).to_pandas() for p in snakemake.input.agg}
    catalogues = {Path(p).stem: store.read_json(p) for p in snakemake.input.catalogues}
    table = tables.table1(aggs, instances)
    store.write_atomic(
        snakemake.output.csv, lambda tmp: algorithms.shown(PAPER, table).to_csv(tmp, index=False, float_format="%.6g")
    )
    titles = {k: v["title"] for k, v in instances.items()}
    md = tables.table1_markdown(table, titles, snakemake.params.pomis_plus, catalogues)
    documents = {Path(p).stem: store.read_json(p) for p in snakemake.input.efficiency}
    md += efficiency.efficiency_note(documents, titles)
    store.write_atomic(snakemake.output.md, lambda tmp: tmp.write_text(md))
