"""Rule nonmanip_figure5: Figure 5 and the optimal-arm probability figure (an addition)."""

from pathlib import Path

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.nonmanip import figures as nonmanip_figures
from causal_bandits.scm.diagram import CausalDiagram

out = snakemake.output
with logged(snakemake.log[0]):
    instances = {Path(p).stem: store.read_json(p) for p in snakemake.input.instances}
    aggs = {Path(p).stem: store.read_table(p).to_pandas() for p in snakemake.input.agg}
    titles = {k: v["title"] for k, v in instances.items()}
    last = instances[list(instances)[-1]]
    graph = CausalDiagram.from_dict(last["graph"])
    nonmanip_figures.figure5(aggs, titles, graph, last["N"], out.figure5_pdf, out.figure5_png)
    nonmanip_figures.figure5_optimal_arm(aggs, titles, out.figure5_optimal_arm_pdf, out.figure5_optimal_arm_png)
