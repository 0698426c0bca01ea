"""Rule bounds_coverage: BCE bounds and the truth on fresh offline datasets."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import offline as bounds_offline
from causal_bandits.papers.bounds import scm as bounds

p = snakemake.params
with logged(snakemake.log[0]) as log:
    off = p.offline
    frame = bounds_offline.coverage(
        bounds.model({"scm": p.scm}),
        n_rows=off["n_rows"],
        n_datasets=off["coverage_datasets"],
        adjust=tuple(off["biased_adjust"]),
        min_count=off["min_cell_count"],
    )
    store.write_table(
        snakemake.output[0],
        pa.Table.from_pandas(frame, preserve_index=False),
        store.provenance({"scm": p.scm, "offline": off}),
    )
    cond = frame[frame["variant"] == "conditional"].groupby("dataset")["covered"]
    log.info(
        "%d datasets: all 16 cells covered in %.1f %%, %.2f cells on average",
        cond.ngroups,
        100 * cond.all().mean(),
        cond.sum().mean(),
    )
