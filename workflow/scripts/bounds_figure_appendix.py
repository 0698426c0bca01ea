"""Rule bounds_figure_appendix: UCB-PCB and OAM-PCB against their counterparts (an addition)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import figures as bounds_figures

online = snakemake.params.online
with logged(snakemake.log[0]):
    appendix = store.read_table(snakemake.input.appendix).to_pandas()
    main = store.read_table(snakemake.input.main).to_pandas()
    subtitle = snakemake.params.scale
    bounds_figures.figure_appendix(appendix, main, snakemake.output.pdf, snakemake.output.png, subtitle=subtitle)
