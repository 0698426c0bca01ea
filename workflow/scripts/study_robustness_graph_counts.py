"""Rule robustness_graph_counts: how many fitting graphs give the paper's 24 expressions."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.studies.robustness_instances import graph_counts

with logged(snakemake.log[0]) as log:
    doc = graph_counts(store.read_json(snakemake.input.graphs), snakemake.params.up_to_edges)
    store.write_json(snakemake.output[0], doc)
    log.info(
        "of the %d fitting graphs with at most %d edges, %d give 24 expressions",
        doc["n_counted"],
        doc["expressions_counted_up_to_edges"],
        doc["n_counted_with_paper_expressions"],
    )
