"""Rule unknown_graph_run: one seed chunk of one V1-V4 cell and algorithm, to Parquet."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import runs

p, wc = snakemake.params, snakemake.wildcards
with logged(snakemake.log[0]):
    run = p.run  # what the results depend on: the provenance hash's input
    runs.run_chunk(
        run["section"],
        cell=wc.experiment,
        spec=run["spec"],
        algorithm=wc.algorithm,
        seeds=range(*p.seeds),
        horizon=run["section"]["horizon"],
        record_points=run["record_points"],
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(run),
    )
