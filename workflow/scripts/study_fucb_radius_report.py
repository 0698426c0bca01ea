"""Rule fucb_radius_report: the F-UCB radius study's table (CSV, Markdown) and its claims."""

from causal_bandits import store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.logs import logged
from causal_bandits.papers.fairness.claims import TABLE1
from causal_bandits.studies import fucb_radius

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    found = read_finals(snakemake.input, ("point", "algorithm"), ("seed", "final_regret", "uncertified"))
    tab = fucb_radius.table(fucb_radius.finals(found, p.section), {t: v[0] for t, v in TABLE1.items()})
    finding = fucb_radius.finding(tab)
    store.write_atomic(out.csv, lambda tmp: tab.to_csv(tmp, index=False))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(fucb_radius.markdown(tab, p.scale)))
    rows = [c.check({"finding": finding, "scale": p.scale}) for c in fucb_radius.claims({})]
    located = {"table1-fucb-regret-decreasing": fucb_radius.finding_record(tab, p.main)}
    store.write_json(out.claims, studies.document("fucb_radius", p.scale, rows, located))
    log.info("%s", finding)
