"""Rule nonmanip_aggregate: per-round statistics of every setting of a panel, and run identity."""

from causal_bandits import store
from causal_bandits.aggregate import aggregate
from causal_bandits.logs import logged

with logged(snakemake.log[0]) as log:
    settings = {tuple(k.split("/")): v for k, v in snakemake.input.items() if "/" in k}
    instance = store.read_json(snakemake.input.instance)
    table = aggregate(settings)
    store.write_table(snakemake.output.agg, table, {"experiment": instance["experiment"]})
    # Footnote 4: strategies with the same arm list must give bit-identical runs.
    same = {}
    for larger, smaller in instance["identical"].items():
        for algorithm in {a for _, a in settings}:
            a, b = settings.get((larger, algorithm)), settings.get((smaller, algorithm))
            if a and b:
                same[f"{larger}={smaller}/{algorithm}"] = all(  # data only: metadata names the strategy
                    store.read_table(x).equals(store.read_table(y)) for x, y in zip(a, b)
                )
    store.write_json(snakemake.output.identical, same)
    log.info("%d settings aggregated; identical runs: %s", len(settings), same)
