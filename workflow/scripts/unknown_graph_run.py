"""Rule unknown_graph_run: one seed chunk of one V1-V4 cell and algorithm, to Parquet."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import runs

p, wc = snakemake.params, snakemake.wildcards
with logged(snakemake.log[0]):
    science = {
        "section": p.section,
        "spec": p.spec,
        "record_points": p.record_points,
    }
    runs.run_chunk(
        p.section,
        cell=wc.experiment,
        spec=p.spec,
        algorithm=wc.algorithm,
        seeds=range(*p.seeds),
        horizon=p.horizon,
        record_points=p.record_points,
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(science),
    )
