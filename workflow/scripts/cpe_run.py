"""Rule cpe_run: one seed chunk of one (config, strategy, algorithm), to Parquet."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import runs
from causal_bandits.papers.cpe.design import Job

p = snakemake.params
with logged(snakemake.log[0]):
    job = Job(**p.job)
    science = {
        "job": p.job,
        "epsilon": p.epsilon,
        "delta": p.delta,
        "horizon": p.horizon,
        "checkpoint_first": p.checkpoint_first,
    }
    runs.run_chunk(
        store.read_json(snakemake.input.instance),
        job,
        delta=p.delta,
        epsilon=p.epsilon,
        seeds=range(*p.seeds),
        horizon=p.horizon,
        checkpoint_first=p.checkpoint_first,
        trace_path=snakemake.output.trace,
        summary_path=snakemake.output.summary,
        metadata=store.provenance(science),
    )
