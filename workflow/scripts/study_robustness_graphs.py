"""Rule robustness_graphs: the graphs consistent with the paper's Fig. 5d facts, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.studies.robustness_instances import graphs_document

with logged(snakemake.log[0]) as log:
    doc = graphs_document(snakemake.params.graphs)
    store.write_json(snakemake.output[0], doc)
    log.info("%d graphs fit the paper's Fig. 5d facts (by edges: %s)", doc["n_fitting"], doc["by_edges"])
