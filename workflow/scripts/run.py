"""Every run rule: one seed chunk of one run job (causal_bandits.runs.RunJob, described by the library), stored."""

from causal_bandits import runs
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    job = runs.RunJob(**snakemake.params.job)
    runs.execute(job, dict(snakemake.input.items()), snakemake.output.trace, snakemake.output.summary)
