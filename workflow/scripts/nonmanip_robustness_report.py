"""Rule nonmanip_robustness_report: the robustness figure and table (designed for this replication)."""

import pandas as pd

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import figures, robustness, tables

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]):
    orderings = pd.read_csv(snakemake.input.orderings)
    graphs = store.read_json(snakemake.input.graphs[0]) if snakemake.input.graphs else None
    scale = (
        f"Each instance: {p.robustness['n_seeds']} simulations of T = {p.robustness['horizon']:,} rounds per "
        f"strategy and solver."
    )
    md = tables.robustness_markdown(
        tables.robustness_shares(orderings),
        graphs,
        p.titles,
        scale,
        robustness.graphs_run(graphs, p.robustness) if graphs else 0,
    )
    store.write_atomic(out.md, lambda tmp: tmp.write_text(md))
    figures.robustness_figure(
        orderings,
        out.pdf,
        out.png,
        scale=f"each point: mean final regrets over "
        f"{p.robustness['n_seeds']} seeds of T = {p.robustness['horizon']:,} rounds per strategy",
    )
