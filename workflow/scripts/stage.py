"""Every rule whose job calls one library function: the function its ``params.call`` names (causal_bandits.stages),
given the job (its inputs, outputs, params and wildcards), logged to the job's log."""

from causal_bandits import stages
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    stages.function(snakemake.params.call)(snakemake)
