"""Rule fairness_radius_table: the radius study's table (CSV, Markdown) and its finding."""

import pandas as pd
import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.papers.fairness import radius_study
from causal_bandits.papers.fairness.claims import TABLE1
from causal_bandits.papers.fairness.io import step

out, p = snakemake.output, snakemake.params
with step(snakemake.log[0]) as log:
    runs = pd.concat([pq.read_table(f).to_pandas() for f in snakemake.input.runs], ignore_index=True)
    tab = radius_study.table(runs, {t: v[0] for t, v in TABLE1.items()})
    store.write_atomic(out.csv, lambda tmp: tab.to_csv(tmp, index=False))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(radius_study.markdown(tab, p.scale)))
    store.write_json(out.findings, {"finding": radius_study.finding(tab), "scale": p.scale})
    log.info("%s", radius_study.finding(tab))
