"""Rule nonmanip_instance: one Figure 5 panel's arms and exact means, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import experiments

with logged(snakemake.log[0]) as log:
    doc = experiments.instance_document(snakemake.wildcards.experiment, snakemake.params.panel)
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%s: mu* = %.6f (%s); arms %s",
        doc["experiment"],
        doc["mu_star"],
        ", ".join(doc["optimal_arms"]),
        {k: len(v) for k, v in doc["arm_lists"].items()},
    )
