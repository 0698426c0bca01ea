"""Every run rule: one seed chunk of one run job (causal_bandits.runs.RunJob, described by the library), stored; or
a batch of them in one process (causal_bandits.runs.RunBatch), each to its own files."""

from causal_bandits import runs
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    output = snakemake.output
    runs.execute_batch(snakemake.params.job, dict(snakemake.input.items()), output.trace, output.summary)
