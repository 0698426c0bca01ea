"""Rule nonmanip_sensitivity_report: the same-means sweep's figures, table and findings."""

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import sensitivity
from causal_bandits.papers.nonmanip import sensitivity_outputs as outputs

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    families = {Path(f).stem: store.read_json(f) for f in snakemake.input.families}
    finals = []
    for key, paths in snakemake.input.items():
        if key.count("/") == 2:  # <experiment>/<strategy>/<algorithm>
            experiment, strategy, algorithm = key.split("/")
            panel, point = sensitivity.point_of(experiment)
            finals += [
                pq.read_table(f, columns=["final_regret"])
                .to_pandas()
                .assign(panel=panel, point=point, strategy=strategy, algorithm=algorithm)
                for f in paths
            ]
    table = outputs.sweep_table(pd.concat(finals, ignore_index=True), families, p.horizon)
    found = outputs.findings(table, families)
    store.write_atomic(out.table, lambda tmp: table.to_csv(tmp, index=False, float_format="%.6g"))
    store.write_json(out.findings, found)
    md = outputs.markdown(table, families, found, p.titles)
    store.write_atomic(out.md, lambda tmp: tmp.write_text(md))
    for panel in families:
        pdf, png = (f for f in out.figures if Path(f).stem == f"sensitivity_{panel}")
        outputs.figure(table, panel, p.titles[panel], pdf, png)
    for panel, f in found.items():
        log.info("%s: %s", panel, f["finding"])
