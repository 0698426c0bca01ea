"""Rule fairness_run: one seed chunk of one algorithm on one experiment, every round to Parquet."""
from causal_bandits import store
from causal_bandits.papers.fairness.io import step
from causal_bandits.papers.fairness.runs import run_chunk

p, wc = snakemake.params, snakemake.wildcards
with step(snakemake.log[0]):
    run_chunk(store.read_json(snakemake.input.instance), wc.method, p.seeds, p.run, snakemake.output[0],
              store.provenance(p.run))
