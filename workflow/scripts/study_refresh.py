"""Rule refresh_report: the refresh study's paired table and its claims."""

from causal_bandits import algorithms, store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import PAPER
from causal_bandits.studies import refresh

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    finals = read_finals(snakemake.input, ("run", "panel", "algorithm"))
    paired = refresh.paired_table(finals, p.section, p.main_refresh, p.horizon)
    store.write_atomic(
        out.csv, lambda tmp: algorithms.shown(PAPER, paired).to_csv(tmp, index=False, float_format="%.6g")
    )
    store.write_atomic(out.md, lambda tmp: tmp.write_text(refresh.markdown(paired, p.titles)))
    rows = [claim.check({"paired": paired}) for claim in refresh.claims({})]
    scale = f"T = {p.horizon:,}, seeds 0–{p.section['n_seeds'] - 1} of the main run"
    store.write_json(out.claims, studies.document("refresh", scale, rows, refresh.findings(paired)))
    log.info("%d claims, %d findings", len(rows), len(paired))
