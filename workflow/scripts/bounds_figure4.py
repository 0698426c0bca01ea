"""Rule bounds_figure4: Figure 4 and the final regrets of its four algorithms."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.bounds import figures as bounds_figures
from causal_bandits.papers.bounds import runs as bounds_runs
from causal_bandits.papers.bounds import tables as bounds_tables

online = snakemake.params.online
with logged(snakemake.log[0]):
    agg = store.read_table(snakemake.input.agg).to_pandas()
    algorithms = list(bounds_runs.FIGURE4)
    subtitle = f"{snakemake.params.scale}, α = {online['alpha']:g}"
    bounds_figures.figure4(
        agg, algorithms, snakemake.output.figure4_pdf, snakemake.output.figure4_png, subtitle=subtitle
    )
    final = bounds_tables.final_table(agg, algorithms)
    store.write_atomic(
        snakemake.output.figure4_final_csv, lambda tmp: final.to_csv(tmp, index=False, float_format="%.4f")
    )
