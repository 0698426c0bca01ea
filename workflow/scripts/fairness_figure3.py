"""Rule fairness_figure3: Figure 3, the learned Adult-Video graph."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.fairness import figures as ff

with logged(snakemake.log[0]):
    ff.figure3(
        store.read_json(snakemake.input.graph),
        store.read_json(snakemake.input.instance),
        snakemake.output.pdf,
        snakemake.output.png,
    )
