"""Rule bounds_offline: BCE, CP and Biased on the offline table (both Table 1 variants)."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import offline as bounds_offline
from causal_bandits.papers.bounds import scm as bounds

p, out = snakemake.params, snakemake.output
with logged(snakemake.log[0]) as log:
    m = bounds.model({"scm": p.scm})
    adjust = tuple(p.offline["biased_adjust"])
    full = store.read_table(snakemake.input.full).to_pandas()
    offline = store.read_table(snakemake.input.selected).to_pandas()
    sel, full_joint = bounds_offline.offline_joints(m, full, adjust, selected_rows=offline)
    exact = store.read_json(snakemake.input.exact)
    tables = bounds_offline.estimates(
        m,
        sel,
        full_joint,
        adjust=adjust,
        min_count=p.offline["min_cell_count"],
        the_plan=bounds_offline.plan(m),
        truth=bounds_offline.truths(m),
    )
    summary = bounds_offline.offline_summary(m, full, sel, tables, exact, min_count=p.offline["min_cell_count"])
    meta = store.provenance({"scm": p.scm, "offline": p.offline})
    for variant, frame in tables.items():
        store.write_table(out[variant], pa.Table.from_pandas(frame, preserve_index=False), meta)
    store.write_json(out.summary, summary)
    log.info(
        "%d selected rows; conditional bounds cover %d/16 cells; upper bounds exclude %d cells",
        summary["n_selected"],
        int(tables["conditional"]["covered"].sum()),
        summary["n_excluded_by_upper_bound"],
    )
