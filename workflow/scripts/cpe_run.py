"""Rule cpe_run: one seed chunk of one (config, strategy, algorithm), to Parquet."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import runs
from causal_bandits.papers.cpe.design import Job

p = snakemake.params
with logged(snakemake.log[0]):
    run = p.run  # what the results depend on: the provenance hash's input
    job = Job(**run["job"])
    runs.run_chunk(
        store.read_json(snakemake.input.instance),
        job,
        delta=run["delta"],
        epsilon=run["epsilon"],
        seeds=range(*p.seeds),
        horizon=run["horizon"],
        checkpoint_first=run["checkpoint_first"],
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(run),
    )
