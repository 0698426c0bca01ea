"""Rule same_means_family: a panel's same-means SCMs and the efficiency of its z² estimators, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.studies import same_means_family

p, panel = snakemake.params, snakemake.wildcards.experiment
with logged(snakemake.log[0]) as log:
    doc = same_means_family.family(panel, p.panel, **p.sweep)
    store.write_json(snakemake.output[0], doc)
    log.info(
        "%s: %s; efficiency %s",
        doc["panel"],
        doc["direction_note"],
        ", ".join(f"{pt['panel_efficiency']:.4g}" for pt in doc["points"]),
    )
