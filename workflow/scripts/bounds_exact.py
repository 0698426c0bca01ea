"""Rule bounds_exact: ground truth by enumeration (pgmpy) for every (context, arm) cell."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import offline as bounds_offline
from causal_bandits.papers.bounds import scm as bounds

p = snakemake.params
with logged(snakemake.log[0]) as log:
    doc = bounds_offline.exact_document(bounds.model({"scm": p.scm}), adjust=tuple(p.adjust), n_rows=p.n_rows)
    store.write_json(snakemake.output[0], doc)
    log.info("mu*(c) = %s, optimal arms %s, P(S=1) = %.5f", doc["mu_star"], doc["optimal_arms"], doc["p_selected"])
