"""Rule unknown_graph_lower_bounds: V5, one algorithm on every Thm 4 / Thm 5 instance."""

from causal_bandits import store
from causal_bandits.logs import logged
from causal_bandits.papers.unknown_graph import runs

p, wc = snakemake.params, snakemake.wildcards
with logged(snakemake.log[0]):
    science = {
        "lower_bounds": p.section["lower_bounds"],
        "ucb_c": p.section["ucb_c"],
        "ucb_arms": p.section["ucb_arms"],
        "reading": p.section["reading"],
    }
    runs.lower_bound_runs(
        p.section,
        theorem=int(wc.theorem),
        algorithm=wc.algorithm,
        path=snakemake.output[0],
        metadata=store.provenance(science),
    )
