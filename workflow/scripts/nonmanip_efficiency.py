"""Rule nonmanip_efficiency: the efficiency of a panel's z² estimators on its SCM, as JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import efficiency

with logged(snakemake.log[0]) as log:
    doc = efficiency.canonical(store.read_json(snakemake.input.instance))
    store.write_json(snakemake.output[0], doc)
    log.info("%s: panel efficiency %.6g", doc["panel"], doc["panel_efficiency"])
