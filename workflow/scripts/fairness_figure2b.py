"""Rule fairness_figure2b: Figure 2(b), cumulative regret on Email."""

import pyarrow.parquet as pq

from causal_bandits.papers.fairness import figures as ff
from causal_bandits.papers.fairness.io import step

p = snakemake.params
with step(snakemake.log[0]):
    curves = pq.read_table(snakemake.input.curves).to_pandas()
    ff.figure2b(curves, p.tau, p.scale, snakemake.output.pdf, snakemake.output.png)
