"""Rule fairness_email_instance: the Email SCM's exact quantities, d-separation set and cell models."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import email as fe

p = snakemake.params
with logged(snakemake.log[0]) as log:
    doc = fe.instance_document(p.email, p.dsep_criterion)
    store.write_json(snakemake.output.instance, doc)
    truth = pa.Table.from_pandas(fe.truth_frame(doc), preserve_index=False)
    store.write_table(snakemake.output.truth, truth, {**store.provenance(p.email), "data_provenance": fe.PROVENANCE})
    log.info(
        "W = %s (|W| = %d), Pa(R) = %s, optimal arms %s",
        doc["dsep"]["W"],
        doc["dsep"]["domain_W"],
        doc["pa_R"],
        doc["optimal_arms"],
    )
