"""Rule bounds_table1: Table 1 of one estimand variant, ours beside the paper's (CSV and Markdown)."""

import pandas as pd

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import tables as bounds_tables

variant = snakemake.wildcards.variant
with logged(snakemake.log[0]):
    frame = store.read_table(snakemake.input.estimates).to_pandas()
    exact = pd.DataFrame(store.read_json(snakemake.input.exact)["tables"][variant]).sort_values("index")
    table = bounds_tables.table1(frame, exact)
    checks = bounds_tables.table1_checks(table) if variant == "paper_marginal" else None
    md = bounds_tables.table1_markdown(table, variant, checks)
    store.write_atomic(snakemake.output.csv, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    store.write_atomic(snakemake.output.md, lambda tmp: tmp.write_text(md))
