"""Rule nonmanip_catalogue: a panel's POMIS+ expression catalogue, validated on its exact SCM, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip.catalogue import catalogue_document

with logged(snakemake.log[0]) as log:
    doc = catalogue_document(store.read_json(snakemake.input.instance))
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%s: %d expressions, %d estimator instances over %d POMIS arms; max error on the exact SCM %.2g%s",
        doc["experiment"],
        doc["n_expressions"],
        sum(doc["n_arm_instances"]),
        len(doc["arms"]),
        doc["max_error"],
        f"; {doc['note']}" if "note" in doc else "",
    )
