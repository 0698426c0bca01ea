"""Rule nonmanip_run: one seed chunk of one (panel, arm set, algorithm), to Parquet."""
from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import runs

p, wc = snakemake.params, snakemake.wildcards
with logged(snakemake.log[0]):
    science = {"panel": p.panel, "horizon": p.horizon, "record_points": p.record_points}
    runs.run_chunk(
        store.read_json(snakemake.input.instance),
        strategy=wc.strategy,
        algorithm=wc.algorithm,
        seeds=range(*p.seeds),
        horizon=p.horizon,
        record_points=p.record_points,
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(science),
    )
