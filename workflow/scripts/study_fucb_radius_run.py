"""Rule fucb_radius_run: F-UCB at every tau for one (alpha_r, alpha_c) point of the radius study."""

import pyarrow as pa

from causal_bandits import store
from causal_bandits.papers.fairness.io import step
from causal_bandits.studies.fucb_radius import run_point

p = snakemake.params
with step(snakemake.log[0]):
    alpha_r, alpha_c = p.alphas
    frame = run_point(store.read_json(snakemake.input.instance), p.run, alpha_r, alpha_c, p.seeds)
    store.write_table(snakemake.output[0], pa.Table.from_pandas(frame, preserve_index=False), store.provenance(p.run))
