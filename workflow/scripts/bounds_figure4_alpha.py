"""Rule bounds_figure4_alpha: Figure 4 for each sensitivity alpha (an addition)."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import figures as bounds_figures
from causal_bandits.papers.bounds import runs as bounds_runs

online = snakemake.params.online
with logged(snakemake.log[0]):
    aggs = {a: store.read_table(path).to_pandas() for a, path in zip(online["sensitivity_alphas"], snakemake.input.agg)}
    subtitle = snakemake.params.scale
    bounds_figures.figure4_alpha(
        aggs, list(bounds_runs.FIGURE4), snakemake.output.pdf, snakemake.output.png, subtitle=subtitle
    )
