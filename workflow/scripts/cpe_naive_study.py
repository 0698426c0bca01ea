"""Rule cpe_naive_study: whether the naive estimand's best arm differs from the true one over E3's (ρ, ρ_Y) grid."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import naive_study

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    table = naive_study.grid(p.study["rho"], p.study["rho_Y"])
    store.write_atomic(out.csv, lambda tmp: table.to_csv(tmp, index=False))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(naive_study.markdown(table)))
    log.info("%s", naive_study.finding(table))
