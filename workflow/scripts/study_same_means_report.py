"""Rule same_means_report: the same-means sweep's figures, table and claims."""

from pathlib import Path

from causal_bandits import store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.logs import logged
from causal_bandits.studies import same_means_outputs as outputs

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    families = {Path(f).parent.name: store.read_json(f) for f in snakemake.input.families}
    finals = read_finals(snakemake.input, ("point", "panel", "strategy", "algorithm"), ["final_regret"])
    table = outputs.sweep_table(finals.astype({"point": int}), families, p.horizon)
    found = outputs.findings(table, families)
    store.write_atomic(out.table, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(outputs.markdown(table, families, found, p.titles)))
    for panel in families:
        pdf, png = (f for f in out.figures if Path(f).stem == panel)
        outputs.figure(table, panel, p.titles[panel], pdf, png)
    rows = [claim.check({"findings": found}) for claim in outputs.claims({"panels": p.titles})]
    scale = f"T = {p.horizon:,}, {p.section['n_seeds']} seeds per point"
    store.write_json(out.claims, studies.document("same_means", scale, rows, outputs.located(table, found)))
    for panel, f in found.items():
        log.info("%s: %s", panel, f["finding"])
