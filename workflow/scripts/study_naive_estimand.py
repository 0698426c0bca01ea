"""Rule naive_estimand: whether the naive estimand's best arm differs from the true one over E3's (ρ, ρ_Y) grid,
and the study's claims."""

from causal_bandits import store, studies
from causal_bandits.logs import logged
from causal_bandits.studies import naive_estimand

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    table = naive_estimand.grid(p.section["rho"], p.section["rho_Y"])
    store.write_atomic(out.csv, lambda tmp: table.to_csv(tmp, index=False))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(naive_estimand.markdown(table)))
    rows = [c.check({"table": table}) for c in naive_estimand.claims({})]
    finding = naive_estimand.finding(table)
    scale = f"exact, {len(table)} (ρ, ρ_Y) points"
    located = {"naive-fails-E3": naive_estimand.finding_record(table)}
    store.write_json(out.claims, studies.document("naive_estimand", scale, rows, located))
    log.info("%s", finding)
