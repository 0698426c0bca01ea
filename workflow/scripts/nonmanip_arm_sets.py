"""Rule nonmanip_arm_sets: the structural facts of one paper graph, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import experiments

with logged(snakemake.log[0]) as log:
    doc = experiments.arm_sets_document(snakemake.wildcards.graph)
    store.write_json(snakemake.output[0], doc)
    log.info("%s: %d cases", snakemake.wildcards.graph, len(doc["cases"]))
