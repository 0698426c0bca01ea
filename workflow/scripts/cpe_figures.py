"""Rule cpe_figures: Figures 0-6 [designed] from the aggregated runs and the E4b theory curves."""

from causal_bandits.logs import logged
from causal_bandits.papers.cpe import figures, results, tables

inp, p = snakemake.input, snakemake.params
with logged(snakemake.log[0]) as log:
    found = results.load(inp.stopping, inp.budget, inp.quantities, inp.theory)
    written = figures.make_all(
        found["stopping"],
        found["budgets"],
        p.experiments,
        found["theory"],
        p.delta,
        tables.lower_bound_table(found["stopping"], found["quantities"]),
        scale=p.scale,
    )
    log.info("wrote %s", ", ".join(written))
