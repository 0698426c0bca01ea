"""Rule bounds_figure3: offline bounds and baselines per Table 1 index (one variant)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import figures as bounds_figures

with logged(snakemake.log[0]):
    frame = store.read_table(snakemake.input.estimates).to_pandas()
    bounds_figures.figure3(frame, snakemake.wildcards.variant, snakemake.output.pdf, snakemake.output.png)
