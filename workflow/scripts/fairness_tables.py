"""Rule fairness_tables: Tables 1 and 2 (CSV with the paper's numbers beside ours, and Markdown)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import tables as ft
from causal_bandits.papers.fairness.io import write_csv, write_text

out, cfg = snakemake.output, snakemake.params.fairness
with logged(snakemake.log[0]):
    t1 = ft.table1(store.read_table(snakemake.input.email).to_pandas(), cfg, "paper-scm")
    provenance = store.read_json(snakemake.input.adult_instance)["data_provenance"]
    t2 = ft.table2(store.read_table(snakemake.input.adult).to_pandas(), cfg, provenance)
    write_csv(out.table1_csv, t1)
    write_text(out.table1_md, ft.table1_markdown(t1))
    write_csv(out.table2_csv, t2)
    write_text(out.table2_md, ft.table2_markdown(t2))
