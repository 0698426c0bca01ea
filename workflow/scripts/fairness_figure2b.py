"""Rule fairness_figure2b: Figure 2(b), cumulative regret on Email."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import figures as ff

p = snakemake.params
with logged(snakemake.log[0]):
    curves = store.read_table(snakemake.input.curves).to_pandas()
    ff.figure2b(curves, p.tau, p.scale, snakemake.output.pdf, snakemake.output.png)
