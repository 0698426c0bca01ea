"""Rule unknown_graph_fig1_trace: CN-UCB's discovery on the Figure-1 tree, traced to JSON."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph.trace import figure1_trace

p = snakemake.params
with logged(snakemake.log[0]) as log:
    trace = figure1_trace(p.variant, p.delta, p.c_B)
    store.write_json(snakemake.output[0], trace)
    log.info("output %s after %d rounds (B = %d)", trace["output"], trace["rounds"], trace["B"])
