"""Rule experiments_run: one seed chunk of one (own experiment, strategy, algorithm), to Parquet."""

from causal_bandits import store
from causal_bandits.experiments import KEY
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import runs

p, wc = snakemake.params, snakemake.wildcards
with logged(snakemake.log[0]):
    science = {"experiment": wc.experiment, "horizon": p.horizon, "record_points": p.record_points}
    pomis_plus = {}
    if wc.strategy == runs.POMIS_PLUS:
        pomis_plus = {"catalogue": store.read_json(snakemake.input.catalogue), "pomis_plus": dict(p.pomis_plus)}
        science["pomis_plus"] = pomis_plus["pomis_plus"]
    runs.run_chunk(
        store.read_json(snakemake.input.instance),
        strategy=wc.strategy,
        algorithm=wc.algorithm,
        policy=p.policy,
        seeds=range(*p.seeds),
        horizon=p.horizon,
        record_points=p.record_points,
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(science),
        paper=KEY,
        **pomis_plus,
    )
