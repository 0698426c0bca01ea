"""Rule nonmanip_robustness_instance: one robustness instance (graph, N, random SCM) with exact arm means."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import experiments
from causal_bandits.papers.nonmanip.robustness import instance_panel

with logged(snakemake.log[0]) as log:
    name = snakemake.wildcards.experiment
    graphs = store.read_json(snakemake.input.graphs[0]) if snakemake.input.graphs else None
    doc = experiments.instance_document(name, instance_panel(name, snakemake.params.config, graphs))
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%s: mu* = %.6f (%s); arms %s",
        name,
        doc["mu_star"],
        ", ".join(doc["optimal_arms"]),
        {k: len(v) for k, v in doc["arm_lists"].items()},
    )
