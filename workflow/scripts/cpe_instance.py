"""Rule cpe_instance: one config's instance document (exact means from the family's closed form), as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe.families import from_config

with logged(snakemake.log[0]) as log:
    instance = from_config(snakemake.params.spec)
    store.write_json(snakemake.output[0], instance.to_document())
    log.info("%s %s: %d arms, mu* = %.6f", instance.family, dict(instance.params), instance.n_arms, instance.mu.max())
