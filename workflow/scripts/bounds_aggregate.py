"""Rule bounds_aggregate: per-round statistics over seeds for every algorithm of a setting."""

from causal_bandits import aggregate, store
from causal_bandits.logs import logged

with logged(snakemake.log[0]):
    setting = snakemake.wildcards.setting
    files = {(setting, k): v for k, v in snakemake.input.items()}
    store.write_table(snakemake.output[0], aggregate.aggregate(files), {"setting": setting})
