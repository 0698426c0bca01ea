"""Rule nonmanip_knobs_report: the knob study's figure, table and findings."""

import pandas as pd
import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import knobs

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    finals = []
    for key, paths in snakemake.input.items():
        if key.count("/") == 2:  # <panel>/<strategy>/<algorithm>
            panel, strategy, algorithm = key.split("/")
            finals += [
                pq.read_table(f, columns=["seed", "final_regret"])
                .to_pandas()
                .assign(panel=panel, strategy=strategy, algorithm=algorithm)
                for f in paths
            ]
    table = knobs.knob_table(pd.concat(finals, ignore_index=True), p.pomis_plus, p.horizon)
    found = knobs.findings(table)
    store.write_atomic(out.table, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    store.write_json(out.findings, found)
    md = knobs.markdown(table, found, p.titles)
    store.write_atomic(out.md, lambda tmp: tmp.write_text(md))
    knobs.figure(table, p.titles, out.pdf, out.png)
    for panel, per in found.items():
        for algorithm, f in per.items():
            log.info("%s %s: %s", panel, algorithm, f["finding"])
