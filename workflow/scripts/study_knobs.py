"""Rule knobs_report: the knob study's figure, table and claims."""

from causal_bandits import store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.logs import logged
from causal_bandits.studies import knobs

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    finals = read_finals(snakemake.input, ("point", "panel", "algorithm"))
    table = knobs.knob_table(finals, p.section, p.pomis_plus, p.horizon)
    found = knobs.findings(table)
    store.write_atomic(out.csv, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(knobs.markdown(table, found, p.titles)))
    knobs.figure(table, p.titles, out.pdf, out.png)
    rows = [claim.check({"findings": found}) for claim in knobs.claims({"panels": p.titles})]
    scale = f"T = {p.horizon:,}, seeds 0–{p.section['n_seeds'] - 1} of the main run"
    store.write_json(out.claims, studies.document("knobs", scale, rows, knobs.located(found)))
    for panel, per in found.items():
        for algorithm, f in per.items():
            log.info("%s %s: %s", panel, algorithm, f["finding"])
