"""Rule experiments_instance: an own experiment's arms, exact means and arm lists, as JSON."""

from causal_bandits import store
from causal_bandits.experiments.instance import instance_document
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    doc = instance_document(snakemake.wildcards.experiment, snakemake.params.experiment)
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%s: mu* = %.6f (%s); arms %s",
        doc["experiment"],
        doc["mu_star"],
        ", ".join(doc["optimal_arms"]),
        {k: len(v) for k, v in doc["arm_lists"].items()},
    )
