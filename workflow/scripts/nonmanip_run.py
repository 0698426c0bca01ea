"""Rules nonmanip_run / nonmanip_run_pomisplus: one seed chunk of one (panel, strategy, algorithm), to Parquet."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import runs

p, wc = snakemake.params, snakemake.wildcards
with logged(snakemake.log[0]) as log:
    run = p.run  # what the results depend on: the provenance hash's input
    pomis_plus = {}
    if wc.strategy == runs.POMIS_PLUS:
        pomis_plus = {"catalogue": store.read_json(snakemake.input.catalogue), "pomis_plus": dict(run["pomis_plus"])}
        n = pomis_plus["catalogue"]["n_expressions"]
        log.info(
            "POMIS+ with %d catalogue expressions, settings %s%s",
            n,
            run["pomis_plus"],
            "" if n else ": z2ID found none, so this run plays exactly POMIS",
        )
    runs.run_chunk(
        store.read_json(snakemake.input.instance),
        strategy=wc.strategy,
        algorithm=wc.algorithm,
        policy=p.policy,
        seeds=range(*p.seeds),
        horizon=run["horizon"],
        record_points=run["record_points"],
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(run),
        **pomis_plus,
    )
