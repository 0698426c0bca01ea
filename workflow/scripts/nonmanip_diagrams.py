"""Rule nonmanip_diagrams: Figures 1-4 of the paper (diagrams, MUCT/IB, projections)."""

from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import figures as nonmanip_figures

with logged(snakemake.log[0]):
    paths = {p.rsplit("/", 1)[-1]: p for p in snakemake.output}
    for i, draw in enumerate(
        (nonmanip_figures.figure1, nonmanip_figures.figure2, nonmanip_figures.figure3, nonmanip_figures.figure4), 1
    ):
        draw(paths[f"figure{i}.pdf"], paths[f"figure{i}.png"])
