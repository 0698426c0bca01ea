"""Rule refresh_report: the refresh study's paired table and its claims."""

import pandas as pd
import pyarrow.parquet as pq

from causal_bandits import algorithms, store, studies
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import PAPER
from causal_bandits.studies import refresh

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    finals = [
        pq.read_table(path, columns=["seed", "final_regret"])
        .to_pandas()
        .assign(run=key.split("/")[0], panel=key.split("/")[1], algorithm=key.split("/")[2])
        for key, paths in snakemake.input.items()
        if key.count("/") == 2  # <run>/<panel>/<algorithm>
        for path in paths
    ]
    paired = refresh.paired_table(pd.concat(finals, ignore_index=True), p.section, p.main_refresh, p.horizon)
    store.write_atomic(
        out.csv, lambda tmp: algorithms.shown(PAPER, paired).to_csv(tmp, index=False, float_format="%.6g")
    )
    store.write_atomic(out.md, lambda tmp: tmp.write_text(refresh.markdown(paired, p.titles)))
    rows = [claim.check({"paired": paired}) for claim in refresh.claims({})]
    scale = f"T = {p.horizon:,}, seeds 0–{p.section['n_seeds'] - 1} of the main run"
    store.write_json(out.claims, studies.document("refresh", scale, rows, refresh.findings(paired)))
    log.info("%d claims, %d findings", len(rows), len(paired))
