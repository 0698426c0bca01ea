"""Rule cpe_tables: Tables 1-4 [designed] as CSV (full precision) and Markdown."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import results, tables

inp, out = snakemake.input, snakemake.output
with logged(snakemake.log[0]) as log:
    found = results.load(inp.stopping, inp.budget, inp.quantities, inp.theory)
    stopping, quantities = found["stopping"], found["quantities"]
    made = {
        "instances": tables.instances_table(quantities, found["theory"]),
        "pac": tables.printed(tables.pac_table(stopping)),
        "lower_bound": tables.printed(tables.lower_bound_table(stopping, quantities)),
        "slopes": tables.printed(tables.slopes_table(stopping)),
    }
    for i, (name, table) in enumerate(made.items(), start=1):
        csv, md = out[f"table{i}_{name}_csv"], out[f"table{i}_{name}_md"]
        store.write_atomic(csv, lambda tmp, t=table: t.to_csv(tmp, index=False))
        store.write_atomic(md, lambda tmp, t=table, n=name: tmp.write_text(tables.markdown(t, n)))
        log.info("table %d (%s): %d rows", i, name, len(table))
