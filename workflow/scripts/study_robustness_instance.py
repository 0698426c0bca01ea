"""Rule robustness_instance: one instance (graph, N, random SCM) with exact arm means, and its POMIS+ catalogue."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import experiments
from causal_bandits.papers.nonmanip.catalogue import catalogue_document
from causal_bandits.studies.robustness_instances import Instance, instance_panel

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    inst = Instance(*p.instance)
    graphs = store.read_json(snakemake.input.graphs[0]) if snakemake.input.graphs else None
    doc = experiments.instance_document(inst.id, instance_panel(inst, p.config, graphs))
    store.write_json(out.instance, doc)
    catalogue = catalogue_document(doc)
    store.write_json(out.catalogue, catalogue)
    log.info(
        "%s: mu* = %.6f (%s); arms %s; %d expressions",
        inst.id,
        doc["mu_star"],
        ", ".join(doc["optimal_arms"]),
        {k: len(v) for k, v in doc["arm_lists"].items()},
        catalogue["n_expressions"],
    )
