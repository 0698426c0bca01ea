"""Rules unknown_graph_fig1_instance and unknown_graph_instances: instances written out as data
(graph, SCM, the exact mean of every single-node intervention, the derived constants)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import families, inputs, runs

p = snakemake.params
with logged(snakemake.log[0]) as log:
    if p.cell is None:  # Figure 1's reconstructed tree
        doc = inputs.instance_document(families.figure1(p.variant), p.delta, p.c_B, "tree")
    else:  # every seed's instance of one V1-V4 cell, as its runs draw them
        algorithm = runs.CN_ALGORITHM[p.spec["family"]]
        doc = {
            "cell": p.cell,
            "spec": p.spec,
            "instances": [
                inputs.instance_document(runs.instance(p.cell, p.spec, seed), p.delta, p.c_B, algorithm)
                for seed in range(p.n_seeds)
            ],
        }
    store.write_json(snakemake.output[0], doc)
    log.info("wrote %s", snakemake.output[0])
