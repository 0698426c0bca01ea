"""Rule bounds_table2: the CPT of Table 2 with the generated rows' empirical frequencies."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import scm as bounds
from causal_bandits.papers.bounds import tables as bounds_tables

with logged(snakemake.log[0]) as log:
    full = store.read_table(snakemake.input.full).to_pandas()
    table = bounds_tables.table2(bounds.model({"scm": snakemake.params.scm}), full)
    md = bounds_tables.table2_markdown(table, len(full))
    store.write_atomic(snakemake.output.csv, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    store.write_atomic(snakemake.output.md, lambda tmp: tmp.write_text(md))
    log.info("largest |z| = %.2f", table["z"].abs().max())
