"""Rule same_means_instance: one same-means point's instance (arms, exact means, efficiencies) and its POMIS+
expression catalogue, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip.catalogue import catalogue_document
from causal_bandits.studies import same_means_family

out, wc = snakemake.output, snakemake.wildcards
with logged(snakemake.log[0]) as log:
    doc = same_means_family.point_instance(
        snakemake.params.panel, store.read_json(snakemake.input.family), int(wc.point)
    )
    store.write_json(out.instance, doc)
    catalogue = catalogue_document(doc)
    store.write_json(out.catalogue, catalogue)
    log.info(
        "%s point %s: efficiency %.6g, arm means as the canonical SCM's (max change %.2g); %d expressions",
        wc.experiment,
        wc.point,
        doc["sensitivity"]["panel_efficiency"],
        doc["sensitivity"]["max_mean_change"],
        catalogue["n_expressions"],
    )
