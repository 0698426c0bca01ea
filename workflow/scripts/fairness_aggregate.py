"""Rule fairness_aggregate: regret curves and per-seed unfair-decision counts of one experiment."""
from pathlib import Path

import pyarrow as pa

from causal_bandits import store
from causal_bandits.papers.fairness import runs as fr
from causal_bandits.papers.fairness.io import step

p = snakemake.params
with step(snakemake.log[0]) as log:
    paths = {}
    for f in snakemake.input.runs:
        paths.setdefault(Path(f).parent.name, []).append(f)
    runs = fr.read_runs(paths)
    meta = {"experiment": snakemake.wildcards.experiment,
            "data_provenance": store.read_metadata(snakemake.input.runs[0])["data_provenance"]}
    store.write_table(snakemake.output.curves, pa.Table.from_pandas(fr.curves(runs, p.record_points),
                                                                    preserve_index=False), meta)
    summary = fr.seed_summary(runs, p.taus)
    store.write_table(snakemake.output.summary, pa.Table.from_pandas(summary, preserve_index=False), meta)
    log.info("mean final regret: %s", summary.groupby("algorithm")["final_regret"].mean().round(2).to_dict())
