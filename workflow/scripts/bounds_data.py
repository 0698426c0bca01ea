"""Rule bounds_data: the generated rows of the Figure 2 SCM and the selected offline table."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import offline as bounds_offline
from causal_bandits.papers.bounds import scm as bounds

p = snakemake.params
with logged(snakemake.log[0]) as log:
    m = bounds.model({"scm": p.scm})
    full = bounds_offline.generate(m, p.n_rows, "offline", p.seed)
    sel = bounds_offline.selected(m, full)
    meta = {**store.provenance({"scm": p.scm, "n_rows": p.n_rows, "seed": p.seed}), "offline_seed": str(p.seed)}
    store.write_table(snakemake.output.full, bounds_offline.to_arrow(full), meta)
    store.write_table(snakemake.output.selected, bounds_offline.to_arrow(sel), meta)
    log.info("%d rows generated, %d selected (S = 1)", len(full), len(sel))
