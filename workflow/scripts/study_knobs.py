"""Rule knobs_report: the knob study's figure, table and claims."""

import pandas as pd
import pyarrow.parquet as pq

from causal_bandits import store, studies
from causal_bandits.logs import logged
from causal_bandits.studies import knobs

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    finals = [
        pq.read_table(path, columns=["seed", "final_regret"])
        .to_pandas()
        .assign(point=key.split("/")[0], panel=key.split("/")[1], algorithm=key.split("/")[2])
        for key, paths in snakemake.input.items()
        if key.count("/") == 2  # <point>/<panel>/<algorithm>
        for path in paths
    ]
    table = knobs.knob_table(pd.concat(finals, ignore_index=True), p.section, p.pomis_plus, p.horizon)
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
