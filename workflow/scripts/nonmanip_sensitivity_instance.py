"""Rule nonmanip_sensitivity_instance: one same-means point's instance (arms, exact means, efficiencies), as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import sensitivity

with logged(snakemake.log[0]) as log:
    name = snakemake.wildcards.experiment
    doc = sensitivity.point_instance(
        name, snakemake.params.panel, store.read_json(snakemake.input.family), sensitivity.point_of(name)[1]
    )
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%s: efficiency %.6g, arm means as the canonical SCM's (max change %.2g)",
        name,
        doc["sensitivity"]["panel_efficiency"],
        doc["sensitivity"]["max_mean_change"],
    )
