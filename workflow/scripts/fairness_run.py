"""Rule fairness_run: one seed chunk of one algorithm on one experiment, to the run store."""

from causal_bandits import store
from causal_bandits.papers.fairness.io import step
from causal_bandits.papers.fairness.runs import run_chunk

p, wc, out = snakemake.params, snakemake.wildcards, snakemake.output
with step(snakemake.log[0]):
    run_chunk(
        store.read_json(snakemake.input.instance),
        wc.algorithm,
        p.seeds,
        p.run,
        out.trace,
        out.summary,
        store.provenance(p.run),
    )
