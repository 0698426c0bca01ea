"""Rule bounds_figure2: the causal graph of the SCM (Figure 2)."""

from causal_bandits.logs import logged
from causal_bandits.papers.bounds import figures as bounds_figures
from causal_bandits.papers.bounds import scm as bounds

with logged(snakemake.log[0]):
    bounds_figures.figure2(bounds.model({"scm": snakemake.params.scm}), snakemake.output.pdf, snakemake.output.png)
